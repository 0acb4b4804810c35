package dev.billing.api.auth;

import java.util.Locale;

/**
 * What a credential may do. {@code OPERATOR} reaches every endpoint; {@code ACCOUNT} reaches only
 * {@code /v1/accounts/<its account>/...}.
 */
public enum Role {
  OPERATOR,
  ACCOUNT;

  /** The name used in requests, keys and tokens: "operator" or "account". */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * @return the role of "operator" or "account" (exactly), or null for anything else
   */
  public static Role fromWireName(String value) {
    for (Role role : values()) {
      if (role.wireName().equals(value)) {
        return role;
      }
    }
    return null;
  }
}
