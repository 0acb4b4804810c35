package dev.billing.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.ChargeMode;
import java.time.Duration;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An immediate upgrade whose charge got no answer (202) is kept on the subscription item: a run
 * restarted from the record after the one that took it was lost still looks its key up and applies
 * or drops the change. Cycle 1 is due 2028-01-15 and paid then.
 */
@Timeout(60)
class UpgradeRestartTest {

  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);

  private static List<RecordInput> events(BillingTestEnvironment t, HistoryEvent event) {
    return t.fake.writes().stream().filter(w -> w.event() == event).toList();
  }

  @Test
  void aPendingUpgradeIsLookedUpAndAppliedByARunRestartedFromTheRecord() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      String key = BillingIds.changeChargeKey("sub-ul", "upgrade-l");
      t.fake.chargeModeForKey(key, ChargeMode.CHARGED_NO_ANSWER);
      t.start(BillingTestEnvironment.requested("sub-ul", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T10:00:00Z");
      SubscriptionWorkflow running = t.existing("sub-ul");
      t.upgradeNowAccepted(running, "upgrade-l");
      while (events(t, HistoryEvent.PAYMENT_PENDING).isEmpty()) {
        t.env.sleep(Duration.ofSeconds(20));
      }
      // The run is lost before its timer (a minute) looks the key up.
      t.untyped("sub-ul").terminate("lost");
      List<RecordInput> writes = t.fake.writes();
      Subscription record = writes.get(writes.size() - 1).next();
      assertThat(record.lifecycle().upgradeCharge().idempotencyKey()).isEqualTo(key);

      t.restart(record, List.of(t.fake.period("sub-ul", 1)));
      t.runUntil("2028-01-20T11:00:00Z");

      assertThat(t.fake.lookups()).extracting(c -> c.input().idempotencyKey()).contains(key);
      RecordInput changed = events(t, HistoryEvent.PLAN_CHANGED).get(0);
      assertThat(changed.next().sku()).isEqualTo("PRO-MAX");
      assertThat(changed.next().lifecycle().upgradeCharge()).isNull();
      assertThat(changed.receipt().amount()).isEqualTo(Money.parse("8.39", "USD"));
      // Looked up, never sent again: the gateway holds one charge with the key.
      assertThat(t.fake.succeededCharges()).containsKey(key);
    }
  }
}
