package dev.billing.devstack;

/**
 * Ports of the embedded stack. {@link #fromEnvironment()} reads the documented variables; tests pick
 * free ports so they never collide with a running {@code ./billing dev}.
 */
public record DevStackSettings(int apiPort, int adminPort, int temporalPort, int dynamoPort) {

  public static DevStackSettings fromEnvironment() {
    return new DevStackSettings(
        port("BILLING_PORT", 8080), port("BILLING_ADMIN_PORT", 8081),
        port("TEMPORAL_PORT", 7233), port("DYNAMODB_PORT", 8000));
  }

  private static int port(String variable, int fallback) {
    String value = System.getenv(variable);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      int port = Integer.parseInt(value.trim());
      if (port < 1 || port > 65535) {
        throw new NumberFormatException();
      }
      return port;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(variable + " must be a port number (1-65535), got \"" + value + "\"");
    }
  }

  public String temporalTarget() {
    return "localhost:" + temporalPort;
  }

  public String dynamoEndpoint() {
    return "http://localhost:" + dynamoPort;
  }
}
