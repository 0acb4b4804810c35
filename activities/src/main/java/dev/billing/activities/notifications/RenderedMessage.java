package dev.billing.activities.notifications;

import java.util.Objects;

/** The words of a notification, before it has an addressee or an id. */
public record RenderedMessage(String subject, String textBody, String htmlBody) {
  public RenderedMessage {
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(textBody, "textBody");
    Objects.requireNonNull(htmlBody, "htmlBody");
  }
}
