package dev.billing.worker.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.billing.domain.Money;
import dev.billing.domain.PeriodStatus;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The judge's pending-refund allowance on the path that needs it: an immediate cancellation that
 * refunds the unused days while the gateway makes the refund, loses the answer and then fails every
 * retry. Between the step and the workflow's re-send the books differ by the refund; the record
 * names it pending, so the check holds, and minutes later the re-send records it.
 */
@Tag("model")
class PendingRefundAllowanceTest {
  @Test
  void aRefundNamedPendingIsSetAsideUntilItsResendRecordsIt() {
    ModelStats stats = new ModelStats();
    try (BillingModel model = new BillingModel(stats)) {
      model.create(new Money(12000, "USD"), 1, "UTC", "pm_card_visa", 0, 0);
      model.advance(Duration.ofDays(3));
      model.check();
      model.stack.gateway.loseAnswerThenFail(6);
      model.update("cancel sub-1 now refunding unused days", "sub-1",
          (sub, id) -> model.stack.updates.cancel(sub, id, false, true));
      model.check();
      assertEquals(1, stats.refundsSetAside(), "the refund was at the gateway and not yet in the records");

      model.advance(Duration.ofMinutes(10));
      model.check();
      assertEquals(1, stats.refundsSetAside(), "the re-send recorded the refund: nothing set aside");
      assertEquals(List.of(1L), model.cycles("sub-1", Set.of(PeriodStatus.REFUNDED)), "the refund is recorded");
    }
  }
}
