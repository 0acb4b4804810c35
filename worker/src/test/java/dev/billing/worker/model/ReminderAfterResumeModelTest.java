package dev.billing.worker.model;

import dev.billing.domain.Money;
import dev.billing.domain.SubscriptionStatus;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Seed -8424815452227996116 (the sixth one-hour run), the steps of sub-2 as the model drew them: a
 * billing-day move, a pause of one cycle, a lost answer and a resume before the first cycle's
 * reminder. The reminder must be recorded (the run found it refused as a stale write, forever).
 */
@Tag("model")
class ReminderAfterResumeModelTest {
  @Test
  void aReminderAfterAPauseAndResumeIsRecorded() {
    ModelStats stats = new ModelStats();
    try (BillingModel model = new BillingModel(stats)) {
      model.advance(Duration.ofHours(657));
      model.check();
      model.create(
          new Money(999, "USD"),
          9,
          "America/Los_Angeles",
          "pm_sandbox_transientErrors_7",
          12,
          6,
          SubscriptionStatus.ACTIVE);
      model.update("resume sub-1", "sub-1", (sub, id) -> model.stack.updates.resume(sub, id));
      model.check();
      model.advance(Duration.ofHours(144));
      model.check();
      model.stack.gateway.serverErrors(1);
      model.update(
          "billing day 11 for sub-1",
          "sub-1",
          (sub, id) -> model.stack.updates.changeBillingDay(sub, id, 11));
      model.check();
      model.update(
          "refund 4.50 USD of cycle 2 of sub-1",
          "sub-1",
          (sub, id) -> model.stack.updates.refund(sub, id, 2, new Money(450, "USD")));
      model.update(
          "pause sub-1 for 1 cycles",
          "sub-1",
          (sub, id) -> model.stack.updates.pause(sub, id, 1, null));
      model.check();
      model.stack.gateway.loseAnswers(1);
      model.advance(Duration.ofHours(47));
      model.check();
      model.update("resume sub-1", "sub-1", (sub, id) -> model.stack.updates.resume(sub, id));
      model.check();
      for (int i = 0; i < 6; i++) {
        model.advance(Duration.ofDays(3));
        model.check();
      }
    }
  }
}
