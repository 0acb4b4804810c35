package dev.billing.domain.net;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Whether a merchant's webhook endpoint points at the public internet. The billing service posts to
 * URLs that operators type in; one that names this machine, the private network or the cloud's
 * metadata service (169.254.169.254) would turn every event into a request inside our own network
 * (server-side request forgery). Two checks, because a name can resolve anywhere: {@link
 * #hostRefusal} when the URL is registered (names and literal addresses, no DNS), and {@link
 * #isPublic} on every address a delivery is about to connect to.
 */
public final class PublicAddresses {
  private PublicAddresses() {}

  /** A label a resolver may read as a number: decimal, octal (leading 0) or hex (0x). */
  private static final Pattern NUMERIC_LABEL = Pattern.compile("0x[0-9a-f]*|[0-9]+");

  private static final Pattern DOTTED_QUAD =
      Pattern.compile(
          "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");

  /**
   * Why a URL's host cannot be a merchant's endpoint, or null when it may be (its addresses are
   * still checked at delivery). Reads the host as the URL gives it, without asking DNS.
   *
   * @param host the host of an absolute URL ({@code URI.getHost()}: IPv6 literals in brackets)
   */
  public static String hostRefusal(String host) {
    String name = host.toLowerCase(Locale.ROOT);
    if (name.endsWith(".")) {
      name = name.substring(0, name.length() - 1);
    }
    if (name.equals("localhost")
        || name.endsWith(".localhost")
        || name.endsWith(".local")
        || name.endsWith(".internal")
        || name.endsWith(".home.arpa")) {
      return "names this machine or a private network";
    }
    if (name.startsWith("[") && name.endsWith("]")) {
      InetAddress address = literal(name.substring(1, name.length() - 1));
      return address == null || !isPublic(address) ? "is not a public address" : null;
    }
    if (DOTTED_QUAD.matcher(name).matches()) {
      InetAddress address = literal(name);
      return address == null || !isPublic(address) ? "is not a public address" : null;
    }
    if (java.util.Arrays.stream(name.split("\\.", -1))
        .allMatch(label -> NUMERIC_LABEL.matcher(label).matches())) {
      // "127.1", "2130706433", "0x7f.0.0.1", "010.0.0.1": resolvers read these as addresses in
      // notations of their own; refused rather than interpreted.
      return "is an address in an ambiguous notation";
    }
    return null;
  }

  /**
   * Whether an address is on the public internet: not loopback, private (RFC 1918, unique local),
   * link-local (the cloud metadata service), carrier-grade NAT, multicast, unspecified, or an IPv6
   * form that embeds one of those in IPv4.
   */
  public static boolean isPublic(InetAddress address) {
    if (address.isAnyLocalAddress()
        || address.isLoopbackAddress()
        || address.isLinkLocalAddress()
        || address.isSiteLocalAddress()
        || address.isMulticastAddress()) {
      return false;
    }
    byte[] b = address.getAddress();
    if (address instanceof Inet4Address) {
      int first = b[0] & 0xff;
      int second = b[1] & 0xff;
      return first != 0 // "this network"
          && !(first == 100 && second >= 64 && second <= 127) // carrier-grade NAT
          && !(first == 192 && second == 0 && (b[2] & 0xff) == 0) // IETF protocol assignments
          && !(first == 198 && (second == 18 || second == 19)) // benchmarking
          && first < 240; // reserved and broadcast
    }
    if (address instanceof Inet6Address) {
      if ((b[0] & 0xfe) == 0xfc) {
        return false; // unique local fc00::/7
      }
      if (isMappedOrCompatible(b)) {
        byte[] v4 = {b[12], b[13], b[14], b[15]};
        try {
          return isPublic(InetAddress.getByAddress(v4));
        } catch (UnknownHostException e) {
          return false;
        }
      }
      if ((b[0] & 0xff) == 0x20 && (b[1] & 0xff) == 0x02) {
        return false; // 6to4 wraps an IPv4 address the relay would reach for us
      }
      return true;
    }
    return false;
  }

  /** ::ffff:a.b.c.d (mapped) and ::a.b.c.d (the deprecated compatible form). */
  private static boolean isMappedOrCompatible(byte[] b) {
    for (int i = 0; i < 10; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return (b[10] == 0 && b[11] == 0) || ((b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff);
  }

  /** A literal address, parsed without DNS; null when it is not one. */
  private static InetAddress literal(String text) {
    if (!text.contains(":") && !DOTTED_QUAD.matcher(text).matches()) {
      return null; // getByName would ask DNS for anything else
    }
    try {
      return InetAddress.getByName(text);
    } catch (UnknownHostException e) {
      return null;
    }
  }
}
