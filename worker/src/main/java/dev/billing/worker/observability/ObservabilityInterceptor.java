package dev.billing.worker.observability;

import dev.billing.domain.BillingIds;
import dev.billing.workflows.UpdateRejections;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.activity.ActivityInfo;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptor;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptorBase;
import io.temporal.common.interceptors.WorkerInterceptorBase;
import io.temporal.common.interceptors.WorkflowInboundCallsInterceptor;
import io.temporal.common.interceptors.WorkflowInboundCallsInterceptorBase;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.MDC;

/**
 * Adds {@code subscriptionId} to the logging context of every activity and workflow of a
 * subscription (the SDK already puts {@code WorkflowId}, {@code RunId}, {@code ActivityType} and
 * {@code Attempt} there), so the JSON logs of one subscription are found by one field; feeds {@link
 * BusinessMetrics} with each activity's outcome; and logs each refused update in one line. None of
 * it touches what a workflow commands.
 */
public final class ObservabilityInterceptor extends WorkerInterceptorBase {
  public static final String SUBSCRIPTION_ID = "subscriptionId";

  /** Replay-safe: a refusal is logged when it happens, not again when its history is replayed. */
  private static final Logger UPDATES = Workflow.getLogger("dev.billing.updates");

  private static final Set<String> REFUSALS =
      Set.of(
          UpdateRejections.TRANSITION_NOT_ALLOWED,
          UpdateRejections.PAYMENT_DECLINED,
          UpdateRejections.NO_SUCH_PERIOD);

  private final BusinessMetrics metrics;

  public ObservabilityInterceptor(BusinessMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public ActivityInboundCallsInterceptor interceptActivity(ActivityInboundCallsInterceptor next) {
    return new ActivityInboundCallsInterceptorBase(next) {
      private ActivityInfo info;

      @Override
      public void init(ActivityExecutionContext context) {
        info = context.getInfo();
        super.init(context);
      }

      @Override
      public ActivityOutput execute(ActivityInput input) {
        String subscription = subscriptionOf(info.getWorkflowId());
        if (subscription != null) {
          MDC.put(SUBSCRIPTION_ID, subscription);
        }
        Object argument = input.getArguments().length > 0 ? input.getArguments()[0] : null;
        try {
          ActivityOutput output = super.execute(input);
          metrics.activityEnded(
              info.getActivityType(), info.getAttempt(), argument, output.getResult(), null);
          return output;
        } catch (RuntimeException | Error e) {
          metrics.activityEnded(info.getActivityType(), info.getAttempt(), argument, null, e);
          throw e;
        } finally {
          MDC.remove(SUBSCRIPTION_ID);
        }
      }
    };
  }

  @Override
  public WorkflowInboundCallsInterceptor interceptWorkflow(WorkflowInboundCallsInterceptor next) {
    return new WorkflowInboundCallsInterceptorBase(next) {
      @Override
      public WorkflowOutput execute(WorkflowInput input) {
        // The workflow's own thread: its log lines (Workflow.getLogger) carry the subscription too.
        String subscription = subscriptionOf(Workflow.getInfo().getWorkflowId());
        if (subscription != null) {
          MDC.put(SUBSCRIPTION_ID, subscription);
        }
        return super.execute(input);
      }

      @Override
      public void validateUpdate(UpdateInput input) {
        try {
          super.validateUpdate(input);
        } catch (RuntimeException e) {
          refused(input, e);
          throw e;
        }
      }

      @Override
      public UpdateOutput executeUpdate(UpdateInput input) {
        try {
          return super.executeUpdate(input);
        } catch (RuntimeException e) {
          refused(input, e);
          throw e;
        }
      }
    };
  }

  /**
   * In place of the SDK's line (see {@link UpdateRefusalLogging}): a refusal the workflow means
   * (not allowed now, declined, no such period: the API's 409, 402, 404) is one INFO line; any
   * other failure (a gateway that did not answer a refund, a bug) is a WARN with its cause.
   */
  private static void refused(
      WorkflowInboundCallsInterceptor.UpdateInput input, RuntimeException e) {
    if (e instanceof ApplicationFailure refusal && REFUSALS.contains(refusal.getType())) {
      UPDATES.info(
          "update {} refused: {}: {}",
          input.getUpdateName(),
          refusal.getType(),
          refusal.getOriginalMessage());
    } else {
      UPDATES.warn("update {} failed", input.getUpdateName(), e);
    }
  }

  static String subscriptionOf(String workflowId) {
    return workflowId != null && workflowId.startsWith(BillingIds.WORKFLOW_ID_PREFIX)
        ? workflowId.substring(BillingIds.WORKFLOW_ID_PREFIX.length())
        : null;
  }
}
