package dev.billing.runtime;

import dev.billing.store.BillingTables;
import dev.billing.store.TableNames;
import io.dropwizard.lifecycle.Managed;
import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;

/** The process's DynamoDB client. */
public final class DynamoConnection implements Managed {

  private final DynamoSettings settings;
  private final DynamoDbClient client;

  public DynamoConnection(DynamoSettings settings) {
    this.settings = settings;
    this.client = clientBuilder(settings).build();
  }

  /**
   * The builder of the process's client, for a caller that adds to it (the benchmark meters it).
   */
  public static DynamoDbClientBuilder clientBuilder(DynamoSettings settings) {
    var builder =
        DynamoDbClient.builder()
            .region(Region.of(settings.region()))
            .httpClientBuilder(UrlConnectionHttpClient.builder())
            .credentialsProvider(credentials(settings));
    if (settings.endpoint() != null) {
      builder.endpointOverride(URI.create(settings.endpoint()));
    }
    return builder;
  }

  private static AwsCredentialsProvider credentials(DynamoSettings settings) {
    // DynamoDB Local accepts any key; AWS uses the default chain (env, profile, instance role).
    return settings.endpoint() != null && System.getenv("AWS_ACCESS_KEY_ID") == null
        ? StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"))
        : DefaultCredentialsProvider.builder().build();
  }

  public DynamoDbClient client() {
    return client;
  }

  public TableNames tableNames() {
    return new TableNames(
        settings.billingTable(), settings.historyTable(), settings.paymentEventsTable());
  }

  public DynamoSettings settings() {
    return settings;
  }

  @Override
  public void start() {
    if (settings.createTables()) {
      BillingTables.createIfMissing(client, tableNames());
    }
  }

  @Override
  public void stop() {
    client.close();
  }
}
