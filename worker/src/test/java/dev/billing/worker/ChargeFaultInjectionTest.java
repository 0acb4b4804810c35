package dev.billing.worker;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.billing.activities.notifications.OutboxNotifier;
import dev.billing.activities.payments.ForwardingGateway;
import dev.billing.activities.payments.GatewayCharge;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.activities.payments.sandbox.SandboxCharge;
import dev.billing.activities.payments.sandbox.SandboxGateway;
import dev.billing.activities.payments.stripe.StripeGateway;
import dev.billing.activities.payments.stripe.StripeSettings;
import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Receipt;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.store.DynamoBillingStore;
import dev.billing.store.PageRequest;
import dev.billing.store.StoreSettings;
import dev.billing.store.TableNames;
import dev.billing.store.testing.LocalDynamoDb;
import dev.billing.workflows.BillingSearchAttributes;
import dev.billing.workflows.SubscriptionInput;
import dev.billing.workflows.SubscriptionWorkflow;
import dev.billing.workflows.TaskQueues;
import io.temporal.activity.ActivityOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.WorkerOptions;
import io.temporal.worker.WorkflowImplementationOptions;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The worker "dies" right after the gateway charged and before the activity completes (the charge
 * call throws after the money moved, so Temporal never learns the outcome of that attempt and
 * retries it). Afterwards every period must have exactly one successful charge at the gateway and
 * exactly one receipt: the retry carries the same idempotency key and the gateway replays it.
 */
@Timeout(120)
class ChargeFaultInjectionTest {

  private static final int SUBSCRIPTIONS = 20;

  /**
   * Timeouts take real time (the test server does not skip time while an activity runs): keep few.
   */
  private static final int TIMEOUT_SUBSCRIPTIONS = 4;

  /**
   * The charge activity's start-to-close timeout in the timeout test: production's 30 s path, in
   * seconds (the test server does not skip time while an activity runs).
   */
  private static final Duration CHARGE_TIMEOUT = Duration.ofSeconds(3);

  /** Longer than {@link #CHARGE_TIMEOUT}. */
  private static final Duration HANG_PAST_TIMEOUT = Duration.ofSeconds(5);

  private static final Instant START = Instant.parse("2031-03-01T00:00:00Z");
  private static final LocalDate DUE = LocalDate.of(2031, 3, 10);

  private final LocalDynamoDb local = LocalDynamoDb.start();
  private final DynamoDbClient dynamo = local.client();
  private TestWorkflowEnvironment env;
  private WireMockServer stripe;

  @AfterEach
  void stop() {
    if (env != null) {
      env.close();
    }
    if (stripe != null) {
      stripe.stop();
    }
    local.close();
  }

  @Test
  void sandboxChargesEachPeriodOnceAndWritesOneReceipt() {
    SandboxGateway sandbox =
        new SandboxGateway(() -> Instant.ofEpochMilli(env.currentTimeMillis()));
    DiesAfterCharging dying = new DiesAfterCharging(sandbox);
    DynamoBillingStore store = run(dying, "pm_card_visa");

    assertThat(dying.died).as("every first attempt died after charging").hasSize(SUBSCRIPTIONS);
    for (String id : subscriptionIds()) {
      List<SandboxCharge> charges =
          sandbox.charges().stream()
              .filter(c -> c.idempotencyKey().startsWith("charge:" + id + ":1:"))
              .toList();
      assertThat(charges).as(id).hasSize(1);
      assertThat(charges.get(0).outcome()).isEqualTo(SandboxCharge.Outcome.SUCCEEDED);
      assertOneReceiptAndPaidPeriod(store, id, charges.get(0).transactionId());
    }
  }

  @Test
  void aChargeThatTimesOutAfterTheMoneyMovedIsRetriedWithTheSameKey() {
    // The worker hangs after the gateway charged, past the activity's start-to-close timeout, as a
    // dead worker does: Temporal times the attempt out and another attempt replays the same key.
    SandboxGateway sandbox =
        new SandboxGateway(() -> Instant.ofEpochMilli(env.currentTimeMillis()));
    DiesAfterCharging hanging = new DiesAfterCharging(sandbox, HANG_PAST_TIMEOUT);
    DynamoBillingStore store =
        run(
            hanging,
            "pm_card_visa",
            TIMEOUT_SUBSCRIPTIONS,
            WorkflowImplementationOptions.newBuilder()
                .setActivityOptions(
                    Map.of(
                        "ChargePaymentMethod",
                        ActivityOptions.newBuilder()
                            .setStartToCloseTimeout(CHARGE_TIMEOUT)
                            .build()))
                .build());

    assertThat(hanging.died).hasSize(TIMEOUT_SUBSCRIPTIONS);
    for (String id : subscriptionIds(TIMEOUT_SUBSCRIPTIONS)) {
      // The hung attempt timed out and a second one sent the same key.
      assertThat(hanging.calls.get(BillingIds.chargeKey(id, 1, 1))).as(id).isEqualTo(2);
      List<SandboxCharge> charges =
          sandbox.charges().stream()
              .filter(c -> c.idempotencyKey().startsWith("charge:" + id + ":1:"))
              .toList();
      assertThat(charges).as(id).hasSize(1);
      assertOneReceiptAndPaidPeriod(store, id, charges.get(0).transactionId());
    }
  }

  @Test
  void stripeIsAskedWithOneIdempotencyKeyPerPeriodAndOneReceiptIsWritten() {
    stripe = new WireMockServer(wireMockConfig().dynamicPort());
    stripe.start();
    for (String id : subscriptionIds()) {
      stubPaymentIntentReplayedOnRetry(BillingIds.chargeKey(id, 1, 1), "pi_" + id.replace("-", ""));
    }
    StripeGateway gateway =
        new StripeGateway(
            new StripeSettings(
                "sk_test_fault_injection",
                stripe.baseUrl(),
                Duration.ofSeconds(2),
                Duration.ofSeconds(20),
                0)); // 20 charges at once: a timed-out first request would be resent
    DynamoBillingStore store =
        run(new DiesAfterCharging(gateway), "cus_FaultTest/pm_1FaultTestCard");

    Map<String, List<LoggedRequest>> byKey =
        stripe.findAll(postRequestedFor(urlPathEqualTo("/v1/payment_intents"))).stream()
            .collect(Collectors.groupingBy(r -> r.getHeader("Idempotency-Key")));
    for (String id : subscriptionIds()) {
      String key = BillingIds.chargeKey(id, 1, 1);
      // The attempt that "died" and its retry: the same key, so Stripe created one PaymentIntent.
      assertThat(byKey.get(key)).as(key).hasSize(2);
      assertOneReceiptAndPaidPeriod(store, id, "pi_" + id.replace("-", ""));
    }
    assertThat(byKey).hasSize(SUBSCRIPTIONS);
  }

  private DynamoBillingStore run(PaymentGateway gateway, String paymentToken) {
    return run(
        gateway, paymentToken, SUBSCRIPTIONS, WorkflowImplementationOptions.getDefaultInstance());
  }

  private DynamoBillingStore run(
      PaymentGateway gateway,
      String paymentToken,
      int subscriptions,
      WorkflowImplementationOptions workflowOptions) {
    TableNames tables = new TableNames("billing", "billing-history");
    local.createTables(tables);
    DynamoBillingStore store =
        new DynamoBillingStore(dynamo, tables, StoreSettings.defaults(new byte[32]));
    env =
        TestWorkflowEnvironment.newInstance(
            TestEnvironmentOptions.newBuilder().setInitialTime(START).build());
    for (var key : BillingSearchAttributes.ALL) {
      env.registerSearchAttribute(key.getName(), key.getValueType());
    }
    BillingWorker.register(
        env.getWorkerFactory(),
        TaskQueues.BILLING,
        WorkerOptions.getDefaultInstance(),
        workflowOptions,
        new BillingWorker.Adapters(store, gateway, new OutboxNotifier()),
        BillingWorker.DEFAULT_PAYMENT_ACTIVITIES_PER_SECOND);
    env.start();

    WorkflowClient client = env.getWorkflowClient();
    for (String id : subscriptionIds(subscriptions)) {
      SubscriptionWorkflow workflow =
          client.newWorkflowStub(
              SubscriptionWorkflow.class,
              WorkflowOptions.newBuilder()
                  .setWorkflowId(BillingIds.workflowId(id))
                  .setTaskQueue(TaskQueues.BILLING)
                  .build());
      WorkflowClient.start(
          workflow::run, new SubscriptionInput(subscription(id, paymentToken), false));
    }
    // Past the due date of cycle 1, short of cycle 2's reminder.
    env.sleep(Duration.ofDays(12));
    for (String id : subscriptionIds(subscriptions)) {
      awaitPaid(store, id);
    }
    return store;
  }

  private static void assertOneReceiptAndPaidPeriod(
      DynamoBillingStore store, String id, String transactionId) {
    List<Receipt> receipts =
        store
            .getReceiptsByAccount(
                account(id), START.plus(Duration.ofDays(30)), PageRequest.first(50))
            .items();
    assertThat(receipts).as("receipts of " + id).hasSize(1);
    assertThat(receipts.get(0).transactionId()).isEqualTo(transactionId);
    assertThat(receipts.get(0).amount()).isEqualTo(Money.parse("9.99", "USD"));
    var period = store.getPeriods(account(id), id, PageRequest.first(10)).items().get(0);
    assertThat(period.status()).isEqualTo(PeriodStatus.COMPLETED);
    assertThat(period.transactionId()).isEqualTo(transactionId);
  }

  /** Activities run in real time after the timers fired: wait, bounded, for the record to land. */
  private static void awaitPaid(DynamoBillingStore store, String id) {
    await("subscription " + id + " on cycle 2")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> store.getSubscription(account(id), id).filter(s -> s.cycle() == 2).isPresent());
  }

  private void stubPaymentIntentReplayedOnRetry(String key, String intentId) {
    String body =
        """
        {"id":"%s","object":"payment_intent","amount":999,"amount_received":999,"currency":"usd",
         "created":%d,"customer":"cus_FaultTest","payment_method":"pm_1FaultTestCard",
         "latest_charge":null,"livemode":false,"status":"succeeded","last_payment_error":null,
         "metadata":{"idempotencyKey":"%s"}}"""
            .formatted(intentId, START.getEpochSecond(), key);
    stripe.stubFor(
        post(urlPathEqualTo("/v1/payment_intents"))
            .withHeader("Idempotency-Key", equalTo(key))
            .inScenario(key)
            .whenScenarioStateIs(Scenario.STARTED)
            .willSetStateTo("charged")
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Content-Type", "application/json")
                    .withBody(body)));
    stripe.stubFor(
        post(urlPathEqualTo("/v1/payment_intents"))
            .withHeader("Idempotency-Key", equalTo(key))
            .inScenario(key)
            .whenScenarioStateIs("charged")
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Content-Type", "application/json")
                    .withHeader("Idempotent-Replayed", "true")
                    .withBody(body)));
  }

  private static List<String> subscriptionIds() {
    return subscriptionIds(SUBSCRIPTIONS);
  }

  private static List<String> subscriptionIds(int count) {
    return IntStream.rangeClosed(1, count).mapToObj(i -> "sub-fault-" + i).toList();
  }

  private static String account(String subscriptionId) {
    return "acc-" + subscriptionId;
  }

  private static Subscription subscription(String id, String paymentToken) {
    BillingSchedule schedule =
        BillingSchedule.startingOnOrAfter(DUE, DUE.getDayOfMonth(), Term.MONTHLY, "UTC", 3);
    return new Subscription(
        account(id),
        id,
        "pro-monthly",
        Money.parse("9.99", "USD"),
        "ada@example.com",
        new PaymentMethod(paymentToken, "Visa •••• 4242"),
        schedule,
        SubscriptionStatus.ACTIVE,
        1,
        schedule.reminderDate(1),
        schedule.dueDate(1),
        null,
        null,
        START,
        0,
        "request-hash");
  }

  /**
   * Passes every call through, but the first charge of each key "kills the worker" after the money
   * moved: it crashes at once, or hangs past the activity's timeout when given a hang.
   */
  private static final class DiesAfterCharging extends ForwardingGateway {
    private final Duration hang;
    private final Set<String> died = ConcurrentHashMap.newKeySet();
    private final Map<String, Integer> calls = new ConcurrentHashMap<>();

    DiesAfterCharging(PaymentGateway gateway) {
      this(gateway, Duration.ZERO);
    }

    DiesAfterCharging(PaymentGateway gateway, Duration hang) {
      super(gateway);
      this.hang = hang;
    }

    @Override
    public GatewayCharge charge(GatewayChargeRequest request) {
      calls.merge(request.idempotencyKey(), 1, Integer::sum);
      GatewayCharge charged = super.charge(request);
      if (died.add(request.idempotencyKey())) {
        if (hang.isZero()) {
          throw new IllegalStateException(
              "simulated crash: the worker died after the gateway charged "
                  + request.idempotencyKey());
        }
        try {
          Thread.sleep(hang.toMillis());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return charged;
    }
  }
}
