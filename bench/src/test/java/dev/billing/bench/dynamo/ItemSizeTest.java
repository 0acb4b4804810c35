package dev.billing.bench.dynamo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class ItemSizeTest {

  @Test
  void namesAndStringValuesCountByTheirUtf8Bytes() {
    assertThat(ItemSize.bytes(Map.of("PK", AttributeValue.fromS("ACC#1")))).isEqualTo(2 + 5);
    assertThat(ItemSize.bytes(Map.of("Mask", AttributeValue.fromS("Visa •••• 4242"))))
        .isEqualTo(4 + 22);
  }

  @Test
  void numbersCountOneBytePerTwoSignificantDigitsPlusOne() {
    assertThat(ItemSize.value(AttributeValue.fromN("9.99"))).isEqualTo(3);
    assertThat(ItemSize.value(AttributeValue.fromN("1"))).isEqualTo(2);
    assertThat(ItemSize.value(AttributeValue.fromN("1000"))).isEqualTo(2);
    assertThat(ItemSize.value(AttributeValue.fromN("123456"))).isEqualTo(4);
  }

  @Test
  void mapsAndListsHaveThreeBytesOverheadAndOnePerElement() {
    AttributeValue details = AttributeValue.fromM(Map.of("Token", AttributeValue.fromS("pm_x")));
    assertThat(ItemSize.value(details)).isEqualTo(3 + 1 + 5 + 4);
    assertThat(ItemSize.value(AttributeValue.fromL(List.of(AttributeValue.fromBool(true)))))
        .isEqualTo(3 + 1 + 1);
  }

  @Test
  void writeUnitsRoundUpToWholeKilobytes() {
    assertThat(ItemSize.writeUnits(1)).isEqualTo(1);
    assertThat(ItemSize.writeUnits(1024)).isEqualTo(1);
    assertThat(ItemSize.writeUnits(1025)).isEqualTo(2);
  }
}
