package dev.billing.api;

import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.CaffeineSpec;
import dev.billing.api.auth.AccessFilter;
import dev.billing.api.auth.ApiAuthentication;
import dev.billing.api.auth.BillingPrincipal;
import dev.billing.api.auth.keys.ApiKeyAuthenticator;
import dev.billing.api.auth.keys.ApiKeyResource;
import dev.billing.api.auth.keys.ApiKeyService;
import dev.billing.api.endpoints.WebhookEndpointResource;
import dev.billing.api.errors.ApiProblemMapper;
import dev.billing.api.errors.ConstraintViolationMapper;
import dev.billing.api.errors.DependencyUnavailableMapper;
import dev.billing.api.errors.InvalidPageTokenMapper;
import dev.billing.api.errors.JsonFieldMapper;
import dev.billing.api.errors.JsonLimitsMapper;
import dev.billing.api.errors.MalformedJsonMapper;
import dev.billing.api.errors.UnexpectedExceptionMapper;
import dev.billing.api.errors.WebApplicationExceptionMapper;
import dev.billing.api.events.EventResource;
import dev.billing.api.input.PathParamFilter;
import dev.billing.api.input.StrictJsonBodies;
import dev.billing.api.input.UnreadBodyDrain;
import dev.billing.api.logging.LoggingContextFilter;
import dev.billing.api.openapi.OpenApiResource;
import dev.billing.api.ops.PaymentEventsResource;
import dev.billing.api.ops.ReconciliationResource;
import dev.billing.api.resources.BillingDueResource;
import dev.billing.api.resources.ChangeStillRunningMapper;
import dev.billing.api.resources.CustomerChangeResource;
import dev.billing.api.resources.ReactivationResource;
import dev.billing.api.resources.ReceiptResource;
import dev.billing.api.resources.SubscriptionLifecycleResource;
import dev.billing.api.resources.SubscriptionResource;
import dev.billing.api.webhooks.WebhookResource;
import io.dropwizard.auth.CachingAuthenticator;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;

/**
 * Every Jersey component of the API (resources, filters, exception mappers), built from its
 * dependencies. The application registers them with Jersey; resource tests register the same list
 * with {@code ResourceExtension}, so they test what production serves.
 */
public final class ApiComponents {
  private ApiComponents() {}

  /**
   * @param mapper the server's object mapper, already configured by {@link ApiJson}
   * @param metrics where the API key cache reports
   */
  public static List<Object> of(
      ApiConfiguration config,
      ApiDependencies dependencies,
      ObjectMapper mapper,
      MetricRegistry metrics) {
    var store = dependencies.store();
    var workflows = dependencies.subscriptions();
    var reconciliations = dependencies.reconciliations();
    var clock = dependencies.clock();
    List<Object> components = new ArrayList<>();
    components.add(
        new SubscriptionResource(store, workflows, reconciliations, clock, config.dueWindow()));
    components.add(new SubscriptionLifecycleResource(store, workflows, reconciliations, clock));
    components.add(new CustomerChangeResource(store, workflows, reconciliations));
    components.add(
        new ReactivationResource(
            store, workflows, reconciliations, clock, config.reactivationWindow()));
    components.add(new ChangeStillRunningMapper());
    components.add(new ReceiptResource(store, clock));
    components.add(new BillingDueResource(store));
    components.add(
        WebhookResource.create(
            config.webhooks,
            dependencies.paymentEvents(),
            dependencies.paymentEventSignals(),
            clock,
            dependencies.chargeMethods()));
    components.add(new LoggingContextFilter());
    components.add(
        new ReconciliationResource(
            dependencies.reconciliationReports(), reconciliations, store, clock));
    components.add(new PaymentEventsResource(dependencies.paymentEvents()));
    components.add(
        new WebhookEndpointResource(
            dependencies.webhookEndpoints(),
            dependencies.deliveries(),
            clock,
            dependencies.devOperatorKey().isPresent()));
    components.add(
        new EventResource(
            dependencies.events(), dependencies.webhookEndpoints(), dependencies.redeliveries()));
    components.add(new OpenApiResource());

    // Who may call what, and what a body may carry: registered for the whole application, so every
    // resource (including those added later) is covered without doing anything.
    CachingAuthenticator<String, BillingPrincipal> cachedKeys =
        new CachingAuthenticator<>(
            metrics,
            new ApiKeyAuthenticator(dependencies.apiKeys()),
            CaffeineSpec.parse(config.auth.keyCache()));
    AccessFilter access =
        ApiAuthentication.filter(config.auth, cachedKeys, dependencies.devOperatorKey());
    components.add(access);
    components.add(new PathParamFilter());
    components.add(new StrictJsonBodies(mapper.getFactory()));
    components.add(new UnreadBodyDrain());
    components.add(
        new ApiKeyResource(
            new ApiKeyService(dependencies.apiKeys(), InstantSource.system()),
            keyId -> cachedKeys.invalidateAll(token -> token.startsWith("bk_" + keyId + "_"))));

    // These give every error the same problem+json shape. Dropwizard's default mappers would
    // compete
    // with them, so the application turns those off even when a deployment's YAML forgets to.
    components.add(new ApiProblemMapper());
    components.add(new ConstraintViolationMapper());
    components.add(new MalformedJsonMapper());
    components.add(new JsonFieldMapper());
    components.add(new JsonLimitsMapper());
    components.add(new InvalidPageTokenMapper());
    components.add(new WebApplicationExceptionMapper());
    components.add(new DependencyUnavailableMapper());
    components.add(new UnexpectedExceptionMapper());
    return components;
  }
}
