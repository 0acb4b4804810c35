package dev.billing.devstack;

import dev.billing.worker.delivery.DeliverySettings;
import dev.billing.worker.reconciliation.ReconciliationSettings;
import dev.billing.worker.reconciliation.WebhookPollSettings;

/**
 * Ports of the embedded stack and its operator key. {@link #fromEnvironment()} reads the documented
 * variables; tests pick free ports so they never collide with a running {@code ./billing dev}.
 *
 * @param devApiKey the bearer key that acts as operator in the dev stack (BILLING_DEV_API_KEY,
 *     default "dev"); the production API has no such key
 * @param receiverPort the dev webhook receiver's (BILLING_DEV_RECEIVER_PORT, default 8082); 0 for
 *     any free port
 */
public record DevStackSettings(
    int apiPort,
    int adminPort,
    int temporalPort,
    int dynamoPort,
    ReconciliationSettings reconciliation,
    DevTemporalChoice temporal,
    int temporalUiPort,
    String devApiKey,
    int receiverPort) {

  public static final String DEFAULT_DEV_API_KEY = "dev";

  /**
   * Weekly (Mondays 03:00 UTC on the test clock) over the past week, not daily over three days as
   * in production: advancing the clock a month then runs four reconciliations instead of thirty,
   * which keeps a jump to a few seconds. RECONCILIATION_CRON and RECONCILIATION_ENABLED override
   * it. The missed-webhook poll is off for the same reason (every four hours, a month is 180 polls)
   * and because the stack relays every sandbox webhook itself; WEBHOOK_POLL_ENABLED=true (and
   * WEBHOOK_POLL_CRON) turn it on.
   */
  public static final ReconciliationSettings DEV_RECONCILIATION =
      new ReconciliationSettings(true, "0 3 * * 1", 7, null, WebhookPollSettings.off());

  /**
   * Shards of the due-date index keys in the dev stack's (in-memory) table: two, not production's
   * 16. A reconciliation run queries every shard of every day in its window, and on DynamoDB Local
   * those sequential queries made the weekly runs most of a clock jump's time. Two still take the
   * sharded read path.
   */
  public static final int DEV_DATE_KEY_SHARDS = 2;

  /**
   * The dev API's page-token secret, which the dev worker shares: the webhook endpoints' signing
   * secrets are sealed under a key derived from it.
   */
  public static final String DEV_PAGE_TOKEN_SECRET =
      "dev-only-page-token-secret-not-for-production";

  public DevStackSettings {
    reconciliation = reconciliation == null ? DEV_RECONCILIATION : reconciliation;
    temporal = temporal == null ? DevTemporalChoice.of("test-server", null) : temporal;
    devApiKey = devApiKey == null || devApiKey.isBlank() ? DEFAULT_DEV_API_KEY : devApiKey.strip();
  }

  /**
   * The Java test server (the test clock), the development reconciliation schedule, the key "dev".
   */
  public DevStackSettings(int apiPort, int adminPort, int temporalPort, int dynamoPort) {
    this(apiPort, adminPort, temporalPort, dynamoPort, null, null, 8233, DEFAULT_DEV_API_KEY, 0);
  }

  public static DevStackSettings fromEnvironment() {
    String enabled = System.getenv("RECONCILIATION_ENABLED");
    String cron = System.getenv("RECONCILIATION_CRON");
    String pollEnabled = System.getenv("WEBHOOK_POLL_ENABLED");
    return new DevStackSettings(
        port("BILLING_PORT", 8080),
        port("BILLING_ADMIN_PORT", 8081),
        port("TEMPORAL_PORT", 7233),
        port("DYNAMODB_PORT", 8000),
        new ReconciliationSettings(
            enabled == null || enabled.isBlank() ? null : Boolean.valueOf(enabled.trim()),
            cron == null || cron.isBlank() ? DEV_RECONCILIATION.cron() : cron,
            DEV_RECONCILIATION.lookbackDays(),
            null,
            new WebhookPollSettings(
                pollEnabled != null && Boolean.parseBoolean(pollEnabled.trim()),
                System.getenv("WEBHOOK_POLL_CRON"),
                null,
                null)),
        DevTemporalChoice.of(System.getenv(DevTemporalChoice.VARIABLE), System.getenv("PATH")),
        port("TEMPORAL_UI_PORT", 8233),
        System.getenv("BILLING_DEV_API_KEY"),
        port("BILLING_DEV_RECEIVER_PORT", 8082));
  }

  private static int port(String variable, int fallback) {
    String value = System.getenv(variable);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      int port = Integer.parseInt(value.trim());
      if (port < 1 || port > 65535) {
        throw new NumberFormatException();
      }
      return port;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          variable + " must be a port number (1-65535), got \"" + value + "\"");
    }
  }

  public String temporalTarget() {
    return "localhost:" + temporalPort;
  }

  public String dynamoEndpoint() {
    return "http://localhost:" + dynamoPort;
  }

  /**
   * Delivery of merchant events with its sweep: a Temporal Schedule on the real dev server; none on
   * the test server, which has no Schedules (the records' signals deliver alone there).
   */
  public DeliverySettings delivery() {
    return DeliverySettings.defaults();
  }
}
