package dev.billing.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class GatewayRefundsTest {
  private static final Instant AT = Instant.parse("2028-01-20T00:00:00Z");
  private static final String TXN = "pi_1";

  private static Money usd(String amount) {
    return Money.parse(amount, "USD");
  }

  private static Period collected(Money refunded, PeriodRefund... refunds) {
    return new Period(
        "acc",
        "sub",
        1,
        LocalDate.of(2028, 1, 15),
        usd("9.99"),
        refunded == null ? PeriodStatus.COMPLETED : PeriodStatus.REFUNDED,
        1,
        TXN,
        null,
        null,
        AT,
        refunded,
        List.of(refunds));
  }

  private static ChargeRefund listed(String id, String amount, String key) {
    return new ChargeRefund(id, usd(amount), key, AT.minusSeconds(60));
  }

  @Test
  void listedRefundsAreAddedUnderTheirGatewayIds() {
    List<PeriodRefund> added =
        GatewayRefunds.unrecorded(
            collected(null),
            TXN,
            usd("5.00"),
            List.of(listed("re_2", "2.00", null), listed("re_1", "3.00", null)),
            AT);

    assertThat(added)
        .extracting(PeriodRefund::refundId, PeriodRefund::amount, PeriodRefund::idempotencyKey)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("re_1", usd("3.00"), "gateway-refund:re_1"),
            org.assertj.core.groups.Tuple.tuple("re_2", usd("2.00"), "gateway-refund:re_2"));
  }

  @Test
  void theGatewaysTotalBoundsWhatIsRecorded() {
    PeriodRefund recorded =
        new PeriodRefund(GatewayRefunds.key("re_1"), null, TXN, usd("3.00"), AT, "re_1");
    Period period = collected(usd("3.00"), recorded);

    // The same refund again, as a total or listed: nothing.
    assertThat(GatewayRefunds.unrecorded(period, TXN, usd("3.00"), List.of(), AT)).isEmpty();
    assertThat(
            GatewayRefunds.unrecorded(
                period, TXN, usd("3.00"), List.of(listed("re_1", "3.00", null)), AT))
        .isEmpty();
    // A refund listed under another id while the total holds nothing more: not counted twice.
    assertThat(
            GatewayRefunds.unrecorded(
                period, TXN, usd("3.00"), List.of(listed("re_other", "3.00", null)), AT))
        .isEmpty();
    // A new total without names: the difference, once.
    List<PeriodRefund> rest = GatewayRefunds.unrecorded(period, TXN, usd("4.50"), List.of(), AT);
    assertThat(rest).singleElement().satisfies(r -> assertThat(r.amount()).isEqualTo(usd("1.50")));
    assertThat(rest.get(0).made()).isTrue();
  }

  @Test
  void billingsOwnRefundsAreLeftToTheRequestThatSentThem() {
    PeriodRefund pending =
        new PeriodRefund("refund:sub:1:req:abc", "req-1", TXN, usd("2.00"), AT, null);
    Period period = collected(null, pending);

    // Listed with billing's key: not taken as the dashboard's; the total waits for its answer.
    assertThat(
            GatewayRefunds.unrecorded(
                period,
                TXN,
                usd("2.00"),
                List.of(listed("re_ours", "2.00", pending.idempotencyKey())),
                AT))
        .isEmpty();
    assertThat(GatewayRefunds.unrecorded(period, TXN, usd("2.00"), List.of(), AT)).isEmpty();
    // A dashboard refund named beside it is recorded.
    assertThat(
            GatewayRefunds.unrecorded(
                period,
                TXN,
                usd("3.00"),
                List.of(
                    listed("re_ours", "2.00", pending.idempotencyKey()),
                    listed("re_d", "1.00", null)),
                AT))
        .extracting(PeriodRefund::refundId)
        .containsExactly("re_d");
  }

  @Test
  void anUpgradesChargeIsCountedByItsOwnRefunds() {
    PeriodRefund upgrade = new PeriodRefund("k", "r", "pi_up", usd("1.00"), AT, "re_up");
    Period period = collected(null, upgrade);

    assertThat(GatewayRefunds.recorded(period, "pi_up")).isEqualTo(usd("1.00"));
    assertThat(GatewayRefunds.unrecorded(period, "pi_up", usd("1.00"), List.of(), AT)).isEmpty();
    assertThat(GatewayRefunds.unrecorded(period, "pi_up", usd("1.25"), List.of(), AT))
        .singleElement()
        .satisfies(r -> assertThat(r.transactionId()).isEqualTo("pi_up"));
  }
}
