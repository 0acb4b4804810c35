package dev.billing.api.resources;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.core.SecurityContext;
import java.security.Principal;
import org.junit.jupiter.api.Test;

/** The actor recorded with a change: the authenticated principal once there is one, else "api". */
class ActorsTest {

  @Test
  void aRequestWithoutAPrincipalIsTheApi() {
    assertThat(Actors.of(null)).isEqualTo("api");
    assertThat(Actors.of(context(null))).isEqualTo("api");
    assertThat(Actors.of(context(() -> " "))).isEqualTo("api");
  }

  @Test
  void anAuthenticatedPrincipalIsRecordedByName() {
    assertThat(Actors.of(context(() -> "support:ana"))).isEqualTo("support:ana");
  }

  private static SecurityContext context(Principal principal) {
    return new SecurityContext() {
      @Override
      public Principal getUserPrincipal() {
        return principal;
      }

      @Override
      public boolean isUserInRole(String role) {
        return false;
      }

      @Override
      public boolean isSecure() {
        return false;
      }

      @Override
      public String getAuthenticationScheme() {
        return null;
      }
    };
  }
}
