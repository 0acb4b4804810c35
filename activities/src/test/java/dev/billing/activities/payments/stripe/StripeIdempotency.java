package dev.billing.activities.payments.stripe;

import com.github.tomakehurst.wiremock.extension.ResponseTransformerV2;
import com.github.tomakehurst.wiremock.http.HttpHeader;
import com.github.tomakehurst.wiremock.http.HttpHeaders;
import com.github.tomakehurst.wiremock.http.Request;
import com.github.tomakehurst.wiremock.http.RequestMethod;
import com.github.tomakehurst.wiremock.http.Response;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Stripe's idempotency layer in front of the WireMock stubs, as strict as Stripe: the first answer
 * to a POST with an {@code Idempotency-Key} is saved once the endpoint ran (every status, 500s
 * included) and replayed for the same key and parameters with {@code Idempotent-Replayed: true};
 * the same key with other parameters (or on another endpoint) is a 400 idempotency_error. Nothing
 * is saved for answers given before the endpoint ran: 409 (a concurrent request with the key, lock
 * timeouts), 429, and any answer Stripe marks {@code Stripe-Should-Retry: true}. Keys are never
 * pruned here; tests of forgotten keys stub the later request as new.
 */
final class StripeIdempotency implements ResponseTransformerV2 {
  static final String NAME = "stripe-idempotency";

  private record Saved(String url, String body, Response response) {}

  private final Map<String, Saved> saved = new ConcurrentHashMap<>();

  @Override
  public Response transform(Response response, ServeEvent serveEvent) {
    Request request = serveEvent.getRequest();
    String key = request.getHeader("Idempotency-Key");
    if (key == null || !RequestMethod.POST.equals(request.getMethod())) {
      return response;
    }
    Saved earlier = saved.get(key);
    if (earlier != null) {
      if (earlier.url().equals(request.getUrl())
          && earlier.body().equals(request.getBodyAsString())) {
        HttpHeaders headers =
            (earlier.response().getHeaders() == null
                    ? new HttpHeaders()
                    : earlier.response().getHeaders())
                .plus(new HttpHeader("Idempotent-Replayed", "true"));
        return Response.Builder.like(earlier.response()).but().headers(headers).build();
      }
      return Response.Builder.like(response)
          .but()
          .status(400)
          .headers(
              new HttpHeaders(
                  new HttpHeader("Content-Type", "application/json"),
                  new HttpHeader("Request-Id", "req_TestIdempotency1")))
          .body(idempotencyError(key))
          .build();
    }
    if (ran(response)) {
      saved.put(key, new Saved(request.getUrl(), request.getBodyAsString(), response));
    }
    return response;
  }

  private static boolean ran(Response response) {
    HttpHeader retry =
        response.getHeaders() == null
            ? HttpHeader.absent("Stripe-Should-Retry")
            : response.getHeaders().getHeader("Stripe-Should-Retry");
    return response.getStatus() != 409
        && response.getStatus() != 429
        && !(retry.isPresent() && "true".equals(retry.firstValue()));
  }

  static String idempotencyError(String key) {
    return """
        {"error": {"message": "Keys for idempotent requests can only be used with the same \
        parameters they were first used with. Try using a key other than '%s' if you meant to \
        execute a different request.", "type": "idempotency_error"}}
        """
        .formatted(key);
  }

  @Override
  public String getName() {
    return NAME;
  }
}
