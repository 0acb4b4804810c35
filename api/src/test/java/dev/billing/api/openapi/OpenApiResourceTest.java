package dev.billing.api.openapi;

import static dev.billing.api.support.ApiRequests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.support.ResourceTestSupport;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code GET /v1/openapi.json} serves the document to anyone, credential or not. */
@ExtendWith(DropwizardExtensionsSupport.class)
class OpenApiResourceTest {
  static final ResourceTestSupport API = ResourceTestSupport.start();

  @Test
  void theDocumentIsServedWithoutACredential() throws Exception {
    Response response = API.requestAs(null, OpenApiResource.PATH).get();

    assertThat(response.getStatus()).isEqualTo(200);
    assertThat(response.getMediaType().isCompatible(MediaType.APPLICATION_JSON_TYPE)).isTrue();
    JsonNode served = OpenApiDocument.JSON.readTree(response.readEntity(String.class));
    assertThat(served).isEqualTo(OpenApiDocument.read());
  }

  @Test
  void aCredentialIsNotLookedAt() {
    assertThat(API.requestAs("not-a-key", OpenApiResource.PATH).get().getStatus()).isEqualTo(200);
    assertThat(API.requestAs(API.accountKey("acc-openapi"), OpenApiResource.PATH).get().getStatus())
        .isEqualTo(200);
  }

  @Test
  void onlyTheDocumentIsOpen() {
    // A path next to it is not served, and the endpoints it describes still need a credential.
    assertProblem(API.requestAs(null, OpenApiResource.PATH + "/x").get(), 404);
    assertProblem(API.requestAs(null, "/v1/api-keys").get(), 401);
  }
}
