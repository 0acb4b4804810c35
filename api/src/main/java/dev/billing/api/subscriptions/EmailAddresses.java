package dev.billing.api.subscriptions;

import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import java.util.regex.Pattern;

/**
 * What the API accepts as a customer's email address: one plain mailbox that our SMTP server can
 * send to. Parsed strictly by Jakarta Mail (RFC 822 syntax), then narrowed to what mail actually
 * delivers: no display name ("Ana &lt;ana@example.com&gt;"), no list, no quoted or non-ASCII local
 * part, no whitespace or line break (a header injection), a domain name with a dot (no IP literal),
 * and RFC 5321's lengths.
 */
public final class EmailAddresses {
  private EmailAddresses() {}

  /** RFC 5321: a path is at most 256 octets, two of them the angle brackets. */
  public static final int MAX_LENGTH = 254;

  public static final int MAX_LOCAL_PART = 64;

  static final String EXAMPLE = "email must be an address such as \"ana@example.com\"";

  /** Host names: dot-separated labels of letters, digits and inner hyphens, at most 63 each. */
  private static final Pattern DOMAIN =
      Pattern.compile(
          "(?i)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?");

  /** Why {@code email} (already stripped) is not acceptable; null when it is. */
  public static String problem(String email) {
    if (email.length() > MAX_LENGTH) {
      return "email must be at most " + MAX_LENGTH + " characters";
    }
    for (int i = 0; i < email.length(); i++) {
      char c = email.charAt(i);
      if (c <= ' ' || c > '~' || c == '"') {
        // Spaces, CR/LF, control and non-ASCII characters, quoted local parts.
        return EXAMPLE + ", without spaces, quotes or non-ASCII characters";
      }
    }
    InternetAddress address;
    try {
      address = new InternetAddress(email, true);
      address.validate();
    } catch (AddressException e) {
      return EXAMPLE;
    }
    if (address.getPersonal() != null || !email.equals(address.getAddress())) {
      return EXAMPLE + ", without a display name";
    }
    int at = email.lastIndexOf('@');
    if (at < 1) {
      return EXAMPLE;
    }
    if (at > MAX_LOCAL_PART) {
      return "the part of email before '@' must be at most " + MAX_LOCAL_PART + " characters";
    }
    if (!DOMAIN.matcher(email.substring(at + 1)).matches()) {
      return EXAMPLE + ": the part after '@' must be a domain name such as example.com";
    }
    return null;
  }
}
