package dev.billing.activities.payments.stripe;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.LoggedResponse;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import com.stripe.Stripe;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A WireMock Stripe for the adapter's tests, held to what Stripe does: its idempotency layer
 * ({@link StripeIdempotency}), and after every test each request the adapter sent and each answer a
 * stub gave are checked against Stripe's OpenAPI description ({@link StripeOpenApi}), so a stub
 * Stripe would never send, or a parameter Stripe does not take, fails the build.
 */
abstract class StripeStubTest {
  static final String API_KEY = "sk_test_51QxTestKeyNeverLogged";

  WireMockServer stripe;
  StripeGateway gateway;

  @BeforeEach
  void startStripe() {
    stripe =
        new WireMockServer(
            options().dynamicPort().extensions(new StripeIdempotency(), new StripeListFilter()));
    stripe.start();
    gateway = new StripeGateway(settings());
  }

  @AfterEach
  void checkAndStopStripe() {
    try {
      assertThat(violations())
          .as("requests and stubs against Stripe's OpenAPI description")
          .isEmpty();
    } finally {
      stripe.stop();
    }
  }

  private List<String> violations() {
    List<String> out = new ArrayList<>();
    for (ServeEvent event : stripe.getAllServeEvents()) {
      if (!event.getWasMatched()) {
        continue; // WireMock's own 404: no stub stands for Stripe there
      }
      LoggedRequest request = event.getRequest();
      URI url = URI.create(request.getUrl());
      String method = request.getMethod().getName();
      out.addAll(
          StripeOpenApi.DESCRIPTION.validateRequest(
              method, url.getPath(), url.getRawQuery(), request.getBodyAsString()));
      LoggedResponse response = event.getResponse();
      out.addAll(
          StripeOpenApi.DESCRIPTION.validateResponse(
              method, url.getPath(), response.getStatus(), response.getBodyAsString()));
    }
    return out;
  }

  /** Generous read timeout: a cold WireMock on a loaded CI machine can take over a second. */
  StripeSettings settings() {
    return StripeSettings.of(API_KEY)
        .withApiBase(stripe.baseUrl())
        .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(10));
  }

  static ResponseDefinitionBuilder ok(String body) {
    return json(200, body);
  }

  static ResponseDefinitionBuilder json(int status, String body) {
    return aResponse()
        .withStatus(status)
        .withHeader("Content-Type", "application/json")
        .withHeader("Request-Id", "req_TestRequest0001")
        .withHeader("Stripe-Version", Stripe.API_VERSION)
        .withBody(body);
  }
}
