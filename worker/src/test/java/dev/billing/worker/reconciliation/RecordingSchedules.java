package dev.billing.worker.reconciliation;

import io.temporal.client.schedules.Schedule;
import io.temporal.client.schedules.ScheduleAlreadyRunningException;
import io.temporal.client.schedules.ScheduleClient;
import io.temporal.client.schedules.ScheduleDescription;
import io.temporal.client.schedules.ScheduleHandle;
import io.temporal.client.schedules.ScheduleState;
import io.temporal.client.schedules.ScheduleUpdate;
import io.temporal.client.schedules.ScheduleUpdateInput;
import io.temporal.common.SearchAttributes;
import io.temporal.workflow.Functions;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A schedule client that records what it is asked (only the calls the scheduling makes). With
 * {@link #exists} set, every schedule is already there, as on a worker's second start.
 */
final class RecordingSchedules {
  final List<String> createdIds = new ArrayList<>();
  final List<Schedule> created = new ArrayList<>();

  /** The update function passed for each schedule id, in the order of the calls. */
  final Map<String, Functions.Func1<ScheduleUpdateInput, ScheduleUpdate>> updaters =
      new LinkedHashMap<>();

  boolean exists;

  Schedule created(String id) {
    return created.get(createdIds.indexOf(id));
  }

  /**
   * What the update of {@code id} makes of the schedule as the server holds it: {@code current}
   * with the state an operator gave it (paused, with a note).
   */
  Schedule updated(String id, Schedule current, ScheduleState operatorState) {
    Schedule asHeld = Schedule.newBuilder(current).setState(operatorState).build();
    return updaters
        .get(id)
        .apply(
            new ScheduleUpdateInput(
                new ScheduleDescription(
                    id, null, asHeld, Map.of(), SearchAttributes.EMPTY, Map.of(), null)))
        .getSchedule();
  }

  @SuppressWarnings("unchecked")
  ScheduleClient client() {
    return (ScheduleClient)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {ScheduleClient.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "createSchedule" -> {
                    if (exists) {
                      throw new ScheduleAlreadyRunningException(null);
                    }
                    createdIds.add((String) args[0]);
                    created.add((Schedule) args[1]);
                    yield handle((String) args[0]);
                  }
                  case "getHandle" -> handle((String) args[0]);
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }

  @SuppressWarnings("unchecked")
  private ScheduleHandle handle(String id) {
    return (ScheduleHandle)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {ScheduleHandle.class},
            (proxy, method, args) -> {
              if (method.getName().equals("update")) {
                updaters.put(id, (Functions.Func1<ScheduleUpdateInput, ScheduleUpdate>) args[0]);
                return null;
              }
              throw new UnsupportedOperationException(method.getName());
            });
  }
}
