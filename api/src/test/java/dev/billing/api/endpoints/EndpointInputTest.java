package dev.billing.api.endpoints;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.api.errors.ApiProblem;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the dev stack allows beyond production: plain http to this machine, nothing else. */
class EndpointInputTest {
  private static WebhookEndpointResource.CreateRequest to(String url) {
    return new WebhookEndpointResource.CreateRequest(url, List.of("*"), null);
  }

  @Test
  void theDevStackAcceptsHttpToThisMachineOnly() {
    EndpointInput dev = new EndpointInput(true);

    assertThat(dev.check(to("http://localhost:4242/hooks")).url())
        .isEqualTo("http://localhost:4242/hooks");
    assertThat(dev.check(to("http://127.0.0.1/hooks")).url()).isEqualTo("http://127.0.0.1/hooks");
    assertThat(dev.check(to("https://merchant.example/")).url())
        .isEqualTo("https://merchant.example/");
    for (String url :
        List.of("http://merchant.example/", "http://localhost.evil.example/", "http://10.0.0.1/")) {
      assertThatThrownBy(() -> dev.check(to(url)))
          .as(url)
          .isInstanceOfSatisfying(
              ApiProblem.class, p -> assertThat(p.errors().get(0).field()).isEqualTo("url"));
    }
  }

  @Test
  void productionRefusesHttpToThisMachine() {
    EndpointInput production = new EndpointInput(false);

    for (String url : List.of("http://localhost:4242/hooks", "http://127.0.0.1/hooks")) {
      assertThatThrownBy(() -> production.check(to(url)))
          .as(url)
          .isInstanceOfSatisfying(
              ApiProblem.class, p -> assertThat(p.errors().get(0).field()).isEqualTo("url"));
    }
  }

  @Test
  void productionRefusesHttpsIntoOurOwnNetwork() {
    EndpointInput production = new EndpointInput(false);

    for (String url :
        List.of(
            "https://localhost/hooks",
            "https://169.254.169.254/latest/meta-data/",
            "https://10.0.0.7:8443/",
            "https://[::1]/",
            "https://[::ffff:127.0.0.1]/",
            "https://2130706433/",
            "https://metadata.google.internal/")) {
      assertThatThrownBy(() -> production.check(to(url)))
          .as(url)
          .isInstanceOfSatisfying(
              ApiProblem.class,
              p -> {
                assertThat(p.errors().get(0).field()).isEqualTo("url");
                assertThat(p.errors().get(0).message()).contains("public internet");
              });
    }
    assertThat(production.check(to("https://hooks.merchant.example/billing")).url())
        .isEqualTo("https://hooks.merchant.example/billing");
  }
}
