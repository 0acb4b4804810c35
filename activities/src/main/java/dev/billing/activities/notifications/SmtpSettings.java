package dev.billing.activities.notifications;

import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import java.time.Duration;
import java.util.Objects;

/**
 * How to reach the SMTP server. The password comes from the environment only ({@value
 * #PASSWORD_ENV}) and {@link #toString()} never shows it, so settings can be logged.
 *
 * @param port 0 means the TLS mode's default (25, 587, 465)
 * @param username null for a relay that needs no login; then the password must be null too
 * @param from the From address, optionally with a display name ("Billing
 *     &lt;billing@example.com&gt;"); its address is also the envelope sender that bounces go back
 *     to
 * @param connectTimeout how long to wait for the TCP connection
 * @param timeout how long to wait on each read or write once connected; both must keep one message
 *     (connect, a few commands, DATA) inside the calling activity's start-to-close timeout (30 s)
 */
public record SmtpSettings(
    String host,
    int port,
    SmtpTls tls,
    String username,
    String password,
    String from,
    Duration connectTimeout,
    Duration timeout) {

  public static final String PASSWORD_ENV = "BILLING_SMTP_PASSWORD";
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  public SmtpSettings {
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("SMTP host is required");
    }
    host = host.strip();
    tls = tls == null ? SmtpTls.NONE : tls;
    if (port == 0) {
      port = tls.defaultPort();
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException(
          "SMTP port must be between 1 and 65535 (got " + port + ")");
    }
    username = username == null || username.isBlank() ? null : username;
    password = password == null || password.isEmpty() ? null : password;
    if (username == null && password != null) {
      throw new IllegalArgumentException("an SMTP password needs a username");
    }
    if (username != null && password == null) {
      throw new IllegalArgumentException(
          "SMTP username " + username + " is set but the password is not (" + PASSWORD_ENV + ")");
    }
    fromAddress(from);
    connectTimeout = positive(connectTimeout, DEFAULT_CONNECT_TIMEOUT, "connectTimeout");
    timeout = positive(timeout, DEFAULT_TIMEOUT, "timeout");
  }

  /** Plain SMTP without login, default timeouts: a local relay, the dev stack, tests. */
  public static SmtpSettings plain(String host, int port, String from) {
    return new SmtpSettings(host, port, SmtpTls.NONE, null, null, from, null, null);
  }

  /**
   * The same server with timeouts no longer than {@code limit} (receipts sent inside RecordChange).
   */
  public SmtpSettings withTimeoutsAtMost(Duration limit) {
    return new SmtpSettings(
        host, port, tls, username, password, from, min(connectTimeout, limit), min(timeout, limit));
  }

  /** The parsed From address. */
  public InternetAddress fromAddress() {
    return fromAddress(from);
  }

  private static InternetAddress fromAddress(String from) {
    if (from == null || from.isBlank()) {
      throw new IllegalArgumentException("a From address is required");
    }
    try {
      InternetAddress address = new InternetAddress(from.strip(), true);
      address.validate();
      return address;
    } catch (AddressException e) {
      throw new IllegalArgumentException(
          "the From address is not valid: \"" + from + "\" (" + e.getMessage() + ")");
    }
  }

  private static Duration positive(Duration value, Duration fallback, String name) {
    Duration d = value == null ? fallback : value;
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive");
    }
    return Objects.requireNonNull(d);
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  @Override
  public String toString() {
    return "SmtpSettings[host="
        + host
        + ", port="
        + port
        + ", tls="
        + tls
        + ", username="
        + (username == null ? "(none)" : username)
        + ", password="
        + (password == null ? "(none)" : "(set)")
        + ", from="
        + from
        + ", connectTimeout="
        + connectTimeout
        + ", timeout="
        + timeout
        + "]";
  }
}
