package dev.billing.api.fuzz;

import dev.billing.api.ApiConfiguration;
import dev.billing.api.support.ApiRequests;
import dev.billing.api.support.ApplicationOnFakes;
import dev.billing.store.BillingStore;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.AfterFailureMode;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Thousands of malformed, boundary and hostile requests ({@link Fuzzing}) at the application on
 * Jetty, with fakes of Temporal behind its resources: every answer is checked for what the HTTP
 * layer promises. What accepted requests set off in the workflows is {@link
 * HostileInputEndToEndTest}'s.
 *
 * <p>The seed is fixed so that CI runs the same requests every time (change it, or remove it, to
 * explore).
 */
class HostileInputTest {
  static final int TRIES = 2500;

  @BeforeContainer
  static void start() throws Exception {
    ApplicationOnFakes api = ApplicationOnFakes.start(Fuzzing.WEBHOOKS);
    Fuzzing.start(
        new Fuzzing.Served() {
          @Override
          public ApiRequests api() {
            return api;
          }

          @Override
          public DropwizardAppExtension<ApiConfiguration> app() {
            return api.extension();
          }

          @Override
          public AtomicLong writes() {
            return api.stack().writes;
          }

          @Override
          public BillingStore store() {
            return api.stack().store;
          }

          @Override
          public void awaitAtRest(HttpResponse<String> response) {
            // The fakes write what they write before the request is answered: nothing comes later.
          }
        },
        TRIES);
  }

  @AfterContainer
  static void stop() {
    // Accepted requests and every kind of refusal were all produced, not only one of them.
    Fuzzing.stop(200, 201, 400, 401, 403, 404, 405, 413, 415);
  }

  @Property(
      tries = TRIES,
      seed = "20261121",
      shrinking = ShrinkingMode.OFF,
      afterFailure = AfterFailureMode.PREVIOUS_SEED)
  void noInputCausesA5xxAWriteOrAnUnnamedError(@ForAll("requests") FuzzRequest request)
      throws Exception {
    Fuzzing.check(request);
  }

  @Provide
  Arbitrary<FuzzRequest> requests() {
    return Fuzzing.requests();
  }
}
