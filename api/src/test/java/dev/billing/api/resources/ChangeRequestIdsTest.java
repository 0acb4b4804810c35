package dev.billing.api.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.errors.ApiProblemMapper;
import dev.billing.api.subscriptions.SubscriptionWorkflows;
import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.store.BillingStore;
import dev.billing.workflows.AppliedRequest;
import dev.billing.workflows.BillingDayChange;
import dev.billing.workflows.BillingSearchAttributes;
import dev.billing.workflows.CancelRequest;
import dev.billing.workflows.CustomerChange;
import dev.billing.workflows.PauseRequest;
import dev.billing.workflows.PayNowRequest;
import dev.billing.workflows.PaymentMethodChange;
import dev.billing.workflows.PlanChangeRequest;
import dev.billing.workflows.ReactivateRequest;
import dev.billing.workflows.RefundRequest;
import dev.billing.workflows.ResumeRequest;
import dev.billing.workflows.SubscriptionInput;
import dev.billing.workflows.SubscriptionState;
import dev.billing.workflows.SubscriptionWorkflow;
import dev.billing.workflows.UpdateRejections;
import dev.billing.workflows.UpdateRequest;
import dev.billing.workflows.UpdateRequests;
import dev.billing.workflows.WaiveRequest;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.dropwizard.testing.junit5.ResourceExtension;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import io.temporal.workflow.UpdateInfo;
import io.temporal.workflow.Workflow;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The lifecycle resource's request ids, through the real workflow client against a scripted
 * workflow on the Temporal test server: the Idempotency-Key is the update id and the request's id,
 * an id is generated without one, a pending answer is a 202, and a key reused with another body is
 * a 409 (Temporal answers the first update of that id; the API compares the fingerprints).
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ChangeRequestIdsTest {

  private static final String QUEUE = "change-ids";
  private static final String PENDING_SKU = "PENDING-SKU";
  private static final String DECLINED_SKU = "DECLINED-SKU";
  private static final Subscription SUBSCRIPTION = subscription("sub-ids");
  private static final List<String> UPDATE_IDS = new CopyOnWriteArrayList<>();
  private static final List<PlanChangeRequest> RECEIVED = new CopyOnWriteArrayList<>();
  private static final TestWorkflowEnvironment ENV = startTemporal();

  static final ResourceExtension RESOURCE =
      ResourceExtension.builder()
          .setRegisterDefaultExceptionMappers(false)
          .addResource(
              new SubscriptionLifecycleResource(
                  storeHolding(SUBSCRIPTION),
                  new SubscriptionWorkflows(ENV.getWorkflowClient(), QUEUE, Duration.ofSeconds(10)),
                  null,
                  InstantSource.fixed(Instant.parse("2030-02-01T00:00:00Z"))))
          .addProvider(new ApiProblemMapper())
          .addProvider(new ChangeStillRunningMapper())
          .build();

  @AfterAll
  static void stopTemporal() {
    ENV.close();
  }

  private static Response plan(String idempotencyKey, String sku, String amount) {
    var request = RESOURCE.target("/v1/accounts/acc-1/subscriptions/sub-ids/plan").request();
    if (idempotencyKey != null) {
      request = request.header(IdempotencyKeys.HEADER, idempotencyKey);
    }
    return request.post(
        Entity.entity(
            "{\"sku\":\""
                + sku
                + "\",\"amount\":\""
                + amount
                + "\",\"currency\":\"USD\",\"effective\":\"now\"}",
            MediaType.APPLICATION_JSON));
  }

  @Test
  void theIdempotencyKeyIsTheUpdateIdAndTheRequestsId() {
    Response response = plan("key-passed-1", "PRO-MAX", "19.99");

    assertThat(response.getStatus()).isEqualTo(200);
    assertThat(response.readEntity(JsonNode.class).get("sku").asText()).isEqualTo("PRO-MAX");
    assertThat(UPDATE_IDS).contains("key-passed-1");
    assertThat(RECEIVED).extracting(PlanChangeRequest::requestId).contains("key-passed-1");
  }

  @Test
  void withoutAKeyAnIdIsGeneratedAndUsedAsTheUpdateId() {
    int before = RECEIVED.size();

    Response response = plan(null, "PRO-MAX", "19.99");

    assertThat(response.getStatus()).isEqualTo(200);
    PlanChangeRequest received = RECEIVED.get(before);
    assertThat(received.requestId()).startsWith("req_");
    assertThat(UPDATE_IDS).contains(received.requestId());
    Response another = plan(null, "PRO-MAX", "19.99");
    assertThat(another.getStatus()).isEqualTo(200);
    assertThat(RECEIVED.get(before + 1).requestId()).isNotEqualTo(received.requestId());
  }

  @Test
  void aChangeWhoseMoneyIsPendingIsA202NamingTheRequestAndWhatIsPending() {
    Response response = plan("key-pending-1", PENDING_SKU, "19.99");

    assertThat(response.getStatus()).isEqualTo(202);
    assertThat(response.getLocation().getPath())
        .isEqualTo("/v1/accounts/acc-1/subscriptions/sub-ids");
    JsonNode body = response.readEntity(JsonNode.class);
    assertThat(body.get("subscriptionId").asText()).isEqualTo("sub-ids");
    assertThat(body.get("requestId").asText()).isEqualTo("key-pending-1");
    assertThat(body.get("pending").asText())
        .isEqualTo(
            "plan change to PENDING-SKU pending: its charge "
                + BillingIds.changeChargeKey("sub-ids", "key-pending-1")
                + " got no answer");
  }

  @Test
  void theSameKeyWithAnotherBodyIsA409NamingTheHeader() {
    assertThat(plan("key-reused-1", "PRO-MAX", "19.99").getStatus()).isEqualTo(200);
    int applied = RECEIVED.size();

    Response reused = plan("key-reused-1", "PRO-MAX", "29.99");

    assertThat(reused.getStatus()).isEqualTo(409);
    assertThat(reused.getMediaType().toString()).startsWith("application/problem+json");
    JsonNode problem = reused.readEntity(JsonNode.class);
    assertThat(problem.get("type").asText()).endsWith("idempotency-key-reused");
    assertThat(problem.get("errors").get(0).get("field").asText()).isEqualTo("Idempotency-Key");
    assertThat(RECEIVED)
        .hasSize(applied); // Temporal answered from the first update: nothing applied
    assertThat(plan("key-reused-1", "PRO-MAX", "19.99").getStatus()).isEqualTo(200);
  }

  @Test
  void aRefusalAnswersOnlyItsOwnRequestAnotherBodyUnderItsKeyIsA409() {
    assertThat(plan("key-declined-1", DECLINED_SKU, "19.99").getStatus()).isEqualTo(402);

    assertThat(plan("key-declined-1", DECLINED_SKU, "29.99").getStatus()).isEqualTo(409);
    assertThat(plan("key-declined-1", DECLINED_SKU, "19.99").getStatus()).isEqualTo(402);
  }

  @Test
  void aKeyThatIsNotPrintableAsciiIsA400NamingTheHeader() {
    Response response = plan("x".repeat(256), "PRO-MAX", "19.99");

    assertThat(response.getStatus()).isEqualTo(400);
    assertThat(response.readEntity(JsonNode.class).get("errors").get(0).get("field").asText())
        .isEqualTo("Idempotency-Key");
  }

  /** Answers plan changes as the subscription workflow does, and records what it was sent. */
  public static final class ScriptedWorkflow implements SubscriptionWorkflow {
    private Subscription current;

    @Override
    public SubscriptionState run(SubscriptionInput input) {
      current = input.subscription();
      Workflow.await(() -> false);
      return null;
    }

    @Override
    public SubscriptionState changePlan(PlanChangeRequest request) {
      UPDATE_IDS.add(Workflow.getCurrentUpdateInfo().map(UpdateInfo::getUpdateId).orElseThrow());
      RECEIVED.add(request);
      if (request.sku().equals(PENDING_SKU)) {
        return answer(
            request,
            AppliedRequest.Status.PENDING,
            "plan change to "
                + PENDING_SKU
                + " pending: its charge "
                + BillingIds.changeChargeKey(current.subscriptionId(), request.requestId())
                + " got no answer");
      }
      if (request.sku().equals(DECLINED_SKU)) {
        throw ApplicationFailure.newNonRetryableFailure(
            "the upgrade's prorated charge was declined",
            UpdateRejections.PAYMENT_DECLINED,
            UpdateRequests.fingerprint(request));
      }
      current = current.withPlan(request.sku(), request.price());
      return answer(request, AppliedRequest.Status.APPLIED, "plan changed");
    }

    private SubscriptionState answer(
        UpdateRequest<?> request, AppliedRequest.Status status, String outcome) {
      return new SubscriptionState(
          current,
          SubscriptionState.Phase.WAITING_FOR_REMINDER,
          null,
          outcome,
          new AppliedRequest(
              request.requestId(),
              UpdateRequests.fingerprint(request),
              status,
              outcome,
              null,
              Instant.ofEpochMilli(Workflow.currentTimeMillis())));
    }

    @Override
    public void validateChangePlan(PlanChangeRequest request) {}

    @Override
    public SubscriptionState state() {
      return new SubscriptionState(
          current, SubscriptionState.Phase.WAITING_FOR_REMINDER, null, null);
    }

    @Override
    public SubscriptionState created() {
      return state();
    }

    @Override
    public SubscriptionState cancel(CancelRequest request) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void validateCancel(CancelRequest request) {}

    @Override
    public SubscriptionState changePaymentMethod(PaymentMethodChange change) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void validateChangePaymentMethod(PaymentMethodChange change) {}

    @Override
    public SubscriptionState pause(PauseRequest request) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void validatePause(PauseRequest request) {}

    @Override
    public SubscriptionState resume(ResumeRequest request) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void validateResume(ResumeRequest request) {}

    @Override
    public SubscriptionState payNow(PayNowRequest request) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void validatePayNow(PayNowRequest request) {}

    @Override
    public SubscriptionState waivePeriod(WaiveRequest request) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void validateWaivePeriod(WaiveRequest request) {}

    @Override
    public SubscriptionState refundPeriod(RefundRequest request) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void validateRefundPeriod(RefundRequest request) {}

    @Override
    public SubscriptionState changeBillingDay(BillingDayChange request) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void validateChangeBillingDay(BillingDayChange request) {}

    @Override
    public SubscriptionState changeCustomer(CustomerChange change) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void validateChangeCustomer(CustomerChange change) {}

    @Override
    public SubscriptionState reactivate(ReactivateRequest request) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void validateReactivate(ReactivateRequest request) {}

    @Override
    public void paymentEvent(PaymentEvent event) {}
  }

  private static TestWorkflowEnvironment startTemporal() {
    TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance();
    for (var key : BillingSearchAttributes.ALL) {
      env.registerSearchAttribute(key.getName(), key.getValueType());
    }
    Worker worker = env.newWorker(QUEUE);
    worker.registerWorkflowImplementationTypes(ScriptedWorkflow.class);
    env.start();
    SubscriptionWorkflow workflow =
        env.getWorkflowClient()
            .newWorkflowStub(
                SubscriptionWorkflow.class,
                WorkflowOptions.newBuilder()
                    .setWorkflowId(BillingIds.workflowId(SUBSCRIPTION.subscriptionId()))
                    .setTaskQueue(QUEUE)
                    .build());
    WorkflowClient.start(workflow::run, new SubscriptionInput(SUBSCRIPTION, true));
    return env;
  }

  /** The store as the resource reads it: this one subscription. */
  private static BillingStore storeHolding(Subscription subscription) {
    return (BillingStore)
        Proxy.newProxyInstance(
            BillingStore.class.getClassLoader(),
            new Class<?>[] {BillingStore.class},
            (proxy, method, args) -> {
              if (method.getName().equals("getSubscription")) {
                return args[0].equals(subscription.accountId())
                        && args[1].equals(subscription.subscriptionId())
                    ? Optional.of(subscription)
                    : Optional.empty();
              }
              throw new UnsupportedOperationException(method.getName());
            });
  }

  private static Subscription subscription(String id) {
    BillingSchedule schedule =
        BillingSchedule.startingOnOrAfter(LocalDate.of(2030, 1, 15), 15, Term.MONTHLY, "UTC", 3);
    return new Subscription(
        "acc-1",
        id,
        "pro",
        Money.parse("9.99", "USD"),
        "ada@example.com",
        new PaymentMethod("pm_card_visa", "Visa •••• 4242"),
        schedule,
        SubscriptionStatus.ACTIVE,
        2,
        schedule.reminderDate(2),
        schedule.dueDate(2),
        null,
        Instant.parse("2030-01-15T00:00:00Z"),
        Instant.parse("2030-01-01T00:00:00Z"),
        3,
        "hash");
  }
}
