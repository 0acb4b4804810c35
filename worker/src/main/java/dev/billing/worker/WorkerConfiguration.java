package dev.billing.worker;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.billing.domain.DunningPolicy;
import dev.billing.runtime.BillingConfiguration;
import dev.billing.runtime.MailSettings;
import dev.billing.worker.delivery.DeliverySettings;
import dev.billing.worker.reconciliation.ReconciliationSettings;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;

/** worker.yml: where Temporal and DynamoDB are, and which gateway and notifier adapters to use. */
public class WorkerConfiguration extends BillingConfiguration {

  /**
   * "sandbox" (deterministic test payment methods) or "stripe" (STRIPE_API_KEY from the
   * environment).
   */
  @NotNull
  @JsonProperty("gateway")
  public String gateway = "sandbox";

  /**
   * Payment activities (charge, look-up, refund) started per second across all workers, on their
   * own task queue: a bit under the gateway's rate limit (sandbox and Stripe test mode 25
   * requests/s, Stripe live 100), which the reconciliation's reads share.
   */
  @Positive
  @JsonProperty("paymentActivitiesPerSecond")
  public double paymentActivitiesPerSecond = BillingWorker.DEFAULT_PAYMENT_ACTIVITIES_PER_SECOND;

  /**
   * Retry offsets in days after the due date, and what happens when they are exhausted. A change
   * applies to periods whose first attempt fails afterwards, never to dunning under way.
   */
  @NotNull
  @JsonProperty("dunning")
  public DunningPolicy dunning = DunningPolicy.DEFAULT;

  /** EXPIRE is the end of a first payment's own schedule: it would expire a paying customer. */
  @JsonIgnore
  @AssertTrue(
      message =
          "dunning.finalOutcome must be CANCEL, PAUSE or LEAVE_UNPAID (EXPIRE ends a first"
              + " payment only)")
  public boolean isDunningOutcomeAllowed() {
    return dunning == null || !dunning.expires();
  }

  /**
   * The daily reconciliation and the missed-webhook poll: Temporal Schedules, or cron workflows
   * where Schedules are missing.
   */
  @NotNull
  @JsonProperty("reconciliation")
  public ReconciliationSettings reconciliation = ReconciliationSettings.defaults();

  /** Merchant events to webhook endpoints, and the sweep of what is still owed. */
  @NotNull
  @JsonProperty("delivery")
  public DeliverySettings delivery = DeliverySettings.defaults();

  /**
   * The API's page-token secret (BILLING_PAGE_TOKEN_SECRET): webhook endpoints' signing secrets are
   * sealed under a key derived from it, and delivery signs with them. Without it no delivery can be
   * signed: each attempt is recorded as failed ("secret_unreadable") and retried.
   */
  @JsonProperty("pageTokenSecret")
  public String pageTokenSecret = "";

  /** The SMTP server of customer email; its password comes from BILLING_SMTP_PASSWORD only. */
  @NotNull
  @JsonProperty("mail")
  public MailSettings mail = MailSettings.localRelay();
}
