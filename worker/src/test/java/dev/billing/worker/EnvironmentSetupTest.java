package dev.billing.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.runtime.DynamoConnection;
import dev.billing.runtime.DynamoSettings;
import dev.billing.runtime.EnvironmentSetup;
import dev.billing.runtime.TemporalConnection;
import dev.billing.runtime.TemporalSettings;
import dev.billing.store.testing.LocalDynamoDb;
import dev.billing.workflows.BillingSearchAttributes;
import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.testserver.TestServer;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * The one-shot setup of docker-compose, against DynamoDB Local over HTTP and a Temporal test
 * server.
 */
@Timeout(60)
class EnvironmentSetupTest {

  @Test
  void createsTheTablesAndRegistersTheSearchAttributesOnceAndIsSafeToRunAgain() throws Exception {
    int temporalPort = freePort();
    LocalDynamoDb.HttpServer dynamoServer = LocalDynamoDb.startHttp();
    TestServer.PortBoundTestServer temporalServer =
        TestServer.createPortBoundServer(temporalPort, false);
    DynamoConnection dynamo =
        new DynamoConnection(
            new DynamoSettings(dynamoServer.endpoint(), null, null, null, null, false, null));
    TemporalConnection temporal =
        new TemporalConnection(TemporalSettings.local("localhost:" + temporalPort));
    try {
      EnvironmentSetup.Result first =
          EnvironmentSetup.run(dynamo, temporal, Duration.ofSeconds(20));
      EnvironmentSetup.Result again =
          EnvironmentSetup.run(dynamo, temporal, Duration.ofSeconds(20));

      assertThat(first.tables()).containsExactly("billing", "billing-history", "payment-events");
      assertThat(first.searchAttributesAdded())
          .containsExactly("BillingStatus", "AccountId", "Sku", "NextPaymentDate", "PastDueSince");
      assertThat(again.searchAttributesAdded()).isEmpty();
      for (String table : first.tables()) {
        assertThat(dynamo.client().describeTable(r -> r.tableName(table)).table().tableStatus())
            .isEqualTo(TableStatus.ACTIVE);
      }
      assertThat(BillingSearchAttributes.NEXT_PAYMENT_DATE.getValueType())
          .isEqualTo(IndexedValueType.INDEXED_VALUE_TYPE_DATETIME);
      assertThat(
              List.of(
                  BillingSearchAttributes.BILLING_STATUS,
                  BillingSearchAttributes.ACCOUNT_ID,
                  BillingSearchAttributes.SKU))
          .allMatch(k -> k.getValueType() == IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD);
    } finally {
      temporal.stop();
      dynamo.stop();
      temporalServer.close();
      dynamoServer.close();
    }
  }

  @Test
  void theWorkerRegistersTheAttributesAtStartWhereTheServerAllowsItAndGoesOnWhereNot()
      throws Exception {
    int temporalPort = freePort();
    TestServer.PortBoundTestServer temporalServer =
        TestServer.createPortBoundServer(temporalPort, false);
    TemporalConnection temporal =
        new TemporalConnection(TemporalSettings.local("localhost:" + temporalPort));
    try {
      SearchAttributeRegistration registration =
          new SearchAttributeRegistration(temporal.stubs(), "default");
      assertThat(registration.register()).hasSize(5);
      assertThat(registration.register()).isEmpty();
    } finally {
      temporal.stop();
      temporalServer.close();
    }
    // A server that refuses (Temporal Cloud's operator API) or does not answer: logged, not thrown.
    TemporalConnection nobody =
        new TemporalConnection(TemporalSettings.local("localhost:" + freePort()));
    try {
      assertThat(new SearchAttributeRegistration(nobody.stubs(), "default").register()).isNull();
    } finally {
      nobody.stop();
    }
  }

  private static int freePort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
