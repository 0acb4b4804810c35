package dev.billing.worker;

import dev.billing.runtime.DynamoConnection;
import dev.billing.runtime.EnvironmentSetup;
import dev.billing.runtime.TemporalConnection;
import io.dropwizard.core.cli.ConfiguredCommand;
import io.dropwizard.core.setup.Bootstrap;
import java.time.Duration;
import net.sourceforge.argparse4j.inf.Namespace;

/**
 * {@code java -jar billing-worker-all.jar setup worker.yml}: creates the DynamoDB tables and
 * registers the search attributes, then exits (docker-compose's one-shot setup service). Waits up
 * to three minutes for DynamoDB and Temporal to answer.
 */
public final class SetupCommand extends ConfiguredCommand<WorkerConfiguration> {
  static final Duration PATIENCE = Duration.ofMinutes(3);

  public SetupCommand() {
    super(
        "setup",
        "Creates the DynamoDB tables and registers the Temporal search attributes, then exits");
  }

  @Override
  protected void run(
      Bootstrap<WorkerConfiguration> bootstrap, Namespace namespace, WorkerConfiguration config)
      throws Exception {
    DynamoConnection dynamo = new DynamoConnection(config.dynamo);
    TemporalConnection temporal = new TemporalConnection(config.temporal);
    try {
      EnvironmentSetup.run(dynamo, temporal, PATIENCE);
    } finally {
      temporal.stop();
      dynamo.stop();
    }
  }
}
