package dev.billing.store.testing;

import com.amazonaws.services.dynamodbv2.local.embedded.DynamoDBEmbedded;
import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import com.amazonaws.services.dynamodbv2.local.shared.access.AmazonDynamoDBLocal;
import dev.billing.store.BillingTables;
import dev.billing.store.DynamoBillingStore;
import dev.billing.store.StoreSettings;
import dev.billing.store.TableNames;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * DynamoDB Local in the test's own JVM: the one way every module's tests get a DynamoDB (shared
 * through the store's test-jar). Each instance is fresh and empty, because DynamoDB remembers a
 * ClientRequestToken for ten minutes across all tables: two tests writing the same change of the
 * same subscription id into one instance would collide. Start one per test class where the tests
 * use ids of their own, one per test otherwise; close it when done.
 */
public final class LocalDynamoDb implements AutoCloseable {
  /** Any 32 bytes: page tokens are signed, but never leave a test. */
  public static final byte[] PAGE_TOKEN_KEY =
      "test-page-token-key-0123456789abcdef".getBytes(StandardCharsets.UTF_8);

  private final AmazonDynamoDBLocal local;
  private final DynamoDbClient client;

  private LocalDynamoDb() {
    local = DynamoDBEmbedded.create(true); // true: no telemetry
    client = local.dynamoDbClient();
  }

  /** A new in-process DynamoDB Local (about a second to start). */
  public static LocalDynamoDb start() {
    return new LocalDynamoDb();
  }

  public DynamoDbClient client() {
    return client;
  }

  /** Creates the billing, history and payment-events tables under these names, if missing. */
  public TableNames createTables(TableNames names) {
    BillingTables.createIfMissing(client, names);
    return names;
  }

  /** The tables under the production names. */
  public TableNames createTables() {
    return createTables(TableNames.defaults());
  }

  /** The real store on tables already created, with the default settings. */
  public DynamoBillingStore store(TableNames names) {
    return new DynamoBillingStore(client, names, StoreSettings.defaults(PAGE_TOKEN_KEY));
  }

  @Override
  public void close() {
    local.shutdown();
  }

  /**
   * DynamoDB Local over HTTP on a free loopback port, for code that connects by endpoint as it does
   * in production (e.g. the one-shot environment setup).
   */
  public static HttpServer startHttp() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    DynamoDBProxyServer server =
        ServerRunner.createServerFromCommandLineArgs(
            new String[] {"-inMemory", "-port", Integer.toString(port), "-disableTelemetry"});
    server.start();
    return new HttpServer(server, "http://localhost:" + port);
  }

  /** A running DynamoDB Local HTTP server and its endpoint. */
  public record HttpServer(DynamoDBProxyServer server, String endpoint) implements AutoCloseable {
    @Override
    public void close() throws Exception {
      server.stop();
    }
  }
}
