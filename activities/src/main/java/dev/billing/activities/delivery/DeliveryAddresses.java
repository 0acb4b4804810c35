package dev.billing.activities.delivery;

import dev.billing.domain.net.PublicAddresses;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.net.UnknownHostException;

/**
 * Where a delivery may connect, checked on the addresses the endpoint's host resolves to just
 * before each POST: a name registered as public may point inside our network later (DNS rebinding).
 * Refused: anything {@link PublicAddresses#isPublic} refuses (loopback, private, link-local such as
 * the metadata service), and any address of this machine's own interfaces (the worker's admin port
 * on a public address). The dev stack allows loopback, and only loopback.
 */
public final class DeliveryAddresses {
  /** Resolves a host; a seam for tests. */
  public interface Resolver {
    InetAddress[] resolve(String host) throws UnknownHostException;
  }

  private final boolean allowLoopback;
  private final Resolver resolver;

  public DeliveryAddresses(boolean allowLoopback) {
    this(allowLoopback, InetAddress::getAllByName);
  }

  public DeliveryAddresses(boolean allowLoopback, Resolver resolver) {
    this.allowLoopback = allowLoopback;
    this.resolver = resolver;
  }

  /**
   * @return why the URL may not be posted to, or null when it may
   * @throws UnknownHostException when the host does not resolve (a failure worth retrying)
   */
  public String refusal(URI url) throws UnknownHostException {
    String host = url.getHost();
    if (host == null) {
      return "no host";
    }
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    for (InetAddress address : resolver.resolve(host)) {
      if (allowLoopback && address.isLoopbackAddress()) {
        continue;
      }
      if (!PublicAddresses.isPublic(address) || isOwnInterface(address)) {
        return "resolves to an address that is not public";
      }
    }
    return null;
  }

  private static boolean isOwnInterface(InetAddress address) {
    try {
      return NetworkInterface.getByInetAddress(address) != null;
    } catch (SocketException e) {
      return true; // unknown: not posted to
    }
  }
}
