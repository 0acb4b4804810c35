package dev.billing.api.errors;

import dev.billing.api.constraints.ReportedInOrder;
import io.dropwizard.jersey.validation.JerseyViolationException;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.glassfish.jersey.server.model.Invocable;
import org.glassfish.jersey.server.model.Parameter;

/**
 * Requests that break a bean validation constraint (the annotations on request records, checked
 * through {@code @Valid}): the API's 400 naming each field, as a hand-written check answers,
 * instead of Dropwizard's 422 with its own body. Fields are named as Jackson names them
 * ("billingDay", "items[0].sku"), in the order the request declares them, so the answer does not
 * depend on the order the validator happens to report in.
 */
public final class ConstraintViolationMapper implements ExceptionMapper<JerseyViolationException> {

  @Override
  public Response toResponse(JerseyViolationException e) {
    Invocable invocable = e.getInvocable();
    // A request is judged by its headers and parameters before its body, as the resources' own
    // checks do: when one of them is wrong, the body's errors are not reported.
    boolean parameterWrong =
        e.getConstraintViolations().stream()
            .anyMatch(v -> field(v) == null && !isEntity(v, invocable));
    List<FieldError> errors =
        e.getConstraintViolations().stream()
            .filter(v -> !parameterWrong || (field(v) == null && !isEntity(v, invocable)))
            .sorted(
                Comparator.comparingInt(ConstraintViolationMapper::parameterIndex)
                    .thenComparingInt(ConstraintViolationMapper::declaredPosition)
                    .thenComparing(
                        ConstraintViolationMapper::field,
                        Comparator.nullsFirst(Comparator.naturalOrder()))
                    .thenComparing(ConstraintViolation::getMessage))
            .map(v -> new FieldError(fieldOf(v, invocable), v.getMessage()))
            .toList();
    return ProblemResponses.of(ApiProblem.invalid(errors));
  }

  /** The body field's path, or the header or parameter's name, or null for the body as a whole. */
  static String fieldOf(ConstraintViolation<?> violation, Invocable invocable) {
    String property = field(violation);
    if (property != null) {
      return property;
    }
    return isEntity(violation, invocable)
        ? null
        : parameterOf(violation, invocable).getSourceName();
  }

  /**
   * Whether the violation is the body's. Jersey's model says UNKNOWN rather than ENTITY for a body
   * parameter with an annotation it does not know, such as {@code @Valid}.
   */
  private static boolean isEntity(ConstraintViolation<?> violation, Invocable invocable) {
    Parameter parameter = parameterOf(violation, invocable);
    return parameter == null
        || parameter.getSource() == Parameter.Source.ENTITY
        || parameter.getSource() == Parameter.Source.UNKNOWN;
  }

  private static Parameter parameterOf(ConstraintViolation<?> violation, Invocable invocable) {
    int index = parameterIndex(violation);
    return invocable != null && index >= 0 && index < invocable.getParameters().size()
        ? invocable.getParameters().get(index)
        : null;
  }

  /** The path below the method parameter: "billingDay", "items[0].sku"; null when there is none. */
  private static String field(ConstraintViolation<?> violation) {
    StringBuilder path = new StringBuilder();
    boolean belowParameter = false;
    for (Path.Node node : violation.getPropertyPath()) {
      if (node.getKind() == ElementKind.PARAMETER) {
        belowParameter = true;
        continue;
      }
      if (!belowParameter || node.getKind() == ElementKind.METHOD) {
        continue;
      }
      if (node.getIndex() != null && path.length() > 0) {
        path.append('[').append(node.getIndex()).append(']');
      }
      if (node.getName() != null) {
        if (path.length() > 0) {
          path.append('.');
        }
        path.append(node.getName());
      }
    }
    return path.length() == 0 ? null : path.toString();
  }

  private static int parameterIndex(ConstraintViolation<?> violation) {
    for (Path.Node node : violation.getPropertyPath()) {
      if (node.getKind() == ElementKind.PARAMETER) {
        return node.as(Path.ParameterNode.class).getParameterIndex();
      }
    }
    return -1;
  }

  /**
   * Where the violated field comes in its request: as {@link ReportedInOrder} lists it, else as the
   * record declares it. Fields of other beans sort after.
   */
  private static int declaredPosition(ConstraintViolation<?> violation) {
    Object bean = violation.getLeafBean();
    String name = null;
    for (Path.Node node : violation.getPropertyPath()) {
      name = node.getName();
    }
    if (bean == null || name == null) {
      return Integer.MAX_VALUE;
    }
    Class<?> type = bean.getClass();
    List<String> order;
    if (type.isAnnotationPresent(ReportedInOrder.class)) {
      order = List.of(type.getAnnotation(ReportedInOrder.class).value());
    } else if (type.isRecord()) {
      order = Arrays.stream(type.getRecordComponents()).map(RecordComponent::getName).toList();
    } else {
      return Integer.MAX_VALUE;
    }
    int position = order.indexOf(name);
    return position < 0 ? Integer.MAX_VALUE : position;
  }
}
