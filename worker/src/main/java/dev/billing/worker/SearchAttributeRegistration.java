package dev.billing.worker;

import dev.billing.runtime.SearchAttributeSetup;
import io.dropwizard.lifecycle.Managed;
import io.grpc.StatusRuntimeException;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers the search attributes when the worker starts, where the server allows it (a self-hosted
 * cluster, the dev server); on Temporal Cloud the operator API is refused and the attributes are
 * created with the Cloud UI or tcld instead, which is logged, not fatal. Runs beside the start-up,
 * never in front of it: workflows run without their attributes rather than not at all.
 */
final class SearchAttributeRegistration implements Managed {
  private static final Logger LOG = LoggerFactory.getLogger(SearchAttributeRegistration.class);

  private final WorkflowServiceStubs stubs;
  private final String namespace;
  private Thread thread;

  SearchAttributeRegistration(WorkflowServiceStubs stubs, String namespace) {
    this.stubs = stubs;
    this.namespace = namespace;
  }

  @Override
  public void start() {
    thread = new Thread(this::register, "search-attribute-registration");
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * @return the attributes added, or null when the server would not register them
   */
  List<String> register() {
    try {
      List<String> added = SearchAttributeSetup.register(stubs, namespace);
      LOG.info(
          "Search attributes of namespace {}: {}",
          namespace,
          added.isEmpty() ? "all registered already" : "registered " + added);
      return added;
    } catch (StatusRuntimeException e) {
      LOG.warn(
          "Search attributes not registered in namespace {} ({}): create BillingStatus, AccountId,"
              + " Sku (Keyword), NextPaymentDate, PastDueSince (Datetime) as docs/operations.md shows",
          namespace,
          e.getStatus());
      return null;
    }
  }

  @Override
  public void stop() throws InterruptedException {
    if (thread != null) {
      thread.interrupt();
      thread.join(1000);
    }
  }
}
