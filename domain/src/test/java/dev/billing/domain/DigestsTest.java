package dev.billing.domain;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Published test vectors, and the outputs of the domain's persisted derivations pinned as they were
 * computed before they used this class (with Python's hashlib): a changed digest would change
 * gateway idempotency keys and timer instants of running subscriptions.
 */
class DigestsTest {

  @Test
  void matchesPublishedVectors() {
    // FIPS 180-2 "abc"; RFC 4231 test case 2.
    assertThat(Digests.sha256Hex("abc"))
        .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assertThat(
            Digests.hex(
                Digests.hmacSha256(
                    Digests.utf8("Jefe"),
                    Digests.utf8("what do ya "),
                    Digests.utf8("want for nothing?"))))
        .isEqualTo("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  }

  @Test
  void partsHashAsTheirConcatenation() {
    assertThat(Digests.sha256(Digests.utf8("a"), Digests.utf8("bc")))
        .isEqualTo(Digests.sha256("abc"));
  }

  @Test
  void requestDigestsAreUnchanged() {
    assertThat(BillingIds.requestDigest("req-42")).isEqualTo("fd1180d9f0c0819f00056b7b9de19fce");
  }

  @Test
  void saltedHashesAreUnchanged() {
    assertThat(SaltedHash.of("due-instant:", "sub-1")).isEqualTo(117353549987033103L);
  }
}
