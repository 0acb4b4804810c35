package dev.billing.activities.payments.stripe;

import com.stripe.exception.StripeException;
import dev.billing.activities.payments.GatewayUnavailableException;
import dev.billing.activities.payments.PaymentGatewayException;
import java.time.Instant;
import java.util.Objects;

/**
 * Runs a stripe-java listing with auto-pagination so that a failure of the first page and of a
 * later page's fetch (which stripe-java wraps in a RuntimeException) map alike, through {@link
 * StripeErrors}.
 */
final class StripePaging {
  /** Stripe's largest page. */
  static final long PAGE_SIZE = 100;

  private StripePaging() {}

  /**
   * An instant as the exclusive upper bound of a {@code created} filter, which Stripe takes in
   * whole seconds: rounded up, so the window is never cut short (receivers deduplicate by id).
   */
  static long ceilSeconds(Instant t) {
    return t.getNano() == 0 ? t.getEpochSecond() : t.getEpochSecond() + 1;
  }

  interface StripeCall<T> {
    T call() throws StripeException;
  }

  static <T> T list(StripeCall<T> call) {
    try {
      return call.call();
    } catch (StripeException e) {
      throw new PagingFailure(e);
    }
  }

  /** Runs a listing; a failure of the first page or of a later page's fetch maps alike. */
  static void paginate(String what, Runnable listing) {
    try {
      listing.run();
    } catch (PagingFailure e) {
      throw StripeErrors.translate(e.stripe, what);
    } catch (PaymentGatewayException e) {
      throw e;
    } catch (RuntimeException e) {
      // stripe-java's auto-pagination wraps the StripeException of a later page.
      if (e.getCause() instanceof StripeException stripe) {
        throw StripeErrors.translate(stripe, what);
      }
      throw new GatewayUnavailableException("Stripe listing failed for " + what + ": " + e, e);
    }
  }

  private static final class PagingFailure extends RuntimeException {
    private final transient StripeException stripe;

    PagingFailure(StripeException stripe) {
      super(stripe);
      this.stripe = Objects.requireNonNull(stripe);
    }
  }
}
