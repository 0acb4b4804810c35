package dev.billing.runtime;

import dev.billing.workflows.BillingSearchAttributes;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.operatorservice.v1.AddSearchAttributesRequest;
import io.temporal.common.SearchAttributeKey;
import io.temporal.serviceclient.OperatorServiceStubs;
import io.temporal.serviceclient.OperatorServiceStubsOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Registers the workflow's search attributes ({@link BillingSearchAttributes#ALL}) in a namespace,
 * as {@code temporal operator search-attribute create} does. Idempotent: one request per attribute,
 * and an attribute that exists already counts as done. The dev stack and the docker-compose setup
 * run it; on Temporal Cloud attributes are created in the Cloud UI or with tcld instead.
 */
public final class SearchAttributeSetup {
  /** A new cluster may take a while to add an attribute. */
  private static final Duration ADD_DEADLINE = Duration.ofSeconds(30);

  private SearchAttributeSetup() {}

  /**
   * @return the attributes this call added (the others existed)
   */
  public static List<String> register(WorkflowServiceStubs workflowService, String namespace) {
    // The stubs' RPC timeout is every call's deadline (the SDK cuts a longer per-call one to it).
    OperatorServiceStubs operator =
        OperatorServiceStubs.newServiceStubs(
            OperatorServiceStubsOptions.newBuilder(workflowService.getOptions())
                .setRpcTimeout(ADD_DEADLINE)
                .validateAndBuildWithDefaults());
    try {
      List<String> added = new ArrayList<>();
      for (SearchAttributeKey<?> key : BillingSearchAttributes.ALL) {
        try {
          operator
              .blockingStub()
              .addSearchAttributes(
                  AddSearchAttributesRequest.newBuilder()
                      .setNamespace(namespace)
                      .putSearchAttributes(key.getName(), key.getValueType())
                      .build());
          added.add(key.getName());
        } catch (StatusRuntimeException e) {
          if (!exists(e)) {
            throw e;
          }
        }
      }
      return added;
    } finally {
      operator.shutdown();
      operator.awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /** ALREADY_EXISTS, or (some server versions) INVALID_ARGUMENT saying so. */
  static boolean exists(StatusRuntimeException e) {
    Status.Code code = e.getStatus().getCode();
    String description = e.getStatus().getDescription();
    return code == Status.Code.ALREADY_EXISTS
        || (code == Status.Code.INVALID_ARGUMENT
            && description != null
            && description.toLowerCase().contains("already"));
  }
}
