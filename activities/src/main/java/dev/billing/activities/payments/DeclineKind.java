package dev.billing.activities.payments;

/**
 * Whether retrying the same payment method later can succeed. Dunning is for soft declines; a hard
 * decline needs a new payment method, so retrying it on a schedule only annoys the issuer.
 */
public enum DeclineKind {
  /** Temporary: insufficient funds, issuer unavailable, velocity limits. A later retry may pass. */
  SOFT,
  /** Final for this payment method: lost, stolen, expired, closed, generic "do not try again". */
  HARD
}
