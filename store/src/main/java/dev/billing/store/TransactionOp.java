package dev.billing.store;

import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * One write of a change's transaction.
 *
 * @param label names the item in error messages
 * @param subscription whether its condition is the subscription's version check
 */
record TransactionOp(String label, boolean subscription, TransactWriteItem item) {

  static TransactionOp subscription(String label, TransactWriteItem item) {
    return new TransactionOp(label, true, item);
  }

  static TransactionOp other(String label, TransactWriteItem item) {
    return new TransactionOp(label, false, item);
  }
}
