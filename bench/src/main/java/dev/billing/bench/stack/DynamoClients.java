package dev.billing.bench.stack;

import dev.billing.bench.dynamo.CapacityMeter;
import java.net.URI;
import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** A DynamoDB Local client built as the runtime module builds its own (URL-connection HTTP), metered. */
public final class DynamoClients {
  private DynamoClients() {}

  public static DynamoDbClient local(String endpoint, CapacityMeter meter) {
    return DynamoDbClient.builder()
        .region(Region.US_EAST_1)
        .endpointOverride(URI.create(endpoint))
        .httpClientBuilder(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(60)))
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .overrideConfiguration(ClientOverrideConfiguration.builder().addExecutionInterceptor(meter).build())
        .build();
  }
}
