package dev.billing.api.errors;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import org.eclipse.jetty.http.HttpStatus;
import org.junit.jupiter.api.Test;

class ProblemTest {
  @Test
  void aReasonBecomesItsTypeAsTheRegexesMadeIt() {
    assertThat(Problem.typeOf("Method Not Allowed")).isEqualTo("https://billing.dev/problems/method-not-allowed");
    for (String reason : new String[] {"I'm a teapot", "HTTP 499", " -Odd--  Reason- ", "", "--", "Ünïcode"}) {
      assertThat(Problem.typeOf(reason)).as(reason).isEqualTo(byRegex(reason));
    }
    for (int status = 400; status < 600; status++) {
      String reason = HttpStatus.getMessage(status);
      assertThat(Problem.typeOf(reason)).as(reason).isEqualTo(byRegex(reason));
    }
  }

  /** As ProblemErrorHandler and WebApplicationExceptionMapper each made it before. */
  private static String byRegex(String reason) {
    return Problem.TYPE_BASE
        + reason.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
  }
}
