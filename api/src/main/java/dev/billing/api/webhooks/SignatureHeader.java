package dev.billing.api.webhooks;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A {@code t=<unix seconds>,v1=<hex>[,v1=<hex>...]} signature header (Stripe's scheme, which the
 * sandbox copies). Several v1 values arrive while a secret is being rolled; other schemes (Stripe's
 * test-only v0) are ignored.
 */
record SignatureHeader(long timestamp, List<String> signatures) {
  /**
   * Far above a real header (a timestamp and a few 64-character signatures); bounds the parsing.
   */
  static final int MAX_LENGTH = 1024;

  private static final Pattern SECONDS = Pattern.compile("[0-9]{1,12}");

  SignatureHeader {
    signatures = List.copyOf(signatures);
  }

  /**
   * @throws IllegalArgumentException when the header is not of this shape, saying what is wrong
   */
  static SignatureHeader parse(String header) {
    if (header.length() > MAX_LENGTH) {
      throw new IllegalArgumentException("is longer than " + MAX_LENGTH + " characters");
    }
    Long timestamp = null;
    List<String> signatures = new ArrayList<>();
    for (String element : header.split(",")) {
      int eq = element.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("must be a comma-separated list of key=value items");
      }
      String key = element.substring(0, eq).strip();
      String value = element.substring(eq + 1).strip();
      if (key.equals("t")) {
        if (timestamp != null) {
          throw new IllegalArgumentException("has more than one timestamp (t)");
        }
        timestamp = seconds(value);
      } else if (key.equals("v1")) {
        signatures.add(value);
      }
    }
    if (timestamp == null) {
      throw new IllegalArgumentException("has no timestamp (t)");
    }
    if (signatures.isEmpty()) {
      throw new IllegalArgumentException("has no v1 signature");
    }
    return new SignatureHeader(timestamp, signatures);
  }

  private static long seconds(String value) {
    if (!SECONDS.matcher(value).matches()) {
      throw new IllegalArgumentException("timestamp (t) must be Unix seconds");
    }
    return Long.parseLong(value);
  }
}
