package dev.billing.worker.model;

import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The subscription's status against its books, at rest: a first payment is never expired while
 * money may have moved, and only a subscription that never paid is INCOMPLETE. Pure.
 */
final class StatusJudge {
  private StatusJudge() {}

  private static final Set<PeriodStatus> COLLECTED =
      Set.of(PeriodStatus.COMPLETED, PeriodStatus.REFUNDED, PeriodStatus.DISPUTED);

  /**
   * @param createdIncomplete created as the API creates it since 1.1.0 (else ACTIVE, as 1.0.0 did)
   * @param resumed its history records a resume: one that never paid resumes INCOMPLETE, however it
   *     was created
   * @param charges every charge the gateway holds for the subscription
   * @return what is wrong, one line each; empty when nothing is
   */
  static List<String> judge(
      Subscription record,
      boolean createdIncomplete,
      boolean resumed,
      List<Period> periods,
      List<GatewayChargeState> charges) {
    List<String> problems = new ArrayList<>();
    SubscriptionStatus status = record.status();
    boolean collectedMoney =
        periods.stream().anyMatch(p -> COLLECTED.contains(p.status()) && p.transactionId() != null);
    boolean gatewayTookMoney =
        charges.stream()
            .anyMatch(
                c ->
                    c.status() == GatewayChargeState.Status.SUCCEEDED
                        || c.status() == GatewayChargeState.Status.PENDING);
    if (status == SubscriptionStatus.INCOMPLETE
        || status == SubscriptionStatus.INCOMPLETE_EXPIRED) {
      if (!createdIncomplete && !resumed) {
        problems.add(status + " but created ACTIVE (a 1.0.0 subscription keeps dunning)");
      }
      if (record.lastPaymentAt() != null || collectedMoney) {
        problems.add(status + " after a payment was collected");
      }
    }
    if (status == SubscriptionStatus.INCOMPLETE_EXPIRED) {
      if (gatewayTookMoney) {
        problems.add("INCOMPLETE_EXPIRED while the gateway holds a charge that took money");
      }
      if (record.nextPaymentDate() != null || record.nextReminderDate() != null) {
        problems.add("INCOMPLETE_EXPIRED with a next payment or reminder date");
      }
    }
    if (status == SubscriptionStatus.PAST_DUE
        && createdIncomplete
        && record.lastPaymentAt() == null
        && periods.stream().noneMatch(p -> p.status() == PeriodStatus.COMPLETED)) {
      problems.add("PAST_DUE although it never paid: a first payment is INCOMPLETE");
    }
    return problems;
  }
}
