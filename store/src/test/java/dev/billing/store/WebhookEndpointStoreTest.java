package dev.billing.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.store.endpoints.EndpointSecrets;
import dev.billing.store.endpoints.WebhookEndpoint;
import dev.billing.store.endpoints.WebhookEndpointStore;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Webhook endpoints in the billing table, on DynamoDB Local (the item asserted raw). */
class WebhookEndpointStoreTest extends StoreTestBase {
  private static final Instant CREATED = Instant.parse("2026-03-10T12:00:07.250Z");
  private static final String SECRET = "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LTEyMw";

  private WebhookEndpointStore endpoints;

  @BeforeEach
  void createStore() {
    endpoints = new WebhookEndpointStore(client, tables.billing(), Fixtures.KEY);
  }

  private WebhookEndpoint endpoint(String id) {
    return new WebhookEndpoint(
        id,
        "https://merchant.example/hooks",
        List.of("payment.failed", "subscription.canceled"),
        "billing alerts",
        CREATED);
  }

  @Test
  void storesAnEndpointWithItsSecretSealedAndOpensIt() {
    String id = id("we");
    assertThat(endpoints.create(endpoint(id), SECRET)).isTrue();

    assertThat(endpoints.find(id)).contains(endpoint(id));
    assertThat(endpoints.secret(id)).contains(SECRET);
    Map<String, AttributeValue> item = billingItem("WEBHOOK_ENDPOINTS", "ENDPOINT#" + id);
    String sealed = item.get("SealedSecret").s();
    assertThat(item.toString()).doesNotContain(SECRET).doesNotContain(SECRET.substring(6));
    assertThat(sealed).isNotEmpty();
    assertThat(item).doesNotContainKeys("GSI1PK", "GSI1SK");
  }

  @Test
  void neverOverwritesAnId() {
    String id = id("we");
    assertThat(endpoints.create(endpoint(id), SECRET)).isTrue();
    WebhookEndpoint other =
        new WebhookEndpoint(id, "https://evil.example/", List.of("*"), null, CREATED);

    assertThat(endpoints.create(other, "whsec_other")).isFalse();
    assertThat(endpoints.find(id)).contains(endpoint(id));
    assertThat(endpoints.secret(id)).contains(SECRET);
  }

  @Test
  void deletesOnce() {
    String id = id("we");
    endpoints.create(endpoint(id), SECRET);

    assertThat(endpoints.delete(id)).isTrue();
    assertThat(endpoints.delete(id)).isFalse();
    assertThat(endpoints.find(id)).isEmpty();
    assertThat(endpoints.secret(id)).isEmpty();
  }

  @Test
  void listsInPagesWithoutADescriptionWhenThereIsNone() {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      String id = id("we" + i);
      ids.add(id);
      endpoints.create(
          new WebhookEndpoint(id, "https://m.example/" + i, List.of("*"), null, CREATED), SECRET);
    }
    List<String> listed = new ArrayList<>();
    String token = null;
    int pages = 0;
    do {
      Page<WebhookEndpoint> page = endpoints.list(new PageRequest(token, 2));
      page.items().forEach(e -> listed.add(e.id()));
      assertThat(page.items()).allMatch(e -> e.description() == null);
      token = page.nextPageToken();
      pages++;
    } while (token != null);

    assertThat(listed).containsExactlyElementsOf(ids.stream().sorted().toList());
    assertThat(pages).isGreaterThanOrEqualTo(3);
  }

  @Test
  void aSecretOpensForItsOwnEndpointAndKeyOnly() {
    EndpointSecrets secrets = new EndpointSecrets(Fixtures.KEY);
    String sealed = secrets.seal("we-1", SECRET);

    assertThat(secrets.open("we-1", sealed)).isEqualTo(SECRET);
    assertThat(secrets.seal("we-1", SECRET)).isNotEqualTo(sealed); // a fresh IV each time
    assertThatThrownBy(() -> secrets.open("we-2", sealed))
        .isInstanceOf(IllegalStateException.class);
    EndpointSecrets rotated =
        new EndpointSecrets("another-page-token-key-32-bytes!".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> rotated.open("we-1", sealed))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("rotated");
  }
}
