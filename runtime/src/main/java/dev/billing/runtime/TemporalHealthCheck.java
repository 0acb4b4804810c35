package dev.billing.runtime;

import com.codahale.metrics.health.HealthCheck;
import io.temporal.api.workflowservice.v1.GetSystemInfoRequest;
import java.util.concurrent.TimeUnit;

/** Healthy when the Temporal frontend answers. */
public final class TemporalHealthCheck extends HealthCheck {
  private final TemporalConnection connection;

  public TemporalHealthCheck(TemporalConnection connection) {
    this.connection = connection;
  }

  @Override
  protected Result check() {
    var info =
        connection
            .stubs()
            .blockingStub()
            .withDeadlineAfter(TemporalConnection.HEALTH_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
            .getSystemInfo(GetSystemInfoRequest.getDefaultInstance());
    String version =
        info.getServerVersion().isBlank() ? "version not reported" : info.getServerVersion();
    return Result.healthy("Temporal at " + connection.settings().target() + " (" + version + ")");
  }
}
