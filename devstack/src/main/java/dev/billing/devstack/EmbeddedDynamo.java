package dev.billing.devstack;

import com.amazonaws.services.dynamodbv2.local.main.CommandLineInput;
import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;

/** DynamoDB Local over HTTP, in memory, telemetry off; reachable with the AWS CLI as well. */
public final class EmbeddedDynamo implements AutoCloseable {

  private final DynamoDBProxyServer server;
  private final int port;

  public EmbeddedDynamo(int port) throws Exception {
    this.port = port;
    // createServer, not createServerFromCommandLineArgs: that one also prints its configuration
    // on standard output, above the dev stack's banner.
    CommandLineInput options =
        new CommandLineInput(
            new String[] {"-inMemory", "-port", Integer.toString(port), "-disableTelemetry"});
    if (!options.init()) {
      throw new IllegalStateException("DynamoDB Local refused its options");
    }
    this.server = ServerRunner.createServer(options);
    server.start();
  }

  public String endpoint() {
    return "http://localhost:" + port;
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }
}
