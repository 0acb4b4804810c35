package dev.billing.bench.dynamo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

class CapacityMeterTest {

  @Test
  void splitUnitsAreTakenAsGivenAndTotalsGoByTheOperationsKind() {
    CapacityMeter meter = new CapacityMeter();
    meter.record("TransactWriteItems", List.of(
        ConsumedCapacity.builder().tableName("billing").capacityUnits(4.0).writeCapacityUnits(4.0).build(),
        ConsumedCapacity.builder().tableName("billing-history").capacityUnits(2.0).writeCapacityUnits(2.0).build()));
    meter.record("Query", List.of(ConsumedCapacity.builder().tableName("billing").capacityUnits(0.5).build()));
    meter.record("Query", List.of(ConsumedCapacity.builder().tableName("billing").capacityUnits(1.0).build()));

    assertThat(meter.snapshot()).containsExactly(
        java.util.Map.entry("Query", new CapacityMeter.Usage(2, 1.5, 0)),
        java.util.Map.entry("TransactWriteItems", new CapacityMeter.Usage(1, 0, 6)));
    meter.reset();
    assertThat(meter.snapshot()).isEmpty();
  }

  @Test
  void operationNamesComeFromTheRequestType() {
    assertThat(CapacityMeter.operationOf(GetItemRequest.builder().build())).isEqualTo("GetItem");
    assertThat(CapacityMeter.operationOf(TransactWriteItemsRequest.builder().build())).isEqualTo("TransactWriteItems");
  }
}
