package dev.billing.activities.notifications;

import java.util.Locale;

/** How the connection to the SMTP server is protected. */
public enum SmtpTls {
  /** Plain SMTP (a relay on localhost or the dev stack's embedded server); default port 25. */
  NONE(25),
  /** Plain connection upgraded with STARTTLS, which the server must offer; default port 587. */
  STARTTLS(587),
  /** TLS from the first byte (implicit TLS, "SMTPS"); default port 465. */
  SMTPS(465);

  private final int defaultPort;

  SmtpTls(int defaultPort) {
    this.defaultPort = defaultPort;
  }

  public int defaultPort() {
    return defaultPort;
  }

  /** "none", "starttls" or "smtps", in any case. */
  public static SmtpTls parse(String value) {
    if (value == null || value.isBlank()) {
      return NONE;
    }
    try {
      return valueOf(value.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "SMTP TLS mode must be none, starttls or smtps (got \"" + value + "\")");
    }
  }
}
