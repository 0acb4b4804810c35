package dev.billing.devstack;

import dev.billing.activities.notifications.MessageHeaders;
import dev.billing.activities.views.Timestamps;
import dev.billing.api.errors.ApiProblem;
import jakarta.mail.BodyPart;
import jakarta.mail.MessagingException;
import jakarta.mail.Multipart;
import jakarta.mail.internet.MimeMessage;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What the dev stack's SMTP server received, oldest first: the customer email the worker sent,
 * delivered over SMTP as in production. {@code ?format=eml} returns the raw RFC 822 message (one
 * match) or an mbox of them (several), ready for a mail client; {@code subscriptionId} and {@code
 * messageId} narrow the list.
 */
@Path("/v1/dev/outbox")
public final class DevOutboxResource {
  static final String MBOX = "application/mbox";
  static final String EML = "message/rfc822";

  private final DevMailServer mail;

  DevOutboxResource(DevMailServer mail) {
    this.mail = mail;
  }

  public record MessageView(
      String messageId,
      String kind,
      String to,
      String subject,
      String date,
      String text,
      String accountId,
      String subscriptionId) {}

  public record OutboxView(List<MessageView> items) {}

  @GET
  @Produces({MediaType.APPLICATION_JSON, EML, MBOX})
  public Response list(
      @QueryParam("format") String format,
      @QueryParam("subscriptionId") String subscriptionId,
      @QueryParam("messageId") String messageId)
      throws MessagingException, IOException {
    List<MimeMessage> messages =
        mail.received().stream()
            .filter(
                m ->
                    subscriptionId == null
                        || subscriptionId.equals(header(m, MessageHeaders.SUBSCRIPTION)))
            .filter(m -> messageId == null || messageId.equals(header(m, "Message-ID")))
            .toList();
    if (format == null || format.isBlank() || format.equals("json")) {
      List<MessageView> views = messages.stream().map(DevOutboxResource::view).toList();
      return Response.ok(new OutboxView(views), MediaType.APPLICATION_JSON_TYPE).build();
    }
    if (!format.equals("eml")) {
      throw ApiProblem.invalid("format", "format must be json or eml");
    }
    if (messages.size() == 1) {
      return Response.ok(raw(messages.get(0)), EML).build();
    }
    return Response.ok(mbox(messages), MBOX).build();
  }

  private static MessageView view(MimeMessage m) {
    try {
      return new MessageView(
          header(m, "Message-ID"),
          header(m, MessageHeaders.KIND),
          m.getAllRecipients()[0].toString(),
          m.getSubject(),
          m.getSentDate() == null ? null : Timestamps.instant(m.getSentDate().toInstant()),
          plainText(m),
          header(m, MessageHeaders.ACCOUNT),
          header(m, MessageHeaders.SUBSCRIPTION));
    } catch (MessagingException | IOException e) {
      throw new IllegalStateException(
          "unreadable message in the dev mailbox: " + e.getMessage(), e);
    }
  }

  private static String plainText(MimeMessage m) throws MessagingException, IOException {
    Object content = m.getContent();
    if (content instanceof Multipart parts) {
      for (int i = 0; i < parts.getCount(); i++) {
        BodyPart part = parts.getBodyPart(i);
        if (part.isMimeType("text/plain")) {
          return ((String) part.getContent()).replace("\r\n", "\n");
        }
      }
      return null;
    }
    return content instanceof String text ? text.replace("\r\n", "\n") : null;
  }

  private static String header(MimeMessage m, String name) {
    try {
      return m.getHeader(name, null);
    } catch (MessagingException e) {
      return null;
    }
  }

  private static byte[] raw(MimeMessage m) throws MessagingException, IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    m.writeTo(out);
    return out.toByteArray();
  }

  /**
   * mboxrd: each message after a "From " separator line, its own lines starting with (">"*)"From "
   * quoted with one more ">", so any mail client splits them back exactly.
   */
  private static byte[] mbox(List<MimeMessage> messages) throws MessagingException, IOException {
    StringBuilder out = new StringBuilder();
    for (MimeMessage m : messages) {
      out.append("From billing@localhost ")
          .append(m.getSentDate() == null ? "" : m.getSentDate().toInstant().toString())
          .append('\n');
      String text = new String(raw(m), StandardCharsets.UTF_8).replace("\r\n", "\n");
      text.lines()
          .forEach(line -> out.append(line.matches(">*From .*") ? ">" + line : line).append('\n'));
      out.append('\n');
    }
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }
}
