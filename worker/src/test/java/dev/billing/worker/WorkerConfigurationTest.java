package dev.billing.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.domain.DunningPolicy;
import dev.billing.runtime.ConfigSources;
import dev.billing.runtime.MailSettings;
import dev.billing.store.NotificationLog;
import io.dropwizard.configuration.ConfigurationException;
import io.dropwizard.configuration.ConfigurationSourceProvider;
import io.dropwizard.configuration.YamlConfigurationFactory;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.jersey.validation.Validators;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.time.Period;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The bundled worker.yml is what a user runs with no file of their own: it must parse to the
 * documented defaults.
 */
class WorkerConfigurationTest {
  /** Never called by these tests: they only build the notifiers. */
  private static final NotificationLog NOT_USED =
      new NotificationLog(
          DynamoDbClient.builder()
              .region(Region.US_EAST_1)
              .credentialsProvider(AnonymousCredentialsProvider.create())
              .build(),
          "billing",
          Period.ofMonths(12));

  private static WorkerConfiguration parse(ConfigurationSourceProvider provider, String path)
      throws Exception {
    return new YamlConfigurationFactory<>(
            WorkerConfiguration.class, Validators.newValidator(), Jackson.newObjectMapper(), "dw")
        .build(provider, path);
  }

  @Test
  void bundledWorkerYamlParsesToTheDocumentedDefaults() throws Exception {
    WorkerConfiguration config = parse(ConfigSources.fileOrClasspathWithEnv(), "worker.yml");

    assertThat(config.temporal.target()).isEqualTo("localhost:7233");
    assertThat(config.temporal.namespace()).isEqualTo("default");
    assertThat(config.temporal.taskQueue()).isEqualTo("billing");
    assertThat(config.temporal.apiKey()).isNull();
    assertThat(config.temporal.usesTls()).isFalse();
    assertThat(config.dynamo.endpoint()).isNull();
    assertThat(config.dynamo.region()).isEqualTo("us-east-1");
    assertThat(config.dynamo.billingTable()).isEqualTo("billing");
    assertThat(config.dynamo.historyTable()).isEqualTo("billing-history");
    assertThat(config.dynamo.paymentEventsTable()).isEqualTo("payment-events");
    assertThat(config.dynamo.createTables()).isFalse();
    assertThat(config.dynamo.receiptRetention()).isEqualTo("P12M");
    assertThat(config.gateway).isEqualTo("sandbox");
    assertThat(config.paymentActivitiesPerSecond).isEqualTo(20.0);
    assertThat(config.dunning).isEqualTo(DunningPolicy.DEFAULT);
    assertThat(config.reconciliation)
        .isEqualTo(
            new dev.billing.worker.reconciliation.ReconciliationSettings(
                true, "0 3 * * *", 3, "billing-reconciliation"));
    assertThat(config.reconciliation.webhookPoll())
        .isEqualTo(
            new dev.billing.worker.reconciliation.WebhookPollSettings(
                true, "15 */4 * * *", 1, "billing-webhook-poll"));
    assertThat(config.mail)
        .isEqualTo(new MailSettings("localhost", 0, "none", null, "billing@localhost"));
    assertThat(config.delivery.disabling().after()).isEqualTo(java.time.Duration.ofDays(5));
  }

  @Test
  void theTimeBeforeAFailingEndpointIsDisabledIsADurationOfAnHourOrMore() throws Exception {
    WorkerConfiguration config =
        parse(yaml("delivery:\n  endpointDisableAfter: PT36H\n"), "inline.yml");
    assertThat(config.delivery.disabling().after()).isEqualTo(java.time.Duration.ofHours(36));
    assertThat(config.delivery.sweepCron()).isEqualTo("*/5 * * * *");

    assertThatThrownBy(
            () -> parse(yaml("delivery:\n  endpointDisableAfter: 5 days\n"), "inline.yml"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("delivery.endpointDisableAfter must be an ISO-8601 duration");
    assertThatThrownBy(
            () -> parse(yaml("delivery:\n  endpointDisableAfter: PT59M\n"), "inline.yml"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("at least PT1H");
  }

  @Test
  void aReconciliationCronThatTemporalCannotRunIsRejected() {
    assertThatThrownBy(
            () -> parse(yaml("reconciliation:\n  cron: \"0 0 3 * * *\"\n"), "inline.yml"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("reconciliation.cron must have five fields");
  }

  @Test
  void theWebhookPollIsConfiguredBesideTheDailyRunAndCheckedTheSameWay() throws Exception {
    WorkerConfiguration config =
        parse(
            yaml(
                "reconciliation:\n  webhookPoll:\n    enabled: false\n    cron: \"5 * * * *\"\n"
                    + "    lookbackDays: 2\n"),
            "inline.yml");
    assertThat(config.reconciliation.webhookPoll())
        .isEqualTo(
            new dev.billing.worker.reconciliation.WebhookPollSettings(
                false, "5 * * * *", 2, "billing-webhook-poll"));
    assertThat(config.reconciliation.cron()).isEqualTo("0 3 * * *");

    assertThatThrownBy(
            () ->
                parse(
                    yaml("reconciliation:\n  webhookPoll:\n    cron: \"*/4 * * *\"\n"),
                    "inline.yml"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("reconciliation.webhookPoll.cron must have five fields");
  }

  @Test
  void theSmtpPasswordComesFromTheEnvironmentAndIsNeverPrinted() throws Exception {
    WorkerConfiguration config =
        parse(
            yaml(
                "mail:\n  host: smtp.example.com\n  tls: STARTTLS\n"
                    + "  username: apikey\n  from: Billing <billing@example.com>\n"),
            "inline.yml");

    EmailNotifiers email =
        EmailNotifiers.create(
            config.mail,
            Map.of("BILLING_SMTP_PASSWORD", "s3cr3t-password"),
            NOT_USED,
            InstantSource.system());

    assertThat(email.smtp().password()).isEqualTo("s3cr3t-password");
    assertThat(email.smtp().port()).isEqualTo(587);
    assertThat(email.smtp().toString()).doesNotContain("s3cr3t-password");
  }

  @Test
  void aLoginWithoutItsPasswordInTheEnvironmentStopsTheWorker() throws Exception {
    WorkerConfiguration config = parse(yaml("mail:\n  username: apikey\n"), "inline.yml");

    assertThatThrownBy(
            () -> EmailNotifiers.create(config.mail, Map.of(), NOT_USED, InstantSource.system()))
        .hasMessage("SMTP username apikey is set but the password is not (BILLING_SMTP_PASSWORD)");
  }

  @Test
  void anUnknownTlsModeIsRejectedWithTheChoices() {
    assertThatThrownBy(() -> parse(yaml("mail:\n  tls: ssl\n"), "inline.yml"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("mail.tls must be none, starttls or smtps (got \"ssl\")");
  }

  @Test
  void aDunningScheduleThatDoesNotRiseIsRejected() {
    assertThatThrownBy(
            () ->
                parse(
                    yaml("dunning:\n  retryAfterDays: [3, 1]\n  finalOutcome: CANCEL\n"),
                    "inline.yml"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("retryAfterDays must rise strictly");
  }

  @Test
  void theFirstPaymentHasItsOwnScheduleAndNeverTheExpiryForDunning() throws Exception {
    WorkerConfiguration config =
        parse(
            yaml(
                "dunning:\n  retryAfterDays: [2, 4]\n  finalOutcome: CANCEL\n"
                    + "  firstPaymentRetryAfterDays: [2]\n"),
            "inline.yml");
    assertThat(config.dunning.retryAfterDays()).containsExactly(2, 4);
    assertThat(config.dunning.firstPaymentRetryAfterDays()).containsExactly(2);
    assertThat(config.dunning.firstPayment().retryAfterDays()).containsExactly(2);

    assertThatThrownBy(
            () ->
                parse(
                    yaml("dunning:\n  retryAfterDays: [1]\n  finalOutcome: EXPIRE\n"),
                    "inline.yml"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("EXPIRE ends a first payment only");
    assertThatThrownBy(
            () ->
                parse(
                    yaml(
                        "dunning:\n  retryAfterDays: [1]\n  finalOutcome: CANCEL\n"
                            + "  firstPaymentRetryAfterDays: [1, 30]\n"),
                    "inline.yml"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("firstPaymentRetryAfterDays must rise strictly");
  }

  @Test
  void anApiKeyIsNeverPrinted() throws Exception {
    WorkerConfiguration config =
        parse(
            yaml("temporal:\n  target: ns.acct.tmprl.cloud:7233\n" + "  apiKey: secret-key-123\n"),
            "inline.yml");

    assertThat(config.temporal.usesTls()).isTrue();
    assertThat(config.temporal.toString()).doesNotContain("secret-key-123").contains("api-key");
  }

  @Test
  void aCertificateWithoutItsKeyIsRejected() {
    assertThatThrownBy(
            () -> parse(yaml("temporal:\n  tlsCertPath: /etc/client.pem\n"), "inline.yml"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("tlsCertPath and temporal.tlsKeyPath go together");
  }

  @Test
  void aMalformedRetentionIsRejected() {
    assertThatThrownBy(
            () -> parse(yaml("dynamo:\n  receiptRetention: twelve months\n"), "inline.yml"))
        .isInstanceOf(ConfigurationException.class);
  }

  @Test
  void aPaymentRateThatIsNotPositiveIsRejected() {
    assertThatThrownBy(() -> parse(yaml("paymentActivitiesPerSecond: 0\n"), "inline.yml"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("paymentActivitiesPerSecond");
  }

  @Test
  void theSandboxTakesItsSettingsFromTheEnvironment() throws Exception {
    WorkerConfiguration config = parse(yaml("gateway: sandbox\n"), "inline.yml");

    var sandbox =
        (dev.billing.activities.payments.sandbox.SandboxGateway)
            WorkerApplication.gateway(
                config, Map.of("SANDBOX_REQUESTS_PER_SECOND", "100", "SANDBOX_SEARCH_LAG", "PT1H"));

    assertThat(sandbox.settings())
        .isEqualTo(
            dev.billing.activities.payments.sandbox.SandboxSettings.defaults()
                .withRequestsPerSecond(100)
                .withSearchLag(java.time.Duration.ofHours(1)));
  }

  @Test
  void anUnknownGatewayIsRejectedWithTheChoices() throws Exception {
    WorkerConfiguration config = parse(yaml("gateway: paypal\n"), "inline.yml");

    assertThatThrownBy(() -> WorkerApplication.gateway(config, Map.of()))
        .hasMessage("gateway must be \"sandbox\" or \"stripe\" (got \"paypal\")");
  }

  private static ConfigurationSourceProvider yaml(String text) {
    return path -> new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
  }
}
