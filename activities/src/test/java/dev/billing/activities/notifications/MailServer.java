package dev.billing.activities.notifications;

import com.icegreen.greenmail.Managers;
import com.icegreen.greenmail.mail.MailAddress;
import com.icegreen.greenmail.smtp.SmtpManager;
import com.icegreen.greenmail.smtp.SmtpState;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;

/**
 * A GreenMail SMTP server on a fixed free port (so it can be stopped and started again at the same
 * address, like a real relay that goes down) whose RCPT answers follow the recipient's local part:
 * "bounce" is refused for good (550 5.1.1), "defer" for now (451 4.2.0), anyone else accepted; and
 * a message to "refuse" is refused at DATA (554 5.7.1, a content policy). GreenMail itself accepts
 * everything; these are its SMTP manager's checks.
 */
public final class MailServer implements AutoCloseable {
  public static final String BOUNCE = "550 5.1.1 <bounce@example.com>: mailbox unavailable";

  private final int port;
  private final GreenMail greenMail;

  public MailServer() {
    this.port = freePort();
    ServerSetup smtp = new ServerSetup(port, "127.0.0.1", ServerSetup.PROTOCOL_SMTP);
    smtp.setServerStartupTimeout(10_000); // GreenMail's default is short for a loaded CI machine
    this.greenMail = new RuledGreenMail(smtp);
    greenMail.start();
  }

  public int port() {
    return port;
  }

  /** Settings of a mailer that sends here. */
  public SmtpSettings settings() {
    return SmtpSettings.plain("127.0.0.1", port, "Billing <billing@example.com>");
  }

  public void stop() {
    greenMail.stop();
  }

  public void start() {
    greenMail.start();
  }

  public List<MimeMessage> received() {
    return List.of(greenMail.getReceivedMessages());
  }

  @Override
  public void close() {
    greenMail.stop();
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static final class RuledGreenMail extends GreenMail {
    RuledGreenMail(ServerSetup setup) {
      super(setup);
      managers = new RuledManagers(); // read by init() on start instead of a plain Managers
    }
  }

  private static final class RuledManagers extends Managers {
    private final SmtpManager smtp =
        new SmtpManager(getImapHostManager(), getUserManager()) {
          @Override
          public String checkRecipient(SmtpState state, MailAddress recipient) {
            return switch (recipient.getUser()) {
              case "bounce" -> "550 5.1.1 <" + recipient.getEmail() + ">: mailbox unavailable";
              case "defer" -> "451 4.2.0 <" + recipient.getEmail() + ">: mailbox busy, try later";
              default -> null;
            };
          }

          @Override
          public String checkData(SmtpState state) {
            boolean refused =
                state.getMessage().getToAddresses().stream()
                    .anyMatch(to -> to.getUser().equals("refuse"));
            return refused ? "554 5.7.1 message refused by policy" : null;
          }
        };

    @Override
    public SmtpManager getSmtpManager() {
      return smtp;
    }
  }
}
