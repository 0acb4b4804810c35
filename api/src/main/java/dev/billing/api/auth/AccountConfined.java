package dev.billing.api.auth;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Opens an endpoint outside {@code /v1/accounts/{accountId}/...} to account principals, whose
 * account is then not in the path: the resource itself confines what it answers to the principal's
 * account ({@link BillingPrincipal#mayReach}), and answers another account's resources 404, as the
 * path rule does. Without it every path outside /v1/accounts is operator-only, so forgetting it
 * only keeps accounts out.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface AccountConfined {}
