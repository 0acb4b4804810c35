package dev.billing.store;

import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * One write of a change's transaction.
 *
 * @param label names the item in error messages
 * @param subscription whether its condition is the subscription's version check
 * @param droppable whether the change may be written without it when its condition fails: a view
 *     kept beside the change (the SCHEDULED next period), never part of what the change records
 */
record TransactionOp(
    String label, boolean subscription, boolean droppable, TransactWriteItem item) {

  static TransactionOp subscription(String label, TransactWriteItem item) {
    return new TransactionOp(label, true, false, item);
  }

  static TransactionOp other(String label, TransactWriteItem item) {
    return new TransactionOp(label, false, false, item);
  }

  static TransactionOp droppable(String label, TransactWriteItem item) {
    return new TransactionOp(label, false, true, item);
  }
}
