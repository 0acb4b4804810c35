package dev.billing.workflows;

import dev.billing.domain.Money;
import dev.billing.domain.Term;
import java.util.Objects;

/**
 * A new plan (sku and price, in the subscription's currency), and optionally a new term.
 *
 * @param effective NOW prorates the difference over the rest of the paid period (an increase is
 *     charged at once, a decrease is credited to the next charge); PERIOD_END holds the change
 *     until the next cycle's charge
 * @param term the term billed from the change on (MONTHLY or YEARLY, see {@link
 *     dev.billing.domain.TermChange}); null keeps the subscription's
 * @param requestedBy the principal that asked, kept in the history
 * @param requestId the client's request id (see {@link UpdateRequest}); null until given one
 */
public record PlanChangeRequest(
    String sku, Money price, Effective effective, Term term, String requestedBy, String requestId)
    implements UpdateRequest<PlanChangeRequest> {

  public enum Effective {
    NOW,
    PERIOD_END
  }

  public PlanChangeRequest {
    Objects.requireNonNull(sku, "sku");
    Objects.requireNonNull(price, "price");
    Objects.requireNonNull(effective, "effective");
  }

  /** A change of sku and price only. */
  public PlanChangeRequest(
      String sku, Money price, Effective effective, String requestedBy, String requestId) {
    this(sku, price, effective, null, requestedBy, requestId);
  }

  public PlanChangeRequest(String sku, Money price, Effective effective, String requestedBy) {
    this(sku, price, effective, null, requestedBy, null);
  }

  @Override
  public PlanChangeRequest withRequestId(String id) {
    return new PlanChangeRequest(sku, price, effective, term, requestedBy, id);
  }

  /**
   * The text a request's fingerprint hashes ({@link UpdateRequests#fingerprint}): without a term
   * exactly the text the record had before terms existed, so a request remembered by a run on the
   * earlier code keeps its fingerprint when it is repeated.
   */
  @Override
  public String toString() {
    return "PlanChangeRequest[sku="
        + sku
        + ", price="
        + price
        + ", effective="
        + effective
        + (term == null ? "" : ", term=" + term)
        + ", requestedBy="
        + requestedBy
        + ", requestId="
        + requestId
        + "]";
  }
}
