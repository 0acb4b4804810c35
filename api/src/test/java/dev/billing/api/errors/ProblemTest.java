package dev.billing.api.errors;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProblemTest {
  @Test
  void aReasonBecomesItsTypeInLowerCaseWithDashes() {
    assertThat(Problem.typeOf("Method Not Allowed"))
        .isEqualTo("https://billing.dev/problems/method-not-allowed");
    assertThat(Problem.typeOf("I'm a teapot"))
        .isEqualTo("https://billing.dev/problems/i-m-a-teapot");
    assertThat(Problem.typeOf(" -Odd--  Reason- "))
        .isEqualTo("https://billing.dev/problems/odd-reason");
    assertThat(Problem.typeOf("")).isEqualTo("https://billing.dev/problems/");
  }
}
