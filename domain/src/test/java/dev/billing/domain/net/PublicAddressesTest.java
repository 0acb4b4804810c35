package dev.billing.domain.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PublicAddressesTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "localhost",
        "LOCALHOST.",
        "api.localhost",
        "printer.local",
        "metadata.google.internal",
        "router.home.arpa",
        "127.0.0.1",
        "10.1.2.3",
        "172.16.0.1",
        "172.31.255.255",
        "192.168.1.1",
        "169.254.169.254",
        "100.64.0.1",
        "0.0.0.0",
        "224.0.0.1",
        "255.255.255.255",
        "[::1]",
        "[::]",
        "[fe80::1]",
        "[fd00::1]",
        "[::ffff:127.0.0.1]",
        "[::ffff:169.254.169.254]",
        "[::10.0.0.1]",
        "[2002:a00:1::]",
        "127.1",
        "2130706433",
        "0x7f.0.0.1",
        "0x7f000001",
        "010.0.0.1",
        "017700000001"
      })
  void refusesHostsThatAreNotOnThePublicInternet(String host) {
    assertThat(PublicAddresses.hostRefusal(host)).isNotNull();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "hooks.example.com",
        "example.com.",
        "cafe",
        "0x.example.com",
        "8.8.8.8",
        "172.32.0.1",
        "100.128.0.1",
        "[2606:4700:4700::1111]",
        "1e100.net"
      })
  void acceptsPublicNamesAndAddresses(String host) {
    assertThat(PublicAddresses.hostRefusal(host)).isNull();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "127.0.0.1",
        "10.0.0.1",
        "169.254.169.254",
        "::1",
        "fc00::1",
        "::ffff:192.168.0.1"
      })
  void addressesADeliveryMustNotConnectTo(String literal) throws Exception {
    assertThat(PublicAddresses.isPublic(InetAddress.getByName(literal))).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"93.184.215.14", "2606:4700:4700::1111", "::ffff:8.8.8.8"})
  void addressesADeliveryMayConnectTo(String literal) throws Exception {
    assertThat(PublicAddresses.isPublic(InetAddress.getByName(literal))).isTrue();
  }
}
