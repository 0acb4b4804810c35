package dev.billing.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.billing.domain.Digests;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Map;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Page tokens: {@code base64url(json) "." base64url(HMAC-SHA256(json))} where the JSON holds the
 * query scope ("q") and DynamoDB's LastEvaluatedKey ("k"), for a read over shards also the shard
 * ("s", a {@link ReadPosition}). The signature keeps clients from steering a query into other
 * partitions (an ExclusiveStartKey is a raw key); the scope keeps a token of one query from being
 * replayed against another.
 *
 * <p>Public (constructor only) so that the stores in sub-packages, such as the payment-events
 * store, page with the same tokens; encoding and decoding stay inside this package.
 */
public final class PageTokens {
  /** Far above any token we issue (our keys are short strings); bounds the work done on garbage. */
  private static final int MAX_TOKEN_LENGTH = 4096;

  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  private final ObjectMapper json = new ObjectMapper();
  private final byte[] key;

  public PageTokens(byte[] key) {
    this.key = key.clone();
  }

  /**
   * @return null when there is no further page
   */
  String encode(String scope, Map<String, AttributeValue> lastEvaluatedKey) {
    if (lastEvaluatedKey == null || lastEvaluatedKey.isEmpty()) {
      return null;
    }
    ObjectNode payload = json.createObjectNode();
    payload.put("q", scope);
    ReadPosition.writeKey(payload, lastEvaluatedKey);
    return sealed(payload);
  }

  /** A token of a sharded query; null position: no further page. */
  String encodePosition(String scope, ReadPosition position) {
    if (position == null) {
      return null;
    }
    ObjectNode payload = json.createObjectNode();
    payload.put("q", scope);
    position.writeTo(payload);
    return sealed(payload);
  }

  private String sealed(ObjectNode payload) {
    byte[] bytes = payload.toString().getBytes(StandardCharsets.UTF_8);
    return ENCODER.encodeToString(bytes) + "." + ENCODER.encodeToString(sign(bytes));
  }

  /**
   * @return the ExclusiveStartKey, or null for the first page (null token)
   * @throws InvalidPageTokenException for anything this store did not issue for this very query
   */
  Map<String, AttributeValue> decode(String scope, String token) {
    if (token == null) {
      return null;
    }
    return verified(
        scope,
        token,
        node -> {
          if (node.has("s")) {
            throw invalid(); // a sharded query's token
          }
          return ReadPosition.readKey(node.path("k"));
        });
  }

  /**
   * @return where a sharded query goes on: shard 0 from its start for the first page (null token)
   * @param shards how many shards the query has: a position past them was not issued by it
   * @throws InvalidPageTokenException for anything this store did not issue for this very query
   */
  ReadPosition decodePosition(String scope, String token, int shards) {
    if (token == null) {
      return ReadPosition.START;
    }
    return verified(scope, token, node -> ReadPosition.readFrom(node, shards));
  }

  private <T> T verified(String scope, String token, Function<JsonNode, T> reader) {
    try {
      return reader.apply(verifiedPayload(scope, token));
    } catch (InvalidPageTokenException e) {
      throw e;
    } catch (RuntimeException | IOException e) {
      // Base64, JSON and shape errors on a token whose signature matched cannot happen unless the
      // key leaked; treat them, like every malformed input, as a token we did not issue.
      throw invalid();
    }
  }

  private JsonNode verifiedPayload(String scope, String token) throws IOException {
    int dot = token.indexOf('.');
    if (token.length() > MAX_TOKEN_LENGTH || dot < 0 || dot != token.lastIndexOf('.')) {
      throw invalid();
    }
    byte[] payload = DECODER.decode(token.substring(0, dot));
    byte[] signature = DECODER.decode(token.substring(dot + 1));
    if (!MessageDigest.isEqual(sign(payload), signature)) {
      throw invalid();
    }
    JsonNode node = json.readTree(payload);
    if (!scope.equals(node.path("q").textValue())) {
      throw new InvalidPageTokenException("page token belongs to another query");
    }
    return node;
  }

  private byte[] sign(byte[] payload) {
    return Digests.hmacSha256(key, payload);
  }

  private static InvalidPageTokenException invalid() {
    return new InvalidPageTokenException(
        "page token is not valid: pass the nextPageToken of the"
            + " previous page of the same query unchanged, or none for the first page");
  }
}
