package dev.billing.api.auth;

import dev.billing.api.errors.ApiProblem;
import dev.billing.api.errors.ProblemResponses;
import dev.billing.api.openapi.OpenApiResource;
import io.dropwizard.auth.AuthFilter;
import io.dropwizard.auth.Authenticator;
import io.dropwizard.auth.Authorizer;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.glassfish.jersey.server.ExtendedUriInfo;
import org.glassfish.jersey.server.model.Invocable;
import org.glassfish.jersey.server.model.ResourceMethod;
import org.glassfish.jersey.uri.UriTemplate;

/**
 * Authentication and authorization of every matched resource method, registered once for the whole
 * application so that no resource can forget it. Decided from the matched path template, not from
 * annotations on each resource:
 *
 * <ol>
 *   <li>{@code /v1/webhooks/**}: open here; each delivery is authenticated by its signature.
 *   <li>{@code GET /v1/openapi.json}: open to anyone; it describes the endpoints and reaches no
 *       data.
 *   <li>everything else needs {@code Authorization: Bearer <credential>}: 401 without a valid one.
 *   <li>operators reach everything.
 *   <li>an account principal reaches {@code /v1/accounts/{accountId}/**} of its own account only;
 *       another account's paths answer 404, exactly like a resource that does not exist. An
 *       endpoint there marked {@link OperatorOnly} answers it 403.
 *   <li>an account principal reaches a method marked {@link AccountConfined} outside {@code
 *       /v1/accounts}, which answers it for its own account only ({@code /v1/events}).
 *   <li>every other path ({@code /v1/billing}, {@code /v1/ops}, {@code /v1/api-keys}, {@code
 *       /v1/dev}, and whatever is added outside {@code /v1/accounts}) is operator-only: 403.
 * </ol>
 *
 * Unmatched paths never get here (404, 405 come from routing). Credentials are taken from the
 * header only, never from the query string, where they would end up in access logs.
 */
@Priority(Priorities.AUTHENTICATION)
public final class AccessFilter extends AuthFilter<String, BillingPrincipal> {
  static final String REALM = "billing";
  static final String WEBHOOKS = "/v1/webhooks/";
  static final String ACCOUNT_SCOPE = "/v1/accounts/{accountId}/";
  static final String OPEN_DOCUMENT = OpenApiResource.PATH + "/";

  /** JWTs of real issuers stay well below this; bounds the work done on garbage. */
  static final int MAX_CREDENTIAL_LENGTH = 8192;

  /** One entry per resource method, filled on its first request. */
  private final Map<ResourceMethod, Route> routes = new ConcurrentHashMap<>();

  public AccessFilter(Authenticator<String, BillingPrincipal> authenticator) {
    this.authenticator = authenticator;
    this.authorizer = new RoleAuthorizer();
    this.prefix = "Bearer";
    this.realm = REALM;
  }

  @Override
  public void filter(ContainerRequestContext request) {
    ExtendedUriInfo uri = (ExtendedUriInfo) request.getUriInfo();
    Route route = route(uri);
    if (route.template().startsWith(WEBHOOKS) || route.template().equals(OPEN_DOCUMENT)) {
      return;
    }
    List<String> headers = request.getHeaders().get(HttpHeaders.AUTHORIZATION);
    if (headers == null || headers.isEmpty()) {
      request.abortWith(
          unauthorized(
              "This endpoint needs a credential: send the header "
                  + "'Authorization: Bearer <API key or token>'.",
              false));
      return;
    }
    String token = headers.size() == 1 ? bearerToken(headers.get(0)) : null;
    if (token == null || !authenticate(request, token, prefix)) {
      request.abortWith(
          unauthorized(
              "The credential is not valid: it is malformed, unknown, revoked or expired.", true));
      return;
    }
    BillingPrincipal principal = (BillingPrincipal) request.getSecurityContext().getUserPrincipal();
    if (principal.isOperator()) {
      return;
    }
    if (route.template().startsWith(ACCOUNT_SCOPE)) {
      if (!principal.mayReach(uri.getPathParameters().getFirst("accountId"))) {
        // The same answer as for an account that does not exist: existence is not revealed.
        request.abortWith(
            ProblemResponses.of(ApiProblem.notFound("There is no resource at this path.")));
      } else if (route.operatorOnly()) {
        request.abortWith(
            ProblemResponses.of(
                ApiProblem.forbidden("This endpoint needs an operator credential.")));
      }
      return;
    }
    if (route.accountConfined()) {
      return;
    }
    request.abortWith(
        ProblemResponses.of(
            ApiProblem.forbidden(
                "This endpoint needs an operator credential; an account key reaches only "
                    + "/v1/accounts/"
                    + principal.accountId()
                    + "/...")));
  }

  /** The token of a single "Bearer" credential, or null when the header is anything else. */
  static String bearerToken(String header) {
    if (header.length() > MAX_CREDENTIAL_LENGTH + 7
        || header.length() < 8
        || !header.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ")) {
      return null;
    }
    String token = header.substring(7).strip();
    if (token.isEmpty() || !token.chars().allMatch(c -> c > 0x20 && c < 0x7F)) {
      return null;
    }
    return token;
  }

  /**
   * What the rules need to know of a resource method: its full template, {@link OperatorOnly} and
   * {@link AccountConfined}.
   */
  private record Route(String template, boolean operatorOnly, boolean accountConfined) {}

  private Route route(ExtendedUriInfo uri) {
    ResourceMethod method = uri.getMatchedResourceMethod();
    // A method behind a sub-resource locator can be reached under more than one path, so only the
    // methods Jersey matched directly are remembered.
    if (method == null || !uri.getMatchedResourceLocators().isEmpty()) {
      return new Route(template(uri), operatorOnly(method), accountConfined(method));
    }
    return routes.computeIfAbsent(
        method, m -> new Route(template(uri), operatorOnly(m), accountConfined(m)));
  }

  /**
   * The full path template of the matched method, e.g.
   * /v1/accounts/{accountId}/subscriptions/{subscriptionId}.
   */
  static String template(ExtendedUriInfo uri) {
    List<UriTemplate> matched = uri.getMatchedTemplates();
    StringBuilder path = new StringBuilder();
    for (int i = matched.size() - 1; i >= 0; i--) {
      String part = matched.get(i).getTemplate();
      if (!part.startsWith("/")) {
        path.append('/');
      }
      path.append(part);
    }
    String joined = withoutRegexes(path.toString()).replaceAll("/{2,}", "/");
    return joined.endsWith("/") ? joined : joined + "/";
  }

  /**
   * "{accountId: [a-z]+}" becomes "{accountId}", so a regex cannot hide a template from the rules.
   */
  static String withoutRegexes(String template) {
    StringBuilder out = new StringBuilder(template.length());
    int depth = 0;
    boolean inRegex = false;
    for (char c : template.toCharArray()) {
      if (c == '{') {
        depth++;
      } else if (c == '}') {
        depth--;
        if (depth == 0) {
          inRegex = false;
        }
      } else if (c == ':' && depth == 1) {
        inRegex = true;
      }
      if (!inRegex && !(depth >= 1 && Character.isWhitespace(c))) {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static boolean operatorOnly(ResourceMethod method) {
    if (method == null) {
      return false;
    }
    Invocable invocable = method.getInvocable();
    Method handling = invocable.getHandlingMethod();
    return (handling != null && handling.isAnnotationPresent(OperatorOnly.class))
        || invocable.getHandler().getHandlerClass().isAnnotationPresent(OperatorOnly.class);
  }

  private static boolean accountConfined(ResourceMethod method) {
    if (method == null) {
      return false;
    }
    Method handling = method.getInvocable().getHandlingMethod();
    return handling != null && handling.isAnnotationPresent(AccountConfined.class);
  }

  private static Response unauthorized(String detail, boolean invalidToken) {
    String challenge =
        "Bearer realm=\"" + REALM + "\"" + (invalidToken ? ", error=\"invalid_token\"" : "");
    return Response.fromResponse(ProblemResponses.of(ApiProblem.unauthorized(detail)))
        .header(HttpHeaders.WWW_AUTHENTICATE, challenge)
        .build();
  }

  /** SecurityContext.isUserInRole("operator" / "account"). */
  private static final class RoleAuthorizer implements Authorizer<BillingPrincipal> {
    @Override
    public boolean authorize(
        BillingPrincipal principal, String role, ContainerRequestContext request) {
      return principal.role().wireName().equals(role);
    }
  }
}
