package dev.billing.api.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Map;

/** A local stand-in for an OIDC issuer: its RSA key, its JWKS document, and tokens it signs. */
final class JwtTokens {
  static final String ISSUER = "https://issuer.test/";
  static final String AUDIENCE = "billing-api";

  final RSAKey key;

  JwtTokens(String keyId) {
    try {
      key = new RSAKeyGenerator(2048).keyID(keyId).generate();
    } catch (JOSEException e) {
      throw new AssertionError(e);
    }
  }

  String jwks() {
    return new JWKSet(key.toPublicJWK()).toString();
  }

  /** Claims valid for ten minutes, from our issuer, for our audience. */
  static JWTClaimsSet.Builder claims(String subject, Map<String, Object> extra) {
    Instant now = Instant.now();
    JWTClaimsSet.Builder claims =
        new JWTClaimsSet.Builder()
            .issuer(ISSUER)
            .audience(AUDIENCE)
            .subject(subject)
            .issueTime(Date.from(now))
            .expirationTime(Date.from(now.plus(Duration.ofMinutes(10))));
    extra.forEach(claims::claim);
    return claims;
  }

  String sign(JWTClaimsSet claims) {
    try {
      SignedJWT jwt =
          new SignedJWT(
              new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
      jwt.sign(new RSASSASigner(key));
      return jwt.serialize();
    } catch (JOSEException e) {
      throw new AssertionError(e);
    }
  }

  static String unsigned(JWTClaimsSet claims) {
    return new PlainJWT(claims).serialize();
  }

  /** HS256 with the public modulus as the secret: the classic algorithm-confusion forgery. */
  String hmacSignedWithPublicKey(JWTClaimsSet claims) {
    try {
      SignedJWT jwt =
          new SignedJWT(
              new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(key.getKeyID()).build(), claims);
      jwt.sign(new MACSigner(key.toPublicJWK().toRSAPublicKey().getEncoded()));
      return jwt.serialize();
    } catch (JOSEException e) {
      throw new AssertionError(e);
    }
  }
}
