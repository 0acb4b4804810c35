package dev.billing.domain;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The domain is plain Java: none of the frameworks the other modules use is on its classpath. */
class ModuleBoundaryTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "io.temporal.workflow.Workflow",
        "software.amazon.awssdk.services.dynamodb.DynamoDbClient",
        "io.dropwizard.core.Application",
        "com.fasterxml.jackson.databind.ObjectMapper",
        "com.stripe.Stripe"
      })
  void noFrameworkIsOnTheDomainsClasspath(String frameworkClass) {
    assertThat(loadable(frameworkClass)).as(frameworkClass).isFalse();
  }

  static boolean loadable(String name) {
    try {
      Class.forName(name, false, ModuleBoundaryTest.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}
