package dev.billing.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class DueCursorTest {
  private static final Map<String, AttributeValue> KEY =
      Map.of("PK", AttributeValue.fromS("ACC#a-1"));

  @Test
  void isThePositionAsUnsignedBase64Json() {
    String cursor = DueCursor.encode(new ReadPosition(2, KEY));

    assertThat(new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8))
        .isEqualTo("{\"s\":2,\"k\":{\"PK\":\"ACC#a-1\"}}");
    assertThat(DueCursor.decode(cursor, 4)).isEqualTo(new ReadPosition(2, KEY));
    assertThat(DueCursor.decode(DueCursor.encode(new ReadPosition(3, null)), 4))
        .isEqualTo(new ReadPosition(3, null));
  }

  @Test
  void noPositionIsNoCursorAndNoCursorIsTheStart() {
    assertThat(DueCursor.encode(null)).isNull();
    assertThat(DueCursor.decode(null, 4)).isEqualTo(ReadPosition.START);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "not-a-cursor!",
        "",
        "W10",
        "eyJzIjo0fQ",
        "eyJzIjotMX0",
        "eyJzIjoxLCJrIjp7IlBLIjoxfX0"
      })
  void rejectsWhatItDidNotIssue(String cursor) {
    // W10: []; eyJzIjo0fQ: {"s":4} past 4 shards; eyJzIjotMX0: {"s":-1}; the last:
    // {"s":1,"k":{"PK":1}}
    assertThatThrownBy(() -> DueCursor.decode(cursor, 4))
        .isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("not a due-date cursor");
  }
}
