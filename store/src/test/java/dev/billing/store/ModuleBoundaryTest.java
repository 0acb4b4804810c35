package dev.billing.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The store depends on the domain and DynamoDB only: workflow code and Temporal stay out of it, so
 * signalling a workflow is never a side effect of a write.
 */
class ModuleBoundaryTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "io.temporal.workflow.Workflow",
        "io.temporal.client.WorkflowClient",
        "dev.billing.workflows.SubscriptionWorkflow",
        "io.dropwizard.core.Application"
      })
  void neitherTemporalNorTheWorkflowsAreOnTheStoresClasspath(String className) {
    assertThat(loadable(className)).as(className).isFalse();
  }

  private static boolean loadable(String name) {
    try {
      Class.forName(name, false, ModuleBoundaryTest.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}
