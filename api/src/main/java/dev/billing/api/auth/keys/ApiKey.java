package dev.billing.api.auth.keys;

import dev.billing.api.auth.Role;
import java.time.Instant;
import java.util.Objects;

/**
 * A stored API key: everything but its secret, of which only the hash is kept.
 *
 * @param accountId the account an {@link Role#ACCOUNT} key is scoped to; null for operator keys
 * @param label what the key is for ("billing-batch", "support console"); shown in listings
 * @param createdBy the principal (or, for the operator command, the OS user) that created it
 * @param revokedAt when it stopped working; null while it works
 */
public record ApiKey(
    String keyId,
    String hash,
    Role role,
    String accountId,
    String label,
    Instant createdAt,
    String createdBy,
    Instant revokedAt,
    String revokedBy) {

  public ApiKey {
    Objects.requireNonNull(keyId, "keyId");
    Objects.requireNonNull(hash, "hash");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(createdBy, "createdBy");
    if ((role == Role.ACCOUNT) != (accountId != null)) {
      throw new IllegalArgumentException(
          "an account key has exactly one account, an operator key none");
    }
  }

  public boolean revoked() {
    return revokedAt != null;
  }

  public ApiKey withRevocation(Instant at, String by) {
    return new ApiKey(keyId, hash, role, accountId, label, createdAt, createdBy, at, by);
  }

  /** The principal name this key acts under, recorded in histories: never the secret. */
  public String principalName() {
    return "key:" + keyId;
  }
}
