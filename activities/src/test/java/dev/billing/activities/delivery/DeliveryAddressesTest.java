package dev.billing.activities.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The addresses a name resolves to at delivery time decide, whatever the name looked like. */
class DeliveryAddressesTest {
  private static final Map<String, String> DNS =
      Map.of(
          "shop.example", "93.184.216.34",
          "rebound.example", "127.0.0.1",
          "private.example", "10.1.2.3",
          "metadata.example", "169.254.169.254",
          "mapped.example", "::ffff:127.0.0.1");

  private static DeliveryAddresses addresses(boolean allowLoopback) {
    return new DeliveryAddresses(
        allowLoopback,
        host -> {
          String address = DNS.get(host);
          if (address == null) {
            throw new UnknownHostException(host);
          }
          return new InetAddress[] {InetAddress.getByName(address)};
        });
  }

  @Test
  void aPublicAddressMayBePostedTo() throws Exception {
    assertThat(addresses(false).refusal(URI.create("https://shop.example/hook"))).isNull();
  }

  @Test
  void loopbackPrivateMetadataAndMappedAddressesAreRefusedOutsideTheDevStack() throws Exception {
    for (String host :
        new String[] {"rebound.example", "private.example", "metadata.example", "mapped.example"}) {
      assertThat(addresses(false).refusal(URI.create("https://" + host + "/hook")))
          .as(host)
          .isNotNull();
    }
  }

  @Test
  void theDevStackAllowsLoopbackAndNothingElsePrivate() throws Exception {
    assertThat(addresses(true).refusal(URI.create("http://rebound.example:9000/hook"))).isNull();
    assertThat(addresses(true).refusal(URI.create("http://private.example/hook"))).isNotNull();
    assertThat(addresses(true).refusal(URI.create("http://metadata.example/hook"))).isNotNull();
  }

  @Test
  void theRealResolverRefusesLocalhost() throws Exception {
    assertThat(new DeliveryAddresses(false).refusal(URI.create("http://localhost:8081/tasks")))
        .isNotNull();
    assertThat(new DeliveryAddresses(true).refusal(URI.create("http://localhost:8081/tasks")))
        .isNull();
  }
}
