package dev.billing.devstack;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** A dev stack on free ports for one test class, started before its tests and closed after them. */
final class RunningDevStack implements BeforeAllCallback, AfterAllCallback {

  private DevStack stack;
  private HttpJson http;

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    stack = DevStack.start(new DevStackSettings(
        EndToEnd.freePort(), EndToEnd.freePort(), EndToEnd.freePort(), EndToEnd.freePort()));
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

  HttpJson http() {
    return http;
  }
}
