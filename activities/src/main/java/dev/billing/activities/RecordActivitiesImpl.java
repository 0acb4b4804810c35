package dev.billing.activities;

import dev.billing.store.BillingStore;
import dev.billing.workflows.activities.RecordActivities;
import dev.billing.workflows.activities.RecordInput;
import dev.billing.workflows.activities.RecordResult;

public final class RecordActivitiesImpl implements RecordActivities {
  private final ChangeRecorder recorder;

  public RecordActivitiesImpl(BillingStore store) {
    this.recorder = new ChangeRecorder(store);
  }

  @Override
  public RecordResult record(RecordInput input) {
    return recorder.record(input);
  }
}
