package dev.billing.api;

import dev.billing.store.BillingStore;
import io.temporal.client.WorkflowClient;
import java.time.InstantSource;

/**
 * What the API runs against.
 *
 * @param taskQueue where subscription workflows are started
 * @param clock "now" for the API: today's date for defaults and past checks, receipt expiry. In the
 *     dev stack it follows the Temporal test server's clock.
 */
public record ApiInfrastructure(
    WorkflowClient client, String taskQueue, BillingStore store, InstantSource clock) {}
