package dev.billing.api.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.activities.payments.stripe.StripeWebhookReads;
import dev.billing.domain.ChargeRefund;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentEvent;
import dev.billing.store.events.ChargeOwner;
import dev.billing.store.events.StoredEvent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How Stripe's event shapes map to what is stored and signalled. */
class StripeEventsTest {
  private static final Instant RECEIVED = Instant.parse("2026-03-10T12:00:09Z");
  private static final long CREATED = 1773144000L; // 2026-03-10T12:00:00Z
  private static final String METADATA =
      "{\"subscriptionId\":\"sub_1\",\"cycle\":\"3\",\"idempotencyKey\":\"charge:sub_1:3:2\"}";

  private final StripeEvents stripe =
      new StripeEvents(
          paymentIntent ->
              Optional.ofNullable(
                  Map.of("pi_ach", new ChargeOwner("sub_9", 5L, "charge:sub_9:5:1"))
                      .get(paymentIntent)),
          charge -> Optional.empty());

  @Test
  void aFailedPaymentIntentIsChargeFailedWithItsDeclineCode() {
    ParsedEvent event =
        parse(
            event(
                "payment_intent.payment_failed",
                """
        {"id":"pi_1","object":"payment_intent","amount":1234,"currency":"eur",
         "status":"requires_payment_method","latest_charge":"ch_1","metadata":%s,
         "last_payment_error":{"type":"card_error","code":"card_declined",
           "decline_code":"insufficient_funds","message":"Your card has insufficient funds."}}
        """
                    .formatted(METADATA)));

    assertThat(event.signal())
        .isEqualTo(
            new PaymentEvent(
                "evt_1",
                "stripe",
                PaymentEvent.Type.CHARGE_FAILED,
                "sub_1",
                3,
                "charge:sub_1:3:2",
                "pi_1",
                "insufficient_funds",
                "Your card has insufficient funds.",
                Instant.ofEpochSecond(CREATED)));
    assertThat(event.stored().summary())
        .isEqualTo(
            Map.of(
                "amount",
                "12.34",
                "currency",
                "EUR",
                "chargeId",
                "ch_1",
                "status",
                "requires_payment_method",
                "failureCode",
                "insufficient_funds",
                "failureMessage",
                "Your card has insufficient funds."));
    assertThat(event.stored().receivedAt()).isEqualTo(RECEIVED);
  }

  @Test
  void aRefundedChargeIsChargeRefundedOfItsPaymentIntent() {
    ParsedEvent event =
        parse(
            event(
                "charge.refunded",
                """
        {"id":"ch_2","object":"charge","amount":999,"amount_refunded":500,"currency":"usd",
         "payment_intent":"pi_2","status":"succeeded","refunded":false,"metadata":%s,
         "payment_method_details":{"type":"card","card":{"brand":"visa","last4":"4242"}}}
        """
                    .formatted(METADATA)));

    assertThat(event.signal().type()).isEqualTo(PaymentEvent.Type.CHARGE_REFUNDED);
    assertThat(event.signal().transactionId()).isEqualTo("pi_2");
    assertThat(event.signal().cycle()).isEqualTo(3);
    assertThat(event.signal().amount()).as("everything refunded so far").isEqualTo(usd(500));
    assertThat(event.signal().refunds()).as("not embedded, not listed here").isEmpty();
    assertThat(event.stored().summary())
        .containsEntry("amount", "5.00")
        .containsEntry("chargeId", "ch_2")
        .doesNotContainKey("last4");
  }

  @Test
  void aRefundedChargeThatDoesNotEmbedItsRefundsHasThemListedFromStripe() {
    ChargeRefund dashboard =
        new ChargeRefund("re_dash", usd(500), null, Instant.ofEpochSecond(CREATED));
    StripeEvents listing =
        new StripeEvents(
            paymentIntent -> Optional.empty(),
            new StripeWebhookReads() {
              @Override
              public Optional<String> paymentMethodType(String chargeId) {
                return Optional.of("card");
              }

              @Override
              public List<ChargeRefund> refunds(String chargeId) {
                assertThat(chargeId).isEqualTo("ch_2");
                return List.of(dashboard);
              }
            });
    StripeEvents failing =
        new StripeEvents(
            paymentIntent -> Optional.empty(),
            new StripeWebhookReads() {
              @Override
              public Optional<String> paymentMethodType(String chargeId) {
                return Optional.of("card");
              }

              @Override
              public List<ChargeRefund> refunds(String chargeId) {
                throw new IllegalStateException("Stripe is unavailable");
              }
            });
    String body =
        event(
            "charge.refunded",
            """
        {"id":"ch_2","object":"charge","amount":999,"amount_refunded":500,"currency":"usd",
         "payment_intent":"pi_2","status":"succeeded","refunded":false,"metadata":%s}
        """
                .formatted(METADATA));

    PaymentEvent listed = listing.parse(bytes(body), RECEIVED).signal();
    PaymentEvent totalOnly = failing.parse(bytes(body), RECEIVED).signal();

    assertThat(listed.amount()).isEqualTo(usd(500));
    assertThat(listed.refunds()).containsExactly(dashboard);
    assertThat(totalOnly.amount())
        .as("the total alone: the workflow names the difference by it")
        .isEqualTo(usd(500));
    assertThat(totalOnly.refunds()).isEmpty();
  }

  @Test
  void aRefundedChargeThatEmbedsItsRefundsNamesEachWithBillingsKeyWhereBillingMadeIt() {
    ParsedEvent event =
        parse(
            event(
                "charge.refunded",
                """
        {"id":"ch_2","object":"charge","amount":999,"amount_refunded":800,"currency":"usd",
         "payment_intent":"pi_2","status":"succeeded","refunded":false,"metadata":%s,
         "refunds":{"object":"list","has_more":false,"url":"/v1/charges/ch_2/refunds","data":[
           {"id":"re_own","object":"refund","amount":300,"currency":"usd","created":1773140000,
            "status":"succeeded","metadata":{"idempotencyKey":"refund:sub_1:3:req:ab"}},
           {"id":"re_dash","object":"refund","amount":500,"currency":"usd","created":1773144000,
            "status":"succeeded","metadata":{}},
           {"id":"re_failed","object":"refund","amount":100,"currency":"usd","created":1773144000,
            "status":"failed","metadata":{}}]}}
        """
                    .formatted(METADATA)));

    assertThat(event.signal().amount()).isEqualTo(usd(800));
    assertThat(event.signal().refunds())
        .containsExactly(
            new ChargeRefund(
                "re_own", usd(300), "refund:sub_1:3:req:ab", Instant.ofEpochSecond(1773140000)),
            new ChargeRefund("re_dash", usd(500), null, Instant.ofEpochSecond(CREATED)));
  }

  @Test
  void aRefundOfAChargeWithoutMetadataIsRoutedByItsPaymentIntent() {
    ParsedEvent event =
        parse(
            event(
                "charge.refunded",
                """
        {"id":"py_5","object":"charge","amount":999,"amount_refunded":999,"currency":"usd",
         "payment_intent":"pi_ach","metadata":{}}
        """));

    assertThat(event.signal().subscriptionId()).isEqualTo("sub_9");
    assertThat(event.signal().cycle()).isEqualTo(5);
    assertThat(event.signal().transactionId()).isEqualTo("pi_ach");
  }

  @Test
  void anAchDisputeIsTheReturnOfTheChargeItsPaymentIntentBelongsTo() {
    ParsedEvent event =
        parse(
            event(
                "charge.dispute.created",
                """
        {"id":"du_1","object":"dispute","amount":999,"currency":"usd","charge":"py_1",
         "payment_intent":"pi_ach","reason":"debit_not_authorized","network_reason_code":"R10",
         "status":"lost","metadata":{}}
        """));

    assertThat(event.signal())
        .isEqualTo(
            new PaymentEvent(
                "evt_1",
                "stripe",
                PaymentEvent.Type.CHARGE_RETURNED,
                "sub_9",
                5,
                "charge:sub_9:5:1",
                "pi_ach",
                "R10",
                "disputed: debit_not_authorized",
                Instant.ofEpochSecond(CREATED)));
    assertThat(event.stored().subscriptionId()).isEqualTo("sub_9");
  }

  @Test
  void anAchDisputeOfAnUnknownPaymentIntentIsStoredForReconciliation() {
    ParsedEvent event =
        parse(
            event(
                "charge.dispute.created",
                """
        {"id":"du_2","object":"dispute","amount":999,"currency":"usd","charge":"py_2",
         "payment_intent":"pi_unknown","reason":"insufficient_funds","network_reason_code":"R01",
         "metadata":{}}
        """));

    assertThat(event.signal()).isNull();
    assertThat(event.lacksOurMetadata()).isTrue();
    assertThat(event.stored().paymentEventType()).isEqualTo(PaymentEvent.Type.CHARGE_RETURNED);
    assertThat(event.stored().transactionId()).isEqualTo("pi_unknown");
  }

  /**
   * A dispute as Stripe's description has it (no payment_method_details for a bank debit, no
   * top-level network reason code): only the disputed Charge tells that it was an ACH debit.
   */
  private static final String ACH_DISPUTE =
      """
      {"id":"du_7","object":"dispute","amount":999,"balance_transactions":[],"charge":"py_7",
       "created":1773144000,"currency":"usd",
       "evidence":{"customer_name":null,"product_description":null,"receipt":null,
         "uncategorized_text":null},
       "evidence_details":{"due_by":null,"has_evidence":false,"past_due":false,"submission_count":0},
       "is_charge_refundable":false,"livemode":false,"metadata":{},"payment_intent":"pi_ach",
       "reason":"debit_not_authorized","status":"lost"}
      """;

  @Test
  void aDisputeIsABankDebitReturnWhenItsChargeWasPaidByBankAccount() {
    StripeEvents readingCharges =
        new StripeEvents(
            paymentIntent -> Optional.of(new ChargeOwner("sub_9", 5L, "charge:sub_9:5:1")),
            charge -> Optional.of(Map.of("py_7", "us_bank_account", "ch_8", "card").get(charge)));

    ParsedEvent ach =
        readingCharges.parse(bytes(event("charge.dispute.created", ACH_DISPUTE)), RECEIVED);
    ParsedEvent card =
        readingCharges.parse(
            bytes(event("charge.dispute.created", ACH_DISPUTE.replace("py_7", "ch_8"))), RECEIVED);

    assertThat(ach.signal())
        .isEqualTo(
            new PaymentEvent(
                "evt_1",
                "stripe",
                PaymentEvent.Type.CHARGE_RETURNED,
                "sub_9",
                5,
                "charge:sub_9:5:1",
                "pi_ach",
                "debit_not_authorized",
                "disputed: debit_not_authorized",
                Instant.ofEpochSecond(CREATED)));
    assertThat(card.signal().type()).isEqualTo(PaymentEvent.Type.CHARGE_DISPUTED);
    assertThat(card.signal().failureCode()).isEqualTo("debit_not_authorized");
    assertThat(card.signal().amount()).isEqualTo(usd(999));

    // Closed: a bank debit's return was recorded when its dispute opened; a card's decides.
    ParsedEvent achClosed =
        readingCharges.parse(bytes(event("charge.dispute.closed", ACH_DISPUTE)), RECEIVED);
    assertThat(achClosed.signal()).isNull();
    assertThat(achClosed.unsignalled())
        .isEqualTo("a bank debit's return is recorded when its dispute opens");
    ParsedEvent lost =
        readingCharges.parse(
            bytes(event("charge.dispute.closed", ACH_DISPUTE.replace("py_7", "ch_8"))), RECEIVED);
    assertThat(lost.signal().type()).isEqualTo(PaymentEvent.Type.CHARGE_RETURNED);
    assertThat(lost.signal().failureCode()).isEqualTo("dispute_lost");
    assertThat(lost.signal().failureMessage()).isEqualTo("dispute lost: debit_not_authorized");
    ParsedEvent won =
        readingCharges.parse(
            bytes(
                event(
                    "charge.dispute.closed",
                    ACH_DISPUTE.replace("py_7", "ch_8").replace("\"lost\"", "\"won\""))),
            RECEIVED);
    assertThat(won.signal().type()).isEqualTo(PaymentEvent.Type.DISPUTE_WON);
    ParsedEvent review =
        readingCharges.parse(
            bytes(
                event(
                    "charge.dispute.closed",
                    ACH_DISPUTE.replace("py_7", "ch_8").replace("\"lost\"", "\"under_review\""))),
            RECEIVED);
    assertThat(review.signal()).isNull();
  }

  @Test
  void aDisputeWhoseChargeCannotBeReadIsRefusedForRedelivery() {
    StripeEvents stripeDown =
        new StripeEvents(
            paymentIntent -> Optional.empty(),
            charge -> {
              throw new IllegalStateException("Stripe is unavailable");
            });

    assertThatThrownBy(
            () -> stripeDown.parse(bytes(event("charge.dispute.created", ACH_DISPUTE)), RECEIVED))
        .isInstanceOf(WebhookDependencyException.class)
        .hasMessageContaining("py_7");
  }

  @Test
  void aCardDisputeIsAChargebackThePeriodWaitsOnNotAReturn() {
    ParsedEvent event =
        parse(
            event(
                "charge.dispute.created",
                """
        {"id":"du_3","object":"dispute","amount":999,"currency":"usd","charge":"ch_3",
         "payment_intent":"pi_ach","reason":"fraudulent","network_reason_code":"10.4",
         "payment_method_details":{"type":"card","card":{"brand":"visa","network_reason_code":"10.4"}},
         "metadata":{}}
        """));

    assertThat(event.signal().type()).isEqualTo(PaymentEvent.Type.CHARGE_DISPUTED);
    assertThat(event.signal().subscriptionId()).isEqualTo("sub_9");
    assertThat(event.signal().failureCode()).isEqualTo("10.4");
    assertThat(event.stored().paymentEventType()).isEqualTo(PaymentEvent.Type.CHARGE_DISPUTED);

    ParsedEvent amex =
        parse(
            event(
                "charge.dispute.created",
                """
        {"id":"du_4","object":"dispute","amount":999,"currency":"usd","charge":"ch_4",
         "payment_intent":"pi_ach","reason":"product_not_received","network_reason_code":"R13",
         "metadata":{}}
        """));
    assertThat(amex.signal().type())
        .as("an R code on a card charge (ch_) is a chargeback, not an ACH return")
        .isEqualTo(PaymentEvent.Type.CHARGE_DISPUTED);
  }

  @Test
  void aSucceededPaymentIntentWithoutCycleMetadataTakesTheCycleFromItsKey() {
    ParsedEvent event =
        parse(
            event(
                "payment_intent.succeeded",
                """
        {"id":"pi_4","object":"payment_intent","amount":999,"currency":"usd","status":"succeeded",
         "metadata":{"subscriptionId":"sub_1","idempotencyKey":"charge:sub_1:7:1"}}
        """));

    assertThat(event.signal().cycle()).isEqualTo(7);
  }

  @Test
  void aCardNumberInAProviderMessageNeverReachesTheStore() {
    ParsedEvent event =
        parse(
            event(
                "payment_intent.payment_failed",
                """
        {"id":"pi_5","object":"payment_intent","amount":999,"currency":"usd","metadata":%s,
         "last_payment_error":{"code":"incorrect_number",
           "message":"The card number 4242 4242 4242 4241 is incorrect."}}
        """
                    .formatted(METADATA)));

    assertThat(event.stored().summary().get("failureMessage"))
        .isEqualTo("The card number [redacted] is incorrect.");
    assertThat(event.signal().failureMessage())
        .isEqualTo("The card number [redacted] is incorrect.");
  }

  @Test
  void aSignedBodyThatIsNoEventIsRefused() {
    assertThatThrownBy(() -> stripe.parse(bytes("[1,2]"), RECEIVED))
        .isInstanceOf(WebhookPayloadException.class)
        .hasMessage("the body is not a JSON object");
    assertThatThrownBy(
            () -> stripe.parse(bytes("{\"id\":\"evt_1\",\"type\":\"x\",\"created\":1}"), RECEIVED))
        .isInstanceOf(WebhookPayloadException.class)
        .hasMessage("the event has no data.object");
    assertThatThrownBy(
            () ->
                stripe.parse(
                    bytes("{\"type\":\"x\",\"created\":1,\"data\":{\"object\":{}}}"), RECEIVED))
        .isInstanceOf(WebhookPayloadException.class)
        .hasMessage("the event has no id");
    assertThatThrownBy(() -> stripe.parse(bytes("not json"), RECEIVED))
        .isInstanceOf(WebhookPayloadException.class)
        .hasMessage("the body is not JSON");
  }

  /** An object this stripe-java cannot deserialize ("amount" an object, as no version has it). */
  private static final String UNREADABLE_INTENT =
      """
      {"id":"pi_9","object":"payment_intent","amount":{"value":999},"currency":"usd",
       "metadata":%s}
      """
          .formatted(METADATA);

  @Test
  void anOutcomeWhoseObjectCannotBeReadIsRefusedNotStored() {
    assertThatThrownBy(
            () ->
                stripe.parse(bytes(event("payment_intent.succeeded", UNREADABLE_INTENT)), RECEIVED))
        .isInstanceOf(WebhookPayloadException.class)
        .hasMessageStartingWith("the event cannot be read: ");
  }

  @Test
  void anEventOfAnotherTypeWhoseObjectCannotBeReadIsStoredFromItsEnvelope() {
    ParsedEvent event = parse(event("payment_intent.created", UNREADABLE_INTENT));

    assertThat(event.signal()).isNull();
    assertThat(event.stored().type()).isEqualTo("payment_intent.created");
    assertThat(event.stored().summary()).isEmpty();
  }

  private ParsedEvent parse(String body) {
    ParsedEvent event = stripe.parse(bytes(body), RECEIVED);
    StoredEvent stored = event.stored();
    assertThat(stored.provider()).isEqualTo("stripe");
    assertThat(stored.occurredAt()).isEqualTo(Instant.ofEpochSecond(CREATED));
    return event;
  }

  private static String event(String type, String object) {
    return "{\"id\":\"evt_1\",\"object\":\"event\",\"created\":"
        + CREATED
        + ",\"type\":\""
        + type
        + "\",\"data\":{\"object\":"
        + object
        + "}}";
  }

  private static Money usd(long minor) {
    return new Money(minor, "USD");
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
