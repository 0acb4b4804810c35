package dev.billing.workflows.activities;

import dev.billing.domain.RecordInput;
import dev.billing.domain.RecordResult;
import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** Writes the system of record: one DynamoDB transaction per change. */
@ActivityInterface
public interface RecordActivities {
  @ActivityMethod(name = "RecordChange")
  RecordResult record(RecordInput input);

  /** Reads one period record (before a waiver or a refund, which depend on what it holds). */
  @ActivityMethod(name = "LoadPeriod")
  LoadPeriodResult loadPeriod(LoadPeriodInput input);
}
