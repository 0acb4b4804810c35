package dev.billing.activities.notifications;

import jakarta.mail.AuthenticationFailedException;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.Objects;
import java.util.Properties;
import org.eclipse.angus.mail.smtp.SMTPAddressFailedException;
import org.eclipse.angus.mail.smtp.SMTPSendFailedException;

/**
 * Sends one message per SMTP connection with Jakarta Mail (Eclipse Angus) and says what the server
 * answered: accepted (returns), the address refused for good ({@link RecipientRejectedException}),
 * the message refused for good ({@link MailRejectedException}) or "not now" ({@link
 * MailUnavailableException}). One connection per message: notices are rare (a few per subscription
 * a month) and a pooled connection would be one more thing to go stale. Thread-safe.
 */
public final class SmtpMailer {
  private static final String UTF_8 = StandardCharsets.UTF_8.name();

  private final SmtpSettings settings;
  private final Session session;
  private final String protocol;

  public SmtpMailer(SmtpSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.protocol = settings.tls() == SmtpTls.SMTPS ? "smtps" : "smtp";
    this.session = Session.getInstance(properties(settings, protocol));
  }

  public SmtpSettings settings() {
    return settings;
  }

  /** "host:port", for log lines and failure messages. */
  public String server() {
    return settings.host() + ":" + settings.port();
  }

  /**
   * Hands the message to the server; returns once the server accepted it (250 to the end of DATA).
   *
   * @throws RecipientRejectedException the address is malformed or the server refused it with 5xx
   */
  public void send(Notification notification) throws RecipientRejectedException {
    MimeMessage message = compose(notification);
    Transport transport;
    try {
      transport = session.getTransport(protocol);
      transport.connect(settings.host(), settings.port(), settings.username(), settings.password());
    } catch (AuthenticationFailedException e) {
      throw new MailUnavailableException(
          "the SMTP server "
              + server()
              + " refused the login of "
              + settings.username()
              + ": "
              + answer(e),
          e);
    } catch (MessagingException e) {
      throw new MailUnavailableException(
          "cannot connect to the SMTP server " + server() + ": " + rootMessage(e), e);
    }
    try {
      transport.sendMessage(message, message.getAllRecipients());
    } catch (MessagingException e) {
      throw classify(e);
    } finally {
      closeQuietly(transport);
    }
  }

  /**
   * The RFC 822 message: multipart/alternative (plain text, then HTML), UTF-8, with our Message-ID,
   * the notification's time as Date, and Auto-Submitted so auto-responders stay quiet.
   */
  MimeMessage compose(Notification n) throws RecipientRejectedException {
    InternetAddress to;
    try {
      to = new InternetAddress(n.to(), true);
      to.validate();
    } catch (AddressException e) {
      throw new RecipientRejectedException(
          "invalid address \"" + n.to() + "\": " + e.getMessage(), e);
    }
    try {
      MimeMessage message = new FixedIdMimeMessage(session, n.messageId());
      message.setFrom(settings.fromAddress());
      message.setRecipient(Message.RecipientType.TO, to);
      message.setSubject(n.subject(), UTF_8);
      message.setSentDate(Date.from(n.at()));
      message.setHeader("Auto-Submitted", "auto-generated");
      message.setHeader(MessageHeaders.KIND, n.kind().name());
      message.setHeader(MessageHeaders.ACCOUNT, oneLine(n.accountId()));
      message.setHeader(MessageHeaders.SUBSCRIPTION, oneLine(n.subscriptionId()));
      MimeBodyPart text = new MimeBodyPart();
      text.setText(n.textBody(), UTF_8, "plain");
      MimeBodyPart html = new MimeBodyPart();
      html.setText(n.htmlBody(), UTF_8, "html");
      MimeMultipart alternative = new MimeMultipart("alternative", text, html);
      message.setContent(alternative);
      message.saveChanges();
      return message;
    } catch (MessagingException e) {
      // Building a message from our own templates does not fail on the server's account.
      throw new IllegalStateException(
          "cannot compose message " + n.messageId() + ": " + e.getMessage(), e);
    }
  }

  /**
   * RCPT answered 5xx: a bounce. RCPT answered 4xx, or MAIL FROM / DATA answered 4xx: try later.
   * MAIL FROM / DATA answered 5xx: the message is refused whoever it is for.
   */
  private RuntimeException classify(MessagingException e) throws RecipientRejectedException {
    for (Exception link = e; link != null; link = next(link)) {
      if (link instanceof SMTPAddressFailedException refused) {
        if (refused.getReturnCode() >= 500) {
          throw new RecipientRejectedException(answer(refused), e);
        }
        return new MailUnavailableException(
            "the SMTP server " + server() + " deferred the recipient: " + answer(refused), e);
      }
    }
    for (Exception link = e; link != null; link = next(link)) {
      if (link instanceof SMTPSendFailedException failed && failed.getReturnCode() >= 500) {
        return new MailRejectedException(
            "the SMTP server "
                + server()
                + " refused the message ("
                + command(failed)
                + "): "
                + answer(failed),
            e);
      }
    }
    return new MailUnavailableException(
        "the SMTP server " + server() + " did not take the message: " + rootMessage(e), e);
  }

  private static Exception next(Exception e) {
    if (e instanceof MessagingException m && m.getNextException() != null) {
      return m.getNextException();
    }
    return e.getCause() instanceof Exception cause && cause != e ? cause : null;
  }

  /** The command the server answered; "." (the end of the data) is reported as DATA. */
  private static String command(SMTPSendFailedException e) {
    String command = e.getCommand() == null ? "" : e.getCommand().strip();
    return command.isEmpty() || command.equals(".") ? "DATA" : command;
  }

  private static String answer(MessagingException e) {
    String message = e.getMessage();
    return message == null ? e.getClass().getSimpleName() : message.strip();
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String text =
        root.getMessage() == null
            ? root.getClass().getSimpleName()
            : root.getClass().getSimpleName() + ": " + root.getMessage();
    return text.strip();
  }

  private static String oneLine(String value) {
    return value.replaceAll("[\\r\\n]+", " ");
  }

  private static void closeQuietly(Transport transport) {
    try {
      transport.close();
    } catch (MessagingException ignored) {
      // The server has answered DATA already (or failed before); QUIT going wrong changes nothing.
    }
  }

  private static Properties properties(SmtpSettings s, String protocol) {
    String p = "mail." + protocol + ".";
    Properties props = new Properties();
    props.put("mail.transport.protocol", protocol);
    props.put(p + "host", s.host());
    props.put(p + "port", Integer.toString(s.port()));
    props.put(p + "connectiontimeout", Long.toString(s.connectTimeout().toMillis()));
    props.put(p + "timeout", Long.toString(s.timeout().toMillis()));
    props.put(p + "writetimeout", Long.toString(s.timeout().toMillis()));
    props.put(p + "from", s.fromAddress().getAddress()); // envelope sender: where bounces go
    props.put(p + "auth", Boolean.toString(s.username() != null));
    if (s.tls() == SmtpTls.STARTTLS) {
      props.put(p + "starttls.enable", "true");
      props.put(p + "starttls.required", "true"); // never fall back to plain text with a password
    }
    if (s.tls() != SmtpTls.NONE) {
      props.put(p + "ssl.checkserveridentity", "true");
    }
    return props;
  }

  /**
   * Keeps the Message-ID it was given: Jakarta Mail would otherwise make a new one on every save.
   */
  private static final class FixedIdMimeMessage extends MimeMessage {
    private final String messageId;

    FixedIdMimeMessage(Session session, String messageId) {
      super(session);
      this.messageId = oneLine(messageId);
    }

    @Override
    protected void updateMessageID() throws MessagingException {
      setHeader("Message-ID", messageId);
    }
  }
}
