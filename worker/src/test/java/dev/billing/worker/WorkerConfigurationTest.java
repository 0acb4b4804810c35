package dev.billing.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.domain.DunningPolicy;
import dev.billing.runtime.ConfigSources;
import io.dropwizard.configuration.ConfigurationException;
import io.dropwizard.configuration.ConfigurationSourceProvider;
import io.dropwizard.configuration.YamlConfigurationFactory;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.jersey.validation.Validators;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The bundled worker.yml is what a user runs with no file of their own: it must parse to the documented defaults. */
class WorkerConfigurationTest {

  private static WorkerConfiguration parse(ConfigurationSourceProvider provider, String path) throws Exception {
    return new YamlConfigurationFactory<>(WorkerConfiguration.class, Validators.newValidator(),
        Jackson.newObjectMapper(), "dw").build(provider, path);
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
    assertThat(config.dunning).isEqualTo(DunningPolicy.DEFAULT);
    assertThat(config.reconciliation).isEqualTo(
        new dev.billing.worker.reconciliation.ReconciliationSettings(true, "0 3 * * *", 3, "billing-reconciliation"));
  }

  @Test
  void aReconciliationCronThatTemporalCannotRunIsRejected() {
    assertThatThrownBy(() -> parse(yaml("reconciliation:\n  cron: \"0 0 3 * * *\"\n"), "inline.yml"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("reconciliation.cron must have five fields");
  }

  @Test
  void aDunningScheduleThatDoesNotRiseIsRejected() {
    assertThatThrownBy(() -> parse(yaml("dunning:\n  retryAfterDays: [3, 1]\n  finalOutcome: CANCEL\n"),
        "inline.yml"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("retryAfterDays must rise strictly");
  }

  @Test
  void anApiKeyIsNeverPrinted() throws Exception {
    WorkerConfiguration config = parse(yaml("temporal:\n  target: ns.acct.tmprl.cloud:7233\n"
        + "  apiKey: secret-key-123\n"), "inline.yml");

    assertThat(config.temporal.usesTls()).isTrue();
    assertThat(config.temporal.toString()).doesNotContain("secret-key-123").contains("api-key");
  }

  @Test
  void aCertificateWithoutItsKeyIsRejected() {
    assertThatThrownBy(() -> parse(yaml("temporal:\n  tlsCertPath: /etc/client.pem\n"), "inline.yml"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("tlsCertPath and temporal.tlsKeyPath go together");
  }

  @Test
  void aMalformedRetentionIsRejected() {
    assertThatThrownBy(() -> parse(yaml("dynamo:\n  receiptRetention: twelve months\n"), "inline.yml"))
        .isInstanceOf(ConfigurationException.class);
  }

  @Test
  void anUnknownGatewayIsRejectedWithTheChoices() throws Exception {
    WorkerConfiguration config = parse(yaml("gateway: paypal\n"), "inline.yml");

    assertThatThrownBy(() -> WorkerApplication.gateway(config))
        .hasMessage("gateway must be \"sandbox\" or \"stripe\" (got \"paypal\")");
  }

  private static ConfigurationSourceProvider yaml(String text) {
    return path -> new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
  }
}
