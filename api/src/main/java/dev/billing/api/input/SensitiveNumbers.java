package dev.billing.api.input;

import java.math.BigInteger;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds card numbers and IBANs in free text, so that a request carrying one is refused before
 * anything stores it (a reason "my card 4242 4242 4242 4242 was charged twice" would otherwise end
 * up in the history). A card number is 13 to 19 digits, optionally grouped by single spaces or
 * dashes, not part of a longer word and passing the Luhn check; an IBAN has its country's length
 * and passes the mod-97 check. Both checks keep ordinary numbers and ids from being mistaken for
 * them. Bank account numbers without a checksum (a US account number is just digits) cannot be told
 * from other numbers; they are kept out because no field but the payment-method token describes a
 * payment method, and that field accepts gateway tokens only.
 */
public final class SensitiveNumbers {
  private SensitiveNumbers() {}

  /**
   * A run of 13 to 19 digits standing alone: not inside a longer word, so that server-made ids such
   * as sub_ab1234567890123cd (hex) are never mistaken for one.
   */
  private static final Pattern CARD =
      Pattern.compile("(?<![A-Za-z0-9])\\d(?:[ -]?\\d){12,18}(?![A-Za-z0-9])");

  /** Where an IBAN may start: a country code and two check digits at the start of a word. */
  private static final Pattern IBAN_START = Pattern.compile("(?<![A-Za-z0-9])([A-Za-z]{2})\\d{2}");

  /** IBAN lengths by country (SWIFT IBAN registry). */
  private static final Map<String, Integer> IBAN_LENGTHS =
      Map.ofEntries(
          Map.entry("AD", 24),
          Map.entry("AE", 23),
          Map.entry("AL", 28),
          Map.entry("AT", 20),
          Map.entry("AZ", 28),
          Map.entry("BA", 20),
          Map.entry("BE", 16),
          Map.entry("BG", 22),
          Map.entry("BH", 22),
          Map.entry("BR", 29),
          Map.entry("BY", 28),
          Map.entry("CH", 21),
          Map.entry("CR", 22),
          Map.entry("CY", 28),
          Map.entry("CZ", 24),
          Map.entry("DE", 22),
          Map.entry("DK", 18),
          Map.entry("DO", 28),
          Map.entry("EE", 20),
          Map.entry("EG", 29),
          Map.entry("ES", 24),
          Map.entry("FI", 18),
          Map.entry("FO", 18),
          Map.entry("FR", 27),
          Map.entry("GB", 22),
          Map.entry("GE", 22),
          Map.entry("GI", 23),
          Map.entry("GL", 18),
          Map.entry("GR", 27),
          Map.entry("GT", 28),
          Map.entry("HR", 21),
          Map.entry("HU", 28),
          Map.entry("IE", 22),
          Map.entry("IL", 23),
          Map.entry("IQ", 23),
          Map.entry("IS", 26),
          Map.entry("IT", 27),
          Map.entry("JO", 30),
          Map.entry("KW", 30),
          Map.entry("KZ", 20),
          Map.entry("LB", 28),
          Map.entry("LC", 32),
          Map.entry("LI", 21),
          Map.entry("LT", 20),
          Map.entry("LU", 20),
          Map.entry("LV", 21),
          Map.entry("LY", 25),
          Map.entry("MC", 27),
          Map.entry("MD", 24),
          Map.entry("ME", 22),
          Map.entry("MK", 19),
          Map.entry("MR", 27),
          Map.entry("MT", 31),
          Map.entry("MU", 30),
          Map.entry("NL", 18),
          Map.entry("NO", 15),
          Map.entry("PK", 24),
          Map.entry("PL", 28),
          Map.entry("PS", 29),
          Map.entry("PT", 25),
          Map.entry("QA", 29),
          Map.entry("RO", 24),
          Map.entry("RS", 22),
          Map.entry("SA", 24),
          Map.entry("SC", 31),
          Map.entry("SE", 24),
          Map.entry("SI", 19),
          Map.entry("SK", 24),
          Map.entry("SM", 27),
          Map.entry("ST", 25),
          Map.entry("SV", 28),
          Map.entry("TL", 23),
          Map.entry("TN", 24),
          Map.entry("TR", 26),
          Map.entry("UA", 29),
          Map.entry("VA", 22),
          Map.entry("VG", 24),
          Map.entry("XK", 20));

  /** Whether {@code text} contains a card number or an IBAN anywhere. */
  public static boolean containsPaymentNumber(String text) {
    return containsCardNumber(text) || containsIban(text);
  }

  public static boolean containsCardNumber(String text) {
    Matcher m = CARD.matcher(text);
    while (m.find()) {
      if (luhn(text, m.start(), m.end())) {
        return true;
      }
    }
    return false;
  }

  public static boolean containsIban(String text) {
    Matcher m = IBAN_START.matcher(text);
    while (m.find()) {
      Integer length = IBAN_LENGTHS.get(m.group(1).toUpperCase(Locale.ROOT));
      String iban = length == null ? null : compactRun(text, m.start(), length);
      if (iban != null && mod97(iban) == 1) {
        return true;
      }
    }
    return false;
  }

  /**
   * Exactly {@code length} letters and digits from {@code start}, single spaces between them
   * allowed (IBANs are printed in groups of four), followed by no further letter or digit; else
   * null.
   */
  private static String compactRun(String text, int start, int length) {
    StringBuilder out = new StringBuilder(length);
    int i = start;
    while (i < text.length() && out.length() < length) {
      char c = text.charAt(i);
      if (isAlnum(c)) {
        out.append(Character.toUpperCase(c));
      } else if (!(c == ' '
          && out.length() > 0
          && i + 1 < text.length()
          && isAlnum(text.charAt(i + 1)))) {
        return null;
      }
      i++;
    }
    boolean ends = i >= text.length() || !isAlnum(text.charAt(i));
    return out.length() == length && ends ? out.toString() : null;
  }

  private static boolean isAlnum(char c) {
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
  }

  /**
   * The Luhn check of the digits in {@code text[start, end)}, skipping the separators between them.
   */
  private static boolean luhn(String text, int start, int end) {
    int sum = 0;
    boolean twice = false;
    for (int i = end - 1; i >= start; i--) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        continue;
      }
      int d = c - '0';
      if (twice) {
        d *= 2;
        if (d > 9) {
          d -= 9;
        }
      }
      sum += d;
      twice = !twice;
    }
    return sum % 10 == 0;
  }

  private static int mod97(String iban) {
    String rearranged = iban.substring(4) + iban.substring(0, 4);
    StringBuilder digits = new StringBuilder();
    for (char c : rearranged.toCharArray()) {
      digits.append(Character.isDigit(c) ? String.valueOf(c) : String.valueOf(c - 'A' + 10));
    }
    return new BigInteger(digits.toString()).mod(BigInteger.valueOf(97)).intValue();
  }
}
