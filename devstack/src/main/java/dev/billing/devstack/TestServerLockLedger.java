package dev.billing.devstack;

import io.temporal.testserver.TestServer;
import java.lang.reflect.Field;
import java.util.LinkedList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Works around a defect of Temporal's Java test server (seen in 1.38.0): its clock keeps a
 * debugging ledger of time-skipping locks ({@code SelfAdvancingTimerImpl.lockEvents}, a {@link
 * LinkedList}) to which every lock and unlock appends an entry, of which only the locks taken
 * through a handle are ever removed, each by a linear scan of the whole list under the server's
 * global timer lock. The list grows with every task the server ever handled, so the server slows
 * down quadratically and leaks memory (bench/README.md, "The test server's lock ledger").
 *
 * <p>The ledger is replaced by one that keeps nothing. The server reads it for its message on an
 * unbalanced unlock, and to refuse a lock handle unlocked twice: that second check is given up (the
 * server's own code unlocks each handle once; the guard against a lock count below zero stays).
 * Whether time may skip is decided by that separate lock count, which this leaves alone. If a
 * future server changes these internals, nothing is replaced and a warning says so: the server then
 * runs as shipped.
 */
final class TestServerLockLedger {
  private static final Logger log = LoggerFactory.getLogger(TestServerLockLedger.class);

  private TestServerLockLedger() {}

  /** Returns true if the server's ledger was replaced. */
  static boolean install(TestServer.PortBoundTestServer server) {
    try {
      Object starter = read(server, "testServicesStarter");
      Object timer = read(starter, "selfAdvancingTimer");
      Field events = timer.getClass().getDeclaredField("lockEvents");
      events.setAccessible(true);
      if (events.getType() != LinkedList.class) {
        log.warn(
            "Temporal test server: lock ledger is a {}, not a LinkedList; left as shipped",
            events.getType().getName());
        return false;
      }
      events.set(timer, new EmptyLedger());
      return true;
    } catch (ReflectiveOperationException | RuntimeException e) {
      log.warn(
          "Temporal test server: lock ledger not replaced ({}); the server runs as shipped and"
              + " slows down as it handles more tasks",
          e.toString());
      return false;
    }
  }

  /** The ledger of the server's clock, for tests. */
  static Object ledger(TestServer.PortBoundTestServer server) throws ReflectiveOperationException {
    return read(read(read(server, "testServicesStarter"), "selfAdvancingTimer"), "lockEvents");
  }

  private static Object read(Object owner, String name) throws ReflectiveOperationException {
    Field field = owner.getClass().getDeclaredField(name);
    field.setAccessible(true);
    return field.get(owner);
  }

  /** Accepts every entry and keeps none; every removal succeeds. */
  static final class EmptyLedger extends LinkedList<Object> {
    @Override
    public boolean add(Object event) {
      return true;
    }

    @Override
    public boolean remove(Object event) {
      return true;
    }
  }
}
