package dev.billing.api.auth.keys;

import dev.billing.api.auth.Role;
import dev.billing.api.errors.ApiProblem;
import dev.billing.api.errors.FieldError;
import dev.billing.api.resources.PathIds;
import java.security.SecureRandom;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creating, listing and revoking API keys: the one path behind both the operator command ({@code
 * keys}) and the operator endpoint ({@code /v1/api-keys}). Logs who did what to which key id; never
 * a secret.
 */
public final class ApiKeyService {
  private static final Logger LOG = LoggerFactory.getLogger(ApiKeyService.class);
  public static final int MAX_LABEL = 100;
  private static final Pattern LABEL =
      Pattern.compile("[\\p{L}\\p{N} ._:/@()-]{1," + MAX_LABEL + "}");
  private static final int ID_ATTEMPTS = 3;

  private final ApiKeyStore store;
  private final InstantSource clock;
  private final SecureRandom random = new SecureRandom();

  public ApiKeyService(ApiKeyStore store, InstantSource clock) {
    this.store = store;
    this.clock = clock;
  }

  /** A key just created, with its token: the only moment the token exists outside its owner. */
  public record Created(ApiKey key, String token) {
    @Override
    public String toString() {
      return "Created[" + key + "]";
    }
  }

  /**
   * @param role "operator" or "account"
   * @param accountId required for an account key, refused for an operator key
   * @throws ApiProblem 400 naming every invalid input
   */
  public Created create(String role, String accountId, String label, String createdBy) {
    List<FieldError> errors = new ArrayList<>();
    Role parsed = Role.fromWireName(role);
    if (parsed == null) {
      errors.add(new FieldError("role", "role must be \"operator\" or \"account\""));
    } else if (parsed == Role.ACCOUNT && accountId == null) {
      errors.add(new FieldError("accountId", "accountId is required for an account key"));
    } else if (parsed == Role.OPERATOR && accountId != null) {
      errors.add(
          new FieldError(
              "accountId", "an operator key reaches every account; leave accountId out"));
    }
    if (accountId != null && !PathIds.isValid(accountId)) {
      errors.add(new FieldError("accountId", "accountId must match " + PathIds.PATTERN));
    }
    if (label != null && !LABEL.matcher(label).matches()) {
      errors.add(
          new FieldError(
              "label",
              "label must be 1 to " + MAX_LABEL + " letters, digits, spaces or . _ : / @ ( ) -"));
    }
    if (!errors.isEmpty()) {
      throw ApiProblem.invalid(errors);
    }
    for (int attempt = 0; attempt < ID_ATTEMPTS; attempt++) {
      ApiKeyTokens.Issued issued = ApiKeyTokens.issue(random);
      ApiKey key =
          new ApiKey(
              issued.keyId(),
              issued.hash(),
              parsed,
              accountId,
              label,
              clock.instant().truncatedTo(ChronoUnit.MILLIS),
              createdBy,
              null,
              null);
      if (store.create(key)) {
        LOG.info(
            "API key {} created by {}: role {}{}",
            key.keyId(),
            createdBy,
            parsed.wireName(),
            accountId == null ? "" : ", account " + accountId);
        return new Created(key, issued.token());
      }
    }
    // 64-bit random ids colliding three times in a row means the random source is broken.
    throw new IllegalStateException("could not find a free API key id");
  }

  /**
   * @return the key as revoked (by whoever revoked it first), or empty for an unknown id
   */
  public Optional<ApiKey> revoke(String keyId, String revokedBy) {
    if (!ApiKeyTokens.KEY_ID.matcher(keyId).matches()) {
      return Optional.empty();
    }
    Optional<ApiKey> revoked =
        store.revoke(keyId, clock.instant().truncatedTo(ChronoUnit.MILLIS), revokedBy);
    revoked.ifPresent(
        key ->
            LOG.info(
                "API key {} revoked by {} (request by {})", keyId, key.revokedBy(), revokedBy));
    return revoked;
  }

  /**
   * @return the key, or empty for an unknown or malformed id
   */
  public Optional<ApiKey> find(String keyId) {
    return ApiKeyTokens.KEY_ID.matcher(keyId).matches() ? store.find(keyId) : Optional.empty();
  }

  public List<ApiKey> list() {
    return store.list();
  }
}
