package dev.billing.workflows;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** What the API and the workflow both compute about an {@link UpdateRequest}. Pure. */
public final class UpdateRequests {
  private UpdateRequests() {}

  /**
   * The fingerprint that tells a repeat of a request from another request reusing its id: SHA-256
   * of the request without its id (a record's text names its type and every field). The API and the
   * workflow compare the same fingerprint, so both refuse a reused id with the same rule.
   */
  public static String fingerprint(UpdateRequest<?> request) {
    String canonical = request.withRequestId(null).toString();
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256")
                  .digest(canonical.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
    }
  }
}
