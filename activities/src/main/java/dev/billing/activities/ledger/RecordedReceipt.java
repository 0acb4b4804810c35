package dev.billing.activities.ledger;

import dev.billing.domain.Money;
import dev.billing.domain.Receipt;
import java.util.Objects;

/**
 * One receipt as the records hold it: a period's charge, or a plan change's charge (an immediate
 * upgrade's prorated difference, recorded with the plan change as a receipt of the paid cycle and
 * with no period of its own).
 */
public record RecordedReceipt(long cycle, Money amount, String transactionId) {

  public RecordedReceipt {
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(transactionId, "transactionId");
  }

  public static RecordedReceipt of(Receipt receipt) {
    return new RecordedReceipt(receipt.cycle(), receipt.amount(), receipt.transactionId());
  }
}
