package dev.billing.devstack;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The test JVM's dev stack on free ports, started by the first class that asks and shared by every
 * class that registers this: a dev stack takes seconds to start and stop. The classes drive it over
 * HTTP as users would, each with accounts of its own and dates from the stack's clock (which only
 * moves forward), and filter what the stack shows of everyone (outbox, charges) by their own
 * subscriptions. After a class, the subscriptions it left billing in its accounts are cancelled:
 * every later jump of the clock would bill them again, in real time, for the next class.
 *
 * <p>Closed when the JVM exits, not from JUnit's root store: when Surefire feeds a fork one class
 * at a time (several forks), every class is a launch of its own and the root store closes after it.
 */
final class RunningDevStack implements BeforeAllCallback, AfterAllCallback {

  private static final String ENDED = "CANCELLED";

  private static DevStack shared;
  private static DevStackSettings sharedSettings;

  private DevStack stack;
  private DevStackSettings settings;
  private HttpJson http;

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    synchronized (RunningDevStack.class) {
      if (shared == null) {
        DevStackSettings started =
            new DevStackSettings(
                EndToEnd.freePort(), EndToEnd.freePort(), EndToEnd.freePort(), EndToEnd.freePort());
        shared = DevStack.start(started);
        sharedSettings = started;
        Runtime.getRuntime().addShutdownHook(new Thread(shared::close, "shared-dev-stack"));
      }
      stack = shared;
      settings = sharedSettings;
    }
    http = new HttpJson(stack.apiUrl());
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    if (http == null) {
      return; // the stack did not start
    }
    for (String account : http.accounts()) {
      JsonNode page = http.get("/v1/accounts/" + account + "/subscriptions?limit=100").body();
      for (JsonNode subscription : page.get("items")) {
        if (!ENDED.equals(subscription.get("status").asText())) {
          // A refusal (e.g. one ending on its own meanwhile) leaves nothing to do.
          http.post(
              "/v1/accounts/"
                  + account
                  + "/subscriptions/"
                  + subscription.get("subscriptionId").asText()
                  + "/cancel",
              "{\"reason\":\"end of test class\"}");
        }
      }
    }
  }

  DevStack stack() {
    return stack;
  }

  DevStackSettings settings() {
    return settings;
  }

  HttpJson http() {
    return http;
  }
}
