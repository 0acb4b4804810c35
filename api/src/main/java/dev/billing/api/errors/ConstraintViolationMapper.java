package dev.billing.api.errors;

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
 * through {@code @Valid}): the API's 400 naming each field, as a hand-written check answers, instead
 * of Dropwizard's 422 with its own body. Fields are named as Jackson names them ("billingDay",
 * "items[0].sku"), in the order the request declares them, so the answer does not depend on the
 * order the validator happens to report in.
 */
public final class ConstraintViolationMapper implements ExceptionMapper<JerseyViolationException> {

  @Override
  public Response toResponse(JerseyViolationException e) {
    Invocable invocable = e.getInvocable();
    List<FieldError> errors = e.getConstraintViolations().stream()
        .sorted(Comparator.comparingInt(ConstraintViolationMapper::parameterIndex)
            .thenComparingInt(ConstraintViolationMapper::declaredPosition)
            .thenComparing(ConstraintViolationMapper::field, Comparator.nullsFirst(Comparator.naturalOrder()))
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
    int index = parameterIndex(violation);
    if (invocable != null && index >= 0 && index < invocable.getParameters().size()) {
      Parameter parameter = invocable.getParameters().get(index);
      if (parameter.getSource() != Parameter.Source.ENTITY) {
        return parameter.getSourceName();
      }
    }
    return null;
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

  /** Where the violated field is declared in its record; fields of other beans sort after. */
  private static int declaredPosition(ConstraintViolation<?> violation) {
    Object bean = violation.getLeafBean();
    String name = null;
    for (Path.Node node : violation.getPropertyPath()) {
      name = node.getName();
    }
    if (bean == null || !bean.getClass().isRecord() || name == null) {
      return Integer.MAX_VALUE;
    }
    List<String> declared = Arrays.stream(bean.getClass().getRecordComponents())
        .map(RecordComponent::getName).toList();
    int position = declared.indexOf(name);
    return position < 0 ? Integer.MAX_VALUE : position;
  }
}
