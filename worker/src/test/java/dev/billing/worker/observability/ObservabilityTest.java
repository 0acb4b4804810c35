package dev.billing.worker.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.LayoutBase;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.billing.activities.PaymentActivitiesImpl;
import dev.billing.activities.notifications.OutboxNotifier;
import dev.billing.activities.payments.sandbox.SandboxGateway;
import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.domain.reconciliation.Finding;
import dev.billing.domain.reconciliation.FindingKind;
import dev.billing.domain.reconciliation.Repair;
import dev.billing.runtime.ConfigSources;
import dev.billing.runtime.ProcessMetrics;
import dev.billing.store.testing.LocalDynamoDb;
import dev.billing.worker.BillingWorker;
import dev.billing.worker.WorkerConfiguration;
import dev.billing.workflows.BillingSearchAttributes;
import dev.billing.workflows.SubscriptionInput;
import dev.billing.workflows.SubscriptionWorkflow;
import dev.billing.workflows.TaskQueues;
import io.dropwizard.configuration.YamlConfigurationFactory;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.jersey.validation.Validators;
import io.dropwizard.logging.common.ConsoleAppenderFactory;
import io.dropwizard.logging.common.DefaultLoggingFactory;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.WorkerFactoryOptions;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * Business counters and the Temporal SDK's metrics in Prometheus format, and JSON log lines with
 * the ids.
 */
@Timeout(60)
class ObservabilityTest {

  @Test
  void aDeclinedThenRecoveredCycleIsCountedAndTheSdkMetricsAreInTheScrape() throws Exception {
    ProcessMetrics metrics = new ProcessMetrics("worker");
    BusinessMetrics business = new BusinessMetrics(metrics.registry());
    LocalDynamoDb local = LocalDynamoDb.start();
    TestWorkflowEnvironment env =
        TestWorkflowEnvironment.newInstance(
            TestEnvironmentOptions.newBuilder()
                .setInitialTime(Instant.parse("2026-03-01T00:00:00Z"))
                .setMetricsScope(metrics.temporalScope())
                .setWorkerFactoryOptions(
                    WorkerFactoryOptions.newBuilder()
                        .setWorkerInterceptors(new ObservabilityInterceptor(business))
                        .build())
                .build());
    ListAppender<ILoggingEvent> logs = capture(PaymentActivitiesImpl.class);
    try {
      BillingSearchAttributes.ALL.forEach(
          k -> env.registerSearchAttribute(k.getName(), k.getValueType()));
      var store = local.store(local.createTables());
      SandboxGateway sandbox =
          new SandboxGateway(() -> Instant.ofEpochMilli(env.currentTimeMillis()));
      BillingWorker.register(
          env.getWorkerFactory(),
          TaskQueues.BILLING,
          new BillingWorker.Adapters(store, sandbox, new OutboxNotifier()));
      env.start();
      // Soft-declined on its first attempt, paid on the first dunning retry.
      Subscription requested =
          new Subscription(
              "acc-m",
              "sub-m",
              "pro-monthly",
              new Money(999, "USD"),
              "ana@example.com",
              new PaymentMethod("pm_sandbox_recoversAfter_1", "Visa •••• 1881"),
              new BillingSchedule(YearMonth.of(2026, 3), 2, Term.MONTHLY, "UTC", 0),
              SubscriptionStatus.ACTIVE,
              1,
              null,
              null,
              null,
              null,
              Instant.parse("2026-02-20T00:00:00Z"),
              0,
              "r");
      SubscriptionWorkflow workflow =
          env.getWorkflowClient()
              .newWorkflowStub(
                  SubscriptionWorkflow.class,
                  WorkflowOptions.newBuilder()
                      .setWorkflowId(BillingIds.workflowId("sub-m"))
                      .setTaskQueue(TaskQueues.BILLING)
                      .build());
      WorkflowClient.start(workflow::run, new SubscriptionInput(requested, false));
      env.sleep(Duration.ofDays(3));
      awaitCounter(metrics, "billing_dunning_recovered_total", 1);
      business.finding(
          new Finding(
              FindingKind.WORKFLOW_MISSING,
              "sub-x",
              null,
              null,
              null,
              "gone",
              Repair.WORKFLOW_RESTARTED,
              Instant.now()));
      metrics.temporalScope().close(); // flush the SDK's tally scope into the registry now

      String scrape = metrics.scrape();
      assertThat(scrape)
          .contains("billing_charges_succeeded_total{process=\"worker\",} 1.0")
          .contains("billing_charges_failed_total{process=\"worker\",reason=\"declined\",} 1.0")
          .contains("billing_charges_retried_total{process=\"worker\",} 1.0")
          .contains("billing_dunning_entered_total{process=\"worker\",} 1.0")
          .contains("billing_dunning_recovered_total{process=\"worker\",} 1.0")
          .contains(
              "billing_reconciliation_findings_total{kind=\"WORKFLOW_MISSING\",process=\"worker\",repair=\"WORKFLOW_RESTARTED\",} 1.0")
          .containsPattern(
              "temporal_activity_execution_latency_seconds_count\\{.*activity_type=\"ChargePaymentMethod\"")
          .containsPattern(
              "temporal_workflow_completed_total|temporal_workflow_task_execution_latency")
          .contains("jvm_memory_used_bytes");
      // The charge's log lines carry the subscription beside the SDK's workflow id.
      List<ILoggingEvent> logged;
      synchronized (logs) { // activity threads may still be appending; doAppend holds this lock
        logged = List.copyOf(logs.list);
      }
      ILoggingEvent charged =
          logged.stream()
              .filter(e -> e.getFormattedMessage().startsWith("Charged"))
              .findFirst()
              .orElseThrow();
      assertThat(charged.getMDCPropertyMap())
          .containsEntry("subscriptionId", "sub-m")
          .containsEntry("WorkflowId", "subscription-sub-m")
          .containsEntry("ActivityType", "ChargePaymentMethod");
    } finally {
      ((Logger) LoggerFactory.getLogger(PaymentActivitiesImpl.class)).detachAppender(logs);
      env.close();
      local.close();
    }
  }

  @Test
  void theBundledConfigurationLogsOneJsonObjectPerLineWithTheIdsAtTheTop() throws Exception {
    WorkerConfiguration config =
        new YamlConfigurationFactory<>(
                WorkerConfiguration.class,
                Validators.newValidator(),
                Jackson.newObjectMapper(),
                "dw")
            .build(ConfigSources.fileOrClasspathWithEnv(), "worker.yml");
    var appender =
        (ConsoleAppenderFactory<?>)
            ((DefaultLoggingFactory) config.getLoggingFactory()).getAppenders().get(0);
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    @SuppressWarnings("unchecked")
    LayoutBase<ILoggingEvent> layout =
        (LayoutBase<ILoggingEvent>)
            (LayoutBase<?>) appender.getLayout().build(context, TimeZone.getTimeZone("UTC"));
    layout.start();
    LoggingEvent event =
        new LoggingEvent(
            "dev.billing.Test",
            context.getLogger("dev.billing.Test"),
            Level.WARN,
            "cycle {} unpaid",
            null,
            new Object[] {3});
    event.setMDCPropertyMap(Map.of("subscriptionId", "sub-1", "WorkflowId", "subscription-sub-1"));

    JsonNode line = new ObjectMapper().readTree(layout.doLayout(event));
    assertThat(line.get("message").asText()).isEqualTo("cycle 3 unpaid");
    assertThat(line.get("level").asText()).isEqualTo("WARN");
    assertThat(line.get("subscriptionId").asText()).isEqualTo("sub-1");
    assertThat(line.get("WorkflowId").asText()).isEqualTo("subscription-sub-1");
    assertThat(ObservabilityInterceptor.subscriptionOf("subscription-sub-1")).isEqualTo("sub-1");
    assertThat(ObservabilityInterceptor.subscriptionOf("billing-reconciliation")).isNull();
  }

  private static ListAppender<ILoggingEvent> capture(Class<?> type) {
    Logger logger = (Logger) LoggerFactory.getLogger(type);
    logger.setLevel(Level.INFO);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    return appender;
  }

  /** Activities run in real time after the timers fired: poll, bounded. */
  private static void awaitCounter(ProcessMetrics metrics, String name, double value) {
    await(name + " = " + value)
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> metrics.scrape().contains(name + "{process=\"worker\",} " + value));
  }
}
