package dev.billing.worker.reconciliation;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.workflowservice.v1.ListSchedulesRequest;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.util.concurrent.TimeUnit;

/**
 * Whether the Temporal server implements Schedules. A real server (and Temporal Cloud) does; the
 * Java test server behind the embedded dev stack answers UNIMPLEMENTED. Asked once at start-up with
 * the cheapest Schedules call there is: one page of one schedule.
 */
@FunctionalInterface
public interface SchedulesCapability {

  boolean supported();

  static SchedulesCapability of(WorkflowServiceStubs stubs, String namespace) {
    return () -> {
      try {
        stubs
            .blockingStub()
            .withDeadlineAfter(10, TimeUnit.SECONDS)
            .listSchedules(
                ListSchedulesRequest.newBuilder()
                    .setNamespace(namespace)
                    .setMaximumPageSize(1)
                    .build());
        return true;
      } catch (StatusRuntimeException e) {
        if (e.getStatus().getCode() == Status.Code.UNIMPLEMENTED) {
          return false;
        }
        throw e; // unreachable or refused: fail the start-up rather than pick the wrong path
      }
    };
  }
}
