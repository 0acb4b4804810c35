package dev.billing.api.ops;

import java.util.List;

/**
 * One report: its head and a page of its findings ({@code nextFindingsPageToken} pages on, with
 * {@code ?pageToken=}).
 */
public record ReconciliationReportView(
    ReconciliationView report, List<FindingView> findings, String nextFindingsPageToken) {}
