package dev.billing.devstack;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** A dev stack on free ports for one test class, started before its tests and closed after them. */
final class RunningDevStack implements BeforeAllCallback, AfterAllCallback {

  private DevStack stack;
  private DevStackSettings settings;
  private HttpJson http;

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    settings =
        new DevStackSettings(
            EndToEnd.freePort(), EndToEnd.freePort(), EndToEnd.freePort(), EndToEnd.freePort());
    stack = DevStack.start(settings);
    http = new HttpJson(stack.apiUrl());
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (stack != null) {
      stack.close();
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
