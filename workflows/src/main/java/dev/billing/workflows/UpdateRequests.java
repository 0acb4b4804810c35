package dev.billing.workflows;

import dev.billing.domain.Digests;

/** What the API and the workflow both compute about an {@link UpdateRequest}. Pure. */
public final class UpdateRequests {
  private UpdateRequests() {}

  /**
   * The fingerprint that tells a repeat of a request from another request reusing its id: SHA-256
   * of the request without its id (a record's text names its type and every field). The API and the
   * workflow compare the same fingerprint, so both refuse a reused id with the same rule.
   */
  public static String fingerprint(UpdateRequest<?> request) {
    return Digests.sha256Hex(request.withRequestId(null).toString());
  }
}
