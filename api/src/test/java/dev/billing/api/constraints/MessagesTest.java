package dev.billing.api.constraints;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.jersey.validation.Validators;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A rule's own message reaches the client as written: no parameter or expression in it is
 * evaluated.
 */
class MessagesTest {

  static final String HOSTILE =
      "currency ${1+1} {jakarta.validation.constraints.NotNull.message} \\ $ {x}";

  @Target(ElementType.FIELD)
  @Retention(RetentionPolicy.RUNTIME)
  @Constraint(validatedBy = RefuseCheck.class)
  @interface Refuse {
    String message() default "unused";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
  }

  public static final class RefuseCheck implements ConstraintValidator<Refuse, String> {
    @Override
    public boolean isValid(String value, ConstraintValidatorContext context) {
      return Messages.refuse(context, value);
    }
  }

  record Probe(@Refuse String text) {}

  @Test
  void aMessageIsTakenLiterally() {
    Set<ConstraintViolation<Probe>> violations =
        Validators.newValidator().validate(new Probe(HOSTILE));

    assertThat(violations)
        .singleElement()
        .extracting(ConstraintViolation::getMessage)
        .isEqualTo(HOSTILE);
  }
}
