package dev.billing.activities.ledger;

import java.util.Objects;

/**
 * One way the books disagree.
 *
 * @param cycle the period concerned; null when none (a total)
 * @param transactionId the gateway's charge concerned; null when none
 * @param detail one sentence with the amounts, for an operator
 */
public record LedgerViolation(Kind kind, Long cycle, String transactionId, String detail) {

  public enum Kind {
    /**
     * A successful charge no recorded collection claims, while its period is not collected with
     * any.
     */
    UNRECORDED_CHARGE,
    /**
     * A successful charge no recorded collection claims, while its period is collected with
     * another.
     */
    DOUBLE_CHARGE,
    /**
     * One charge claimed by more than one recorded collection (two periods, or a period and a plan
     * change).
     */
    CHARGE_RECORDED_TWICE,
    /**
     * A collected period with no charge and an amount above zero (only a credit-paid period has
     * none).
     */
    PERIOD_WITHOUT_CHARGE,
    /** A recorded collection (period or receipt) whose transaction the gateway does not have. */
    COLLECTION_WITHOUT_CHARGE,
    /**
     * A recorded collection whose charge did not succeed at the gateway (returned, failed,
     * pending).
     */
    COLLECTION_NOT_SETTLED,
    /** A collected period whose charge has no receipt. */
    RECEIPT_MISSING,
    /** A collection's amount differs from its charge's amount. */
    AMOUNT_MISMATCH,
    /** The gateway refunded a different amount of a charge than the records say. */
    REFUND_MISMATCH,
    /** Charges less refunds at the gateway differ from collections less refunds in the records. */
    NET_MISMATCH
  }

  public LedgerViolation {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(detail, "detail");
  }
}
