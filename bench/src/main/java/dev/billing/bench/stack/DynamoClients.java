package dev.billing.bench.stack;

import dev.billing.bench.dynamo.CapacityMeter;
import dev.billing.runtime.DynamoConnection;
import dev.billing.runtime.DynamoSettings;
import java.time.Duration;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** A DynamoDB Local client built as the runtime module builds its own, metered. */
public final class DynamoClients {
  private DynamoClients() {}

  public static DynamoDbClient local(String endpoint, CapacityMeter meter) {
    return DynamoConnection.clientBuilder(DynamoSettings.local(endpoint))
        // Longer than the SDK's 30 s: a peak queues every slot's requests on DynamoDB Local's one
        // SQLite thread.
        .httpClientBuilder(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(60)))
        .overrideConfiguration(o -> o.addExecutionInterceptor(meter))
        .build();
  }
}
