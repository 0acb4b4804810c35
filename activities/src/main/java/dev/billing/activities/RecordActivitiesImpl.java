package dev.billing.activities;

import dev.billing.store.BillingStore;
import dev.billing.workflows.activities.LoadPeriodInput;
import dev.billing.workflows.activities.LoadPeriodResult;
import dev.billing.workflows.activities.RecordActivities;
import dev.billing.workflows.activities.RecordInput;
import dev.billing.workflows.activities.RecordResult;

public final class RecordActivitiesImpl implements RecordActivities {
  private final ChangeRecorder recorder;
  private final BillingStore store;

  public RecordActivitiesImpl(BillingStore store) {
    this.recorder = new ChangeRecorder(store);
    this.store = store;
  }

  @Override
  public LoadPeriodResult loadPeriod(LoadPeriodInput input) {
    return new LoadPeriodResult(
        store.getPeriod(input.accountId(), input.subscriptionId(), input.cycle()).orElse(null));
  }

  @Override
  public RecordResult record(RecordInput input) {
    return recorder.record(input);
  }
}
