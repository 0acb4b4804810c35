package dev.billing.store;

import static dev.billing.store.Attrs.optStr;
import static dev.billing.store.Attrs.s;

import dev.billing.domain.EmailBounce;
import dev.billing.domain.Lifecycle;
import dev.billing.domain.Money;
import dev.billing.domain.MovedPeriod;
import dev.billing.domain.PaidUpgradeCharge;
import dev.billing.domain.Pause;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.PendingPlanChange;
import dev.billing.domain.PendingUpgradeCharge;
import dev.billing.domain.ReTermedPeriod;
import dev.billing.domain.Term;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The optional lifecycle attributes of a subscription item: each is absent when it does not apply,
 * so a plain subscription's item is unchanged.
 */
final class LifecycleAttributes {
  private LifecycleAttributes() {}

  static void put(Map<String, AttributeValue> item, Lifecycle lifecycle, String currency) {
    putDate(item, "TrialEndsOn", lifecycle.trialEndsOn());
    Pause pause = lifecycle.pause();
    if (pause != null) {
      putDate(item, "PausedSince", pause.since());
      putDate(item, "PausedUntil", pause.resumesOn());
      Attrs.putIfPresent(item, "PauseReason", pause.reason());
    }
    PendingPlanChange change = lifecycle.pendingChange();
    if (change != null) {
      item.put("PendingSKU", s(change.sku()));
      item.put("PendingAmount", Attrs.n(change.price().toPlainString()));
      item.put("PendingEffectiveCycle", Attrs.n(change.effectiveCycle()));
      if (change.term() != null) {
        item.put("PendingTerm", s(change.term().name()));
      }
    }
    putDate(item, "CancelsOn", lifecycle.cancelsOn());
    if (lifecycle.balance() != null) {
      item.put("Balance", Attrs.n(lifecycle.balance().toPlainString()));
    }
    EmailBounce bounce = lifecycle.emailBounce();
    if (bounce != null) {
      item.put("EmailBouncedAt", s(Timestamps.format(bounce.at())));
      item.put("EmailBounceMessageId", s(bounce.messageId()));
      Attrs.putIfPresent(item, "EmailBounceReason", bounce.reason());
    }
    PendingUpgradeCharge upgrade = lifecycle.upgradeCharge();
    if (upgrade != null) {
      item.put("UpgradeRequestId", s(upgrade.requestId()));
      item.put("UpgradeKey", s(upgrade.idempotencyKey()));
      item.put("UpgradeSKU", s(upgrade.sku()));
      item.put("UpgradePrice", Attrs.n(upgrade.price().toPlainString()));
      item.put("UpgradeAmount", Attrs.n(upgrade.amount().toPlainString()));
      item.put("UpgradeCycle", Attrs.n(upgrade.paidCycle()));
      item.put("UpgradeMethodToken", s(upgrade.paymentMethod().token()));
      item.put("UpgradeMethodMask", s(upgrade.paymentMethod().mask()));
      item.put("UpgradeSentFrom", s(Timestamps.format(upgrade.sentFrom())));
      if (upgrade.term() != null) {
        item.put("UpgradeTerm", s(upgrade.term().name()));
      }
    }
    if (!lifecycle.upgradesPaid().isEmpty()) {
      item.put(
          "UpgradesPaid",
          AttributeValue.fromL(
              lifecycle.upgradesPaid().stream()
                  .map(p -> AttributeValue.fromM(paidItem(p)))
                  .toList()));
    }
    ReTermedPeriod reTermed = lifecycle.reTermed();
    if (reTermed != null) {
      Map<String, AttributeValue> map = new HashMap<>();
      map.put("Cycle", Attrs.n(reTermed.cycle()));
      map.put("From", s(Timestamps.date(reTermed.from())));
      map.put("Until", s(Timestamps.date(reTermed.until())));
      map.put("Carried", Attrs.n(reTermed.carried().toPlainString()));
      map.put("Excess", Attrs.n(reTermed.excess().toPlainString()));
      if (!reTermed.consumed().isEmpty()) {
        map.put(
            "Consumed",
            AttributeValue.fromL(
                reTermed.consumed().stream()
                    .map(
                        c ->
                            AttributeValue.fromM(
                                Map.of(
                                    "Key", s(c.idempotencyKey()),
                                    "TransactionId", s(c.transactionId()),
                                    "Amount", Attrs.n(c.amount().toPlainString()))))
                    .toList()));
      }
      item.put("ReTermed", AttributeValue.fromM(map));
    }
    MovedPeriod moved = lifecycle.moved();
    if (moved != null) {
      item.put(
          "Moved",
          AttributeValue.fromM(
              Map.of(
                  "Cycle", Attrs.n(moved.cycle()),
                  "From", s(Timestamps.date(moved.from())),
                  "PaidUntil", s(Timestamps.date(moved.paidUntil())),
                  "AddedWorth", Attrs.n(moved.addedWorth()),
                  "AddedPer", Attrs.n(moved.addedPer()))));
    }
  }

  private static MovedPeriod moved(Map<String, AttributeValue> item) {
    AttributeValue value = item.get("Moved");
    if (value == null || !value.hasM()) {
      return null;
    }
    Map<String, AttributeValue> map = value.m();
    return new MovedPeriod(
        Attrs.num(map, "Cycle"),
        date(map, "From"),
        date(map, "PaidUntil"),
        Attrs.num(map, "AddedWorth"),
        Attrs.num(map, "AddedPer"));
  }

  private static ReTermedPeriod reTermed(Map<String, AttributeValue> item, String currency) {
    AttributeValue value = item.get("ReTermed");
    if (value == null || !value.hasM()) {
      return null;
    }
    Map<String, AttributeValue> map = value.m();
    return new ReTermedPeriod(
        Attrs.num(map, "Cycle"),
        date(map, "From"),
        date(map, "Until"),
        Money.parse(Attrs.decimal(map, "Carried"), currency),
        Money.parse(Attrs.decimal(map, "Excess"), currency),
        consumed(map, currency));
  }

  private static List<ReTermedPeriod.Share> consumed(
      Map<String, AttributeValue> map, String currency) {
    AttributeValue list = map.get("Consumed");
    if (list == null || !list.hasL()) {
      return List.of();
    }
    return list.l().stream()
        .map(AttributeValue::m)
        .map(
            c ->
                new ReTermedPeriod.Share(
                    optStr(c, "Key"),
                    optStr(c, "TransactionId"),
                    Money.parse(Attrs.decimal(c, "Amount"), currency)))
        .toList();
  }

  private static Map<String, AttributeValue> paidItem(PaidUpgradeCharge paid) {
    Map<String, AttributeValue> item = new HashMap<>();
    item.put("Cycle", Attrs.n(paid.cycle()));
    item.put("Key", s(paid.idempotencyKey()));
    item.put("TransactionId", s(paid.transactionId()));
    item.put("Amount", Attrs.n(paid.amount().toPlainString()));
    item.put("From", s(Timestamps.date(paid.from())));
    item.put("Until", s(Timestamps.date(paid.until())));
    return item;
  }

  private static List<PaidUpgradeCharge> upgradesPaid(
      Map<String, AttributeValue> item, String currency) {
    AttributeValue list = item.get("UpgradesPaid");
    if (list == null || !list.hasL()) {
      return List.of();
    }
    return list.l().stream()
        .map(AttributeValue::m)
        .map(
            p ->
                new PaidUpgradeCharge(
                    Attrs.num(p, "Cycle"),
                    optStr(p, "Key"),
                    optStr(p, "TransactionId"),
                    Money.parse(Attrs.decimal(p, "Amount"), currency),
                    date(p, "From"),
                    date(p, "Until")))
        .toList();
  }

  static Lifecycle read(Map<String, AttributeValue> item, String currency) {
    Pause pause =
        item.containsKey("PausedSince")
            ? new Pause(
                date(item, "PausedSince"), date(item, "PausedUntil"), optStr(item, "PauseReason"))
            : null;
    PendingPlanChange change =
        item.containsKey("PendingSKU")
            ? new PendingPlanChange(
                optStr(item, "PendingSKU"),
                Money.parse(Attrs.decimal(item, "PendingAmount"), currency),
                Attrs.num(item, "PendingEffectiveCycle"),
                term(item, "PendingTerm"))
            : null;
    Money balance =
        item.containsKey("Balance") ? Money.parse(Attrs.decimal(item, "Balance"), currency) : null;
    EmailBounce bounce =
        item.containsKey("EmailBouncedAt")
            ? new EmailBounce(
                Timestamps.parse(optStr(item, "EmailBouncedAt")),
                optStr(item, "EmailBounceMessageId"),
                optStr(item, "EmailBounceReason"))
            : null;
    PendingUpgradeCharge upgrade =
        item.containsKey("UpgradeKey")
            ? new PendingUpgradeCharge(
                optStr(item, "UpgradeRequestId"),
                optStr(item, "UpgradeKey"),
                optStr(item, "UpgradeSKU"),
                Money.parse(Attrs.decimal(item, "UpgradePrice"), currency),
                Money.parse(Attrs.decimal(item, "UpgradeAmount"), currency),
                Attrs.num(item, "UpgradeCycle"),
                new PaymentMethod(
                    optStr(item, "UpgradeMethodToken"), optStr(item, "UpgradeMethodMask")),
                Timestamps.parse(optStr(item, "UpgradeSentFrom")),
                term(item, "UpgradeTerm"))
            : null;
    return new Lifecycle(
        date(item, "TrialEndsOn"),
        pause,
        change,
        date(item, "CancelsOn"),
        balance,
        bounce,
        upgrade,
        upgradesPaid(item, currency),
        reTermed(item, currency),
        moved(item));
  }

  private static void putDate(Map<String, AttributeValue> item, String name, LocalDate date) {
    if (date != null) {
      item.put(name, s(Timestamps.date(date)));
    }
  }

  private static Term term(Map<String, AttributeValue> item, String name) {
    String text = optStr(item, name);
    return text == null ? null : Term.valueOf(text);
  }

  private static LocalDate date(Map<String, AttributeValue> item, String name) {
    String text = optStr(item, name);
    return text == null ? null : Timestamps.parseDate(text);
  }
}
