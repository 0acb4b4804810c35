package dev.billing.worker;

import io.dropwizard.lifecycle.Managed;
import io.temporal.worker.WorkerFactory;
import java.util.concurrent.TimeUnit;

/** Starts polling after the server is up; on stop, lets running activities finish briefly. */
public final class WorkerLifecycle implements Managed {
  private final WorkerFactory factory;

  public WorkerLifecycle(WorkerFactory factory) {
    this.factory = factory;
  }

  @Override
  public void start() {
    factory.start();
  }

  @Override
  public void stop() {
    factory.shutdown();
    factory.awaitTermination(10, TimeUnit.SECONDS);
  }
}
