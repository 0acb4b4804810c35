package dev.billing.workflows.subscription;

import dev.billing.domain.Lifecycle;
import dev.billing.workflows.AppliedRequest;
import dev.billing.workflows.AppliedRequest.Status;
import dev.billing.workflows.PendingRefund;
import dev.billing.workflows.PendingUpgrade;
import dev.billing.workflows.RequestState;
import dev.billing.workflows.UpdateRejections;
import dev.billing.workflows.UpdateRequest;
import dev.billing.workflows.UpdateRequests;
import dev.billing.workflows.UpgradeCharge;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The workflow's memory of client requests. Temporal deduplicates an update id only within one run,
 * and runs continue as new every cycle, so the ids applied recently travel in the run's input and a
 * retry that arrives in a later run is still answered as the first time. Also holds the changes
 * whose money is not known yet and arms the durable timers that resolve them: a timer only queues
 * the request id, the main thread does the work (see {@link ChangeQueue}).
 */
final class RequestLog {

  /** How many applied request ids are remembered: far more than a client retries within a day. */
  static final int REMEMBERED = 50;

  /**
   * How long a pending refund may be sent again with its key: the gateway replays a key for at
   * least 24 hours and may forget it after, when a send would make a second refund.
   */
  static final Duration RESEND_WINDOW = Duration.ofHours(23);

  /**
   * How long an ended run waits for an upgrade's charge to settle: a bank debit takes days, and the
   * charge check looks a charge up this long after it too.
   */
  static final Duration UPGRADE_SETTLEMENT_WINDOW = Duration.ofDays(14);

  /** The waits before each look at an unknown outcome; the last one repeats. */
  private static final List<Duration> DELAYS =
      List.of(
          Duration.ofMinutes(1),
          Duration.ofMinutes(5),
          Duration.ofMinutes(30),
          Duration.ofHours(2),
          Duration.ofHours(6));

  private final List<AppliedRequest> applied;
  private final List<PendingUpgrade> upgrades;
  private final List<PendingRefund> refunds;
  private final List<UpgradeCharge> upgradeCharges;
  private final List<String> due = new ArrayList<>();

  RequestLog(RequestState carried) {
    RequestState state = carried == null ? RequestState.EMPTY : carried;
    applied = new ArrayList<>(state.applied());
    upgrades = new ArrayList<>(state.upgrades());
    refunds = new ArrayList<>(state.refunds());
    upgradeCharges = new ArrayList<>(state.upgradeCharges());
  }

  AppliedRequest find(String requestId) {
    if (requestId == null) {
      return null;
    }
    for (AppliedRequest request : applied) {
      if (request.requestId().equals(requestId)) {
        return request;
      }
    }
    return null;
  }

  /**
   * Whether {@code request} repeats one already taken on (its rules are then not asked again: the
   * state has moved on since, and the answer is the first one).
   *
   * @throws UpdateRejections.IdempotencyKeyReused when its id was taken on for another request
   */
  boolean isRepeat(UpdateRequest<?> request) {
    AppliedRequest known = find(request.requestId());
    if (known == null) {
      return false;
    }
    if (!known.fingerprint().equals(UpdateRequests.fingerprint(request))) {
      throw UpdateRejections.idempotencyKeyReused(request.requestId());
    }
    return true;
  }

  AppliedRequest remember(
      UpdateRequest<?> request, Status status, String outcome, String failureType) {
    AppliedRequest entry =
        new AppliedRequest(
            request.requestId(),
            UpdateRequests.fingerprint(request),
            status,
            outcome,
            failureType,
            now());
    if (request.requestId() != null) {
      replace(entry);
    }
    return entry;
  }

  private void replace(AppliedRequest entry) {
    applied.removeIf(r -> r.requestId().equals(entry.requestId()));
    applied.add(entry);
    while (applied.size() > REMEMBERED) {
      applied.remove(0);
    }
  }

  // ---- Changes whose money is not known yet.

  void awaitUpgrade(PendingUpgrade upgrade) {
    upgrades.removeIf(u -> u.requestId().equals(upgrade.requestId()));
    upgrades.add(upgrade);
    arm(upgrade.requestId(), upgrade.lookups());
  }

  void awaitRefund(PendingRefund refund) {
    refunds.removeIf(r -> r.input().idempotencyKey().equals(refund.input().idempotencyKey()));
    refunds.add(refund);
    arm(refund.requestId(), refund.sends());
  }

  List<PendingUpgrade> upgrades(String requestId) {
    return upgrades.stream().filter(u -> u.requestId().equals(requestId)).toList();
  }

  List<PendingRefund> refunds(String requestId) {
    return refunds.stream().filter(r -> r.requestId().equals(requestId)).toList();
  }

  List<PendingRefund> refundsByKey(String key) {
    return refunds.stream().filter(r -> r.input().idempotencyKey().equals(key)).toList();
  }

  void removeUpgrade(PendingUpgrade upgrade) {
    upgrades.removeIf(u -> u.requestId().equals(upgrade.requestId()));
  }

  void removeRefund(PendingRefund refund) {
    refunds.removeIf(r -> r.input().idempotencyKey().equals(refund.input().idempotencyKey()));
  }

  /** The upgrade waiting for its charge's outcome, if any: another plan change waits for it. */
  PendingUpgrade pendingUpgrade() {
    return upgrades.isEmpty() ? null : upgrades.get(0);
  }

  /** A refund or an upgrade charge whose outcome is not known yet. */
  boolean moneyUnresolved() {
    return !refunds.isEmpty() || !upgrades.isEmpty();
  }

  /** Re-arms the timers of what a previous run left pending; once per run, from its main method. */
  void armCarried() {
    upgrades.forEach(u -> arm(u.requestId(), u.lookups()));
    refunds.stream().map(PendingRefund::requestId).distinct().forEach(id -> arm(id, 0));
  }

  private void arm(String requestId, int tries) {
    Duration delay = DELAYS.get(Math.min(tries, DELAYS.size() - 1));
    Workflow.newTimer(delay)
        .thenApply(
            fired -> {
              if (!due.contains(requestId)) {
                due.add(requestId);
              }
              return null;
            });
  }

  boolean hasDue() {
    return !due.isEmpty();
  }

  String nextDue() {
    return due.remove(0);
  }

  /**
   * Whether the workflow should stay open for an unknown outcome before it ends: a refund still
   * within its re-send window, or (when {@code upgrades}) an upgrade's charge that may still
   * settle, whose money is refunded if it succeeds. Past their windows the keys stay in the record
   * for reconciliation.
   */
  boolean waitsBeforeEnd(boolean upgrades) {
    Instant now = now();
    return refunds.stream().anyMatch(r -> now.isBefore(r.sentFrom().plus(RESEND_WINDOW)))
        || (upgrades
            && this.upgrades.stream()
                .anyMatch(u -> now.isBefore(u.sentFrom().plus(UPGRADE_SETTLEMENT_WINDOW))));
  }

  // ---- The paid period's upgrade charges.

  void upgradeCharged(UpgradeCharge charge) {
    upgradeCharges.add(charge);
  }

  /** The upgrade charge a payment event is about (by key, else by transaction), or null. */
  UpgradeCharge upgradeCharge(String idempotencyKey, String transactionId) {
    for (UpgradeCharge charge : upgradeCharges) {
      if (idempotencyKey != null
          ? idempotencyKey.equals(charge.idempotencyKey())
          : transactionId != null && transactionId.equals(charge.transactionId())) {
        return charge;
      }
    }
    return null;
  }

  /** A returned upgrade charge holds no money: nothing of it is refunded at cancellation. */
  void upgradeReturned(UpgradeCharge charge) {
    upgradeCharges.remove(charge);
  }

  List<UpgradeCharge> upgradeCharges(long cycle) {
    return upgradeCharges.stream().filter(c -> c.cycle() == cycle).toList();
  }

  /**
   * What the next run needs: the collected upgrade charges stay (the latest {@value
   * Lifecycle#MAX_UPGRADES_PAID}), since a bank can return one periods after its own ended.
   */
  RequestState carry() {
    List<UpgradeCharge> kept =
        upgradeCharges.size() > Lifecycle.MAX_UPGRADES_PAID
            ? upgradeCharges.subList(
                upgradeCharges.size() - Lifecycle.MAX_UPGRADES_PAID, upgradeCharges.size())
            : upgradeCharges;
    return new RequestState(applied, upgrades, refunds, List.copyOf(kept));
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
