package dev.billing.api.input;

import dev.billing.api.errors.ApiProblem;
import dev.billing.api.errors.FieldError;
import dev.billing.api.errors.ProblemResponses;
import dev.billing.api.resources.PathIds;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.MultivaluedMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Every path parameter of every endpoint (account, subscription, period and key ids, the webhook
 * provider) must match {@link PathIds#PATTERN}: 400 naming each one that does not, before any
 * resource runs, and an account id may not carry a card number or IBAN (it is stored). A new
 * endpoint gets this without doing anything; resources may check again. Runs after {@code
 * AccessFilter}, so an account key asking about a malformed foreign account id still gets the same
 * 404 as for any other account.
 */
@Priority(Priorities.AUTHORIZATION)
public final class PathParamFilter implements ContainerRequestFilter {
  @Override
  public void filter(ContainerRequestContext request) {
    MultivaluedMap<String, String> params = request.getUriInfo().getPathParameters(true);
    List<FieldError> errors = new ArrayList<>();
    for (Map.Entry<String, List<String>> param : params.entrySet()) {
      for (String value : param.getValue()) {
        if (!PathIds.isValid(value)) {
          errors.add(
              new FieldError(param.getKey(), param.getKey() + " must match " + PathIds.PATTERN));
          break;
        }
        if (param.getKey().equals("accountId") && SensitiveNumbers.containsPaymentNumber(value)) {
          // The one id a client chooses, and it is stored (ACC#<accountId>): never a card or bank
          // account number. Ids the API issues (subscriptions, keys) are not judged: a random one
          // could look like a number by chance.
          errors.add(
              new FieldError(
                  param.getKey(),
                  param.getKey() + " must never carry a card or bank account number"));
          break;
        }
      }
    }
    if (!errors.isEmpty()) {
      request.abortWith(ProblemResponses.of(ApiProblem.invalid(errors)));
    }
  }
}
