package dev.billing.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Reconciliation's cursor over the shards of one due date: {@code
 * base64url({"s":shard,"k":{...}})}, a {@link ReadPosition}. Unlike API page tokens it is not
 * signed: it only travels between a workflow and its own activities, which may run on different
 * worker processes (each with its own random page-token key). Nothing persists it beyond one
 * reconciliation run.
 */
final class DueCursor {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  private DueCursor() {}

  /**
   * @return null when there is nothing left to read
   */
  static String encode(ReadPosition position) {
    if (position == null) {
      return null;
    }
    ObjectNode node = JSON.createObjectNode();
    position.writeTo(node);
    return ENCODER.encodeToString(node.toString().getBytes(StandardCharsets.UTF_8));
  }

  /**
   * @param cursor null for the first page
   * @throws IllegalArgumentException for anything that is not a cursor of a read over {@code
   *     shards}
   */
  static ReadPosition decode(String cursor, int shards) {
    if (cursor == null) {
      return ReadPosition.START;
    }
    try {
      return ReadPosition.readFrom(JSON.readTree(DECODER.decode(cursor)), shards);
    } catch (IOException | IllegalArgumentException e) {
      throw new IllegalArgumentException("not a due-date cursor: " + cursor, e);
    }
  }
}
