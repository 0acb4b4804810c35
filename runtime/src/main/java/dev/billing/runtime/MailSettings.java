package dev.billing.runtime;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Locale;
import java.util.Set;

/**
 * The SMTP server customer email goes through (worker.yml's {@code mail} block). The password is
 * not here: it comes from the environment only ({@code BILLING_SMTP_PASSWORD}), like every secret.
 *
 * @param port 0 (or empty) means the TLS mode's usual port: 25 for none, 587 for starttls, 465 for
 *     smtps
 * @param tls none, starttls (required: never falls back to plain text) or smtps
 * @param username empty when the relay needs no login
 * @param from the From address, optionally with a display name; bounces go to its address
 */
public record MailSettings(
    @JsonProperty("host") String host,
    @JsonProperty("port") int port,
    @JsonProperty("tls") String tls,
    @JsonProperty("username") String username,
    @JsonProperty("from") String from) {

  public static final String DEFAULT_FROM = "billing@localhost";
  private static final Set<String> TLS_MODES = Set.of("none", "starttls", "smtps");

  public MailSettings {
    host = TemporalSettings.blankToDefault(host, "localhost");
    tls = TemporalSettings.blankToDefault(tls, "none").strip().toLowerCase(Locale.ROOT);
    if (!TLS_MODES.contains(tls)) {
      throw new IllegalArgumentException(
          "mail.tls must be none, starttls or smtps (got \"" + tls + "\")");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(
          "mail.port must be between 0 (the TLS mode's default) and 65535");
    }
    username = TemporalSettings.blankToNull(username);
    from = TemporalSettings.blankToDefault(from, DEFAULT_FROM);
  }

  /** A relay on localhost:25 without TLS or login, sending as {@value #DEFAULT_FROM}. */
  public static MailSettings localRelay() {
    return new MailSettings(null, 0, null, null, null);
  }
}
