package dev.billing.bench.dynamo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

class CapacityMeterTest {

  @Test
  void splitUnitsAreTakenAsGivenAndTotalsGoByTheOperationsKind() {
    CapacityMeter meter = new CapacityMeter();
    meter.record(
        "TransactWriteItems",
        List.of(
            ConsumedCapacity.builder()
                .tableName("billing")
                .capacityUnits(4.0)
                .writeCapacityUnits(4.0)
                .build(),
            ConsumedCapacity.builder()
                .tableName("billing-history")
                .capacityUnits(2.0)
                .writeCapacityUnits(2.0)
                .build()));
    meter.record(
        "Query",
        List.of(ConsumedCapacity.builder().tableName("billing").capacityUnits(0.5).build()));
    meter.record(
        "Query",
        List.of(ConsumedCapacity.builder().tableName("billing").capacityUnits(1.0).build()));

    ConsumedUnits counted = meter.snapshot();
    assertThat(counted.byOperation())
        .containsExactly(
            Map.entry("Query", new ConsumedUnits.Usage(2, 1.5, 0)),
            Map.entry("TransactWriteItems", new ConsumedUnits.Usage(1, 0, 6)));
    assertThat(counted.readUnits()).isEqualTo(1.5);
    assertThat(counted.writeUnits()).isEqualTo(6);
    assertThat(counted.calls("TransactWriteItems")).isEqualTo(1);
    assertThat(counted.calls("PutItem")).isZero();
    meter.reset();
    assertThat(meter.snapshot().byOperation()).isEmpty();
  }

  /** The worker process sends its meter's counts to the harness as JSON. */
  @Test
  void countsSurviveTheTripFromTheWorkerProcess() throws Exception {
    CapacityMeter meter = new CapacityMeter();
    meter.record(
        "PutItem",
        List.of(ConsumedCapacity.builder().tableName("billing").capacityUnits(1.0).build()));
    ObjectMapper json = new ObjectMapper();
    ConsumedUnits counted = meter.snapshot();
    assertThat(
            json.treeToValue(json.readTree(json.writeValueAsString(counted)), ConsumedUnits.class))
        .isEqualTo(counted);
  }

  @Test
  void operationNamesComeFromTheRequestType() {
    assertThat(CapacityMeter.operationOf(GetItemRequest.builder().build())).isEqualTo("GetItem");
    assertThat(CapacityMeter.operationOf(TransactWriteItemsRequest.builder().build()))
        .isEqualTo("TransactWriteItems");
  }
}
