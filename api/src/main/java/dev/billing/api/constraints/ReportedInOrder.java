package dev.billing.api.constraints;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * The order a request's field errors are reported in, when it is not the order its components are
 * declared in (the default). Fields it does not list come after those it does.
 */
@Documented
@Target(TYPE)
@Retention(RUNTIME)
public @interface ReportedInOrder {
  String[] value();
}
