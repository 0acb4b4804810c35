package dev.billing.worker.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.billing.activities.payments.sandbox.SandboxPaymentMethods;
import dev.billing.domain.Money;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A worker restart in the model's stack: the workflow's next task must reach the new worker. A
 * workflow task completed by the old worker names its sticky queue; Temporal's test server keeps
 * routing the workflow's tasks there, so the stack must not ask for one (see BillingStack).
 */
@Tag("model")
class WorkerRestartTest {
  @Test
  void anUpdateAfterARestartIsAcceptedAndApplied() {
    ModelStats stats = new ModelStats();
    try (BillingModel model = new BillingModel(stats)) {
      model.create(new Money(999, "USD"), 5, "UTC", SandboxPaymentMethods.VISA, 3, 2);
      model.check();
      model.update(
          "payment method of sub-1",
          "sub-1",
          (sub, id) ->
              model.stack.updates.changePaymentMethod(
                  sub, id, SandboxPaymentMethods.paymentMethod(SandboxPaymentMethods.BANK_DEBIT)));
      model.check();
      model.stack.restartWorker();
      model.check();
      model.update(
          "pause sub-1 until resumed",
          "sub-1",
          (sub, id) -> model.stack.updates.pause(sub, id, null, null));
      model.check();
      assertEquals(0, stats.unexpected(), "every update answered: " + model.journal());
      assertEquals(1, model.stack.restarts());
    }
  }
}
