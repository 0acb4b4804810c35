package dev.billing.api.auth.keys;

import dev.billing.activities.views.Timestamps;
import dev.billing.api.errors.ApiProblem;
import dev.billing.api.resources.Actors;
import dev.billing.api.views.PageView;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.CacheControl;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.util.function.Consumer;

/**
 * {@code /v1/api-keys}: operators create, list and revoke API keys (operator-only like every path
 * outside /v1/accounts). The token is in the create response only; listings never show a secret or
 * a hash.
 */
@Path("/v1/api-keys")
@Produces(MediaType.APPLICATION_JSON)
public final class ApiKeyResource {

  private final ApiKeyService keys;
  private final Consumer<String> forgetCachedKey;

  /**
   * @param forgetCachedKey drops a revoked key id from this instance's authentication cache
   */
  public ApiKeyResource(ApiKeyService keys, Consumer<String> forgetCachedKey) {
    this.keys = keys;
    this.forgetCachedKey = forgetCachedKey;
  }

  /** The body of a create. */
  public record CreateApiKeyRequest(String role, String accountId, String label) {}

  /** A key as listed: no secret, no hash. */
  public record ApiKeyView(
      String keyId,
      String role,
      String accountId,
      String label,
      String createdAt,
      String createdBy,
      String revokedAt,
      String revokedBy) {
    static ApiKeyView of(ApiKey key) {
      return new ApiKeyView(
          key.keyId(),
          key.role().wireName(),
          key.accountId(),
          key.label(),
          Timestamps.instant(key.createdAt()),
          key.createdBy(),
          Timestamps.instant(key.revokedAt()),
          key.revokedBy());
    }
  }

  /** The create response: the key and, this once, its token. */
  public record CreatedApiKeyView(
      String keyId,
      String apiKey,
      String role,
      String accountId,
      String label,
      String createdAt,
      String createdBy) {}

  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  public Response create(
      CreateApiKeyRequest body, @Context SecurityContext security, @Context UriInfo uri) {
    if (body == null) {
      throw ApiProblem.invalid(null, "a JSON object with the key's role is required");
    }
    ApiKeyService.Created created =
        keys.create(body.role(), body.accountId(), body.label(), Actors.of(security));
    ApiKey key = created.key();
    CacheControl noStore = new CacheControl();
    noStore.setNoStore(true);
    return Response.created(uri.getBaseUriBuilder().path("v1/api-keys/{keyId}").build(key.keyId()))
        .cacheControl(noStore)
        .entity(
            new CreatedApiKeyView(
                key.keyId(),
                created.token(),
                key.role().wireName(),
                key.accountId(),
                key.label(),
                Timestamps.instant(key.createdAt()),
                key.createdBy()))
        .build();
  }

  /** Every key, revoked ones included; there are few. */
  @GET
  public PageView<ApiKeyView> list() {
    return new PageView<>(keys.list().stream().map(ApiKeyView::of).toList(), null);
  }

  @GET
  @Path("/{keyId}")
  public ApiKeyView get(@PathParam("keyId") String keyId) {
    return keys.find(keyId)
        .map(ApiKeyView::of)
        .orElseThrow(() -> ApiProblem.notFound("There is no API key " + keyId + "."));
  }

  /**
   * Revokes at once on this instance; other instances stop accepting the key when their cache entry
   * expires (auth.keyCache). Revoking twice answers the first revocation.
   */
  @POST
  @Path("/{keyId}/revoke")
  public ApiKeyView revoke(@PathParam("keyId") String keyId, @Context SecurityContext security) {
    ApiKey revoked =
        keys.revoke(keyId, Actors.of(security))
            .orElseThrow(() -> ApiProblem.notFound("There is no API key " + keyId + "."));
    forgetCachedKey.accept(keyId);
    return ApiKeyView.of(revoked);
  }
}
