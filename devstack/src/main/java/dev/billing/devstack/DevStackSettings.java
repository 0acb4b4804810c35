package dev.billing.devstack;

/**
 * Ports of the embedded stack and its operator key. {@link #fromEnvironment()} reads the documented
 * variables; tests pick free ports so they never collide with a running {@code ./billing dev}.
 *
 * @param devApiKey the bearer key that acts as operator in the dev stack (BILLING_DEV_API_KEY,
 *     default "dev"); the production API has no such key
 */
public record DevStackSettings(int apiPort, int adminPort, int temporalPort, int dynamoPort, String devApiKey) {

  public static final String DEFAULT_DEV_API_KEY = "dev";

  public DevStackSettings {
    devApiKey = devApiKey == null || devApiKey.isBlank() ? DEFAULT_DEV_API_KEY : devApiKey.strip();
  }

  public DevStackSettings(int apiPort, int adminPort, int temporalPort, int dynamoPort) {
    this(apiPort, adminPort, temporalPort, dynamoPort, DEFAULT_DEV_API_KEY);
  }

  public static DevStackSettings fromEnvironment() {
    return new DevStackSettings(
        port("BILLING_PORT", 8080), port("BILLING_ADMIN_PORT", 8081),
        port("TEMPORAL_PORT", 7233), port("DYNAMODB_PORT", 8000), System.getenv("BILLING_DEV_API_KEY"));
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
