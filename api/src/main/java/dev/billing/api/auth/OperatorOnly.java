package dev.billing.api.auth;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Narrows an endpoint under {@code /v1/accounts/{accountId}/...} to operators: an account's own key
 * gets 403 there (e.g. waiving or refunding a period). Everything outside {@code /v1/accounts} is
 * operator-only without it; forgetting it only leaves an endpoint reachable by the account itself.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface OperatorOnly {}
