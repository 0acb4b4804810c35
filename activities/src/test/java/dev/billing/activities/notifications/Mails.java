package dev.billing.activities.notifications;

import jakarta.mail.BodyPart;
import jakarta.mail.MessagingException;
import jakarta.mail.Multipart;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;

/** Reads what a test mail server received: the parts of our multipart/alternative messages. */
public final class Mails {
  private Mails() {}

  public static String text(MimeMessage message) {
    return part(message, "text/plain");
  }

  public static String html(MimeMessage message) {
    return part(message, "text/html");
  }

  public static String header(MimeMessage message, String name) {
    try {
      return message.getHeader(name, null);
    } catch (MessagingException e) {
      throw new IllegalStateException(e);
    }
  }

  public static String to(MimeMessage message) {
    try {
      return message.getAllRecipients()[0].toString();
    } catch (MessagingException e) {
      throw new IllegalStateException(e);
    }
  }

  public static String subject(MimeMessage message) {
    try {
      return message.getSubject();
    } catch (MessagingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String part(MimeMessage message, String type) {
    try {
      Multipart alternative = (Multipart) message.getContent();
      for (int i = 0; i < alternative.getCount(); i++) {
        BodyPart part = alternative.getBodyPart(i);
        if (part.isMimeType(type)) {
          // Line ends travel as CRLF on the wire.
          return ((String) part.getContent()).replace("\r\n", "\n");
        }
      }
      throw new AssertionError("no " + type + " part in " + message.getMessageID());
    } catch (MessagingException | IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
