package dev.billing.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.Subscription;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A subscription's due window is stored with it (DueWindow), so a restart from the record keeps it.
 */
class DueWindowItemTest extends StoreTestBase {

  @Test
  void theWindowIsWrittenAsAnIsoDurationAndReadBack() {
    Subscription base = Fixtures.subscription(id("acc"), id("sub"));
    Subscription spread = base.withSchedule(base.schedule().withDueWindow(Duration.ofHours(6)));
    store.createSubscription(Fixtures.created(spread));

    assertThat(billingItem("ACC#" + id("acc"), "SUB#" + id("sub") + "#SKU#SKU-PRO"))
        .containsEntry("DueWindow", AttributeValue.fromS("PT6H"));
    assertThat(store.getSubscription(id("acc"), id("sub")).orElseThrow()).isEqualTo(spread);
    assertThat(
            store
                .getHistory(id("sub"), PageRequest.first(1))
                .items()
                .get(0)
                .snapshot()
                .schedule()
                .dueWindow())
        .isEqualTo(Duration.ofHours(6));
  }

  @Test
  void aSubscriptionWithoutAWindowHasNoAttributeAndReadsBackAtMidnight() {
    Subscription midnight = Fixtures.subscription(id("acc"), id("sub"));
    store.createSubscription(Fixtures.created(midnight));

    assertThat(billingItem("ACC#" + id("acc"), "SUB#" + id("sub") + "#SKU#SKU-PRO"))
        .doesNotContainKey("DueWindow");
    assertThat(store.getSubscription(id("acc"), id("sub")).orElseThrow().schedule().dueWindow())
        .isNull();
  }
}
