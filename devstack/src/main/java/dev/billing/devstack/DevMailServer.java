package dev.billing.devstack;

import com.icegreen.greenmail.Managers;
import com.icegreen.greenmail.mail.MailAddress;
import com.icegreen.greenmail.smtp.SmtpManager;
import com.icegreen.greenmail.smtp.SmtpState;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import dev.billing.activities.notifications.SmtpSettings;
import jakarta.mail.internet.MimeMessage;
import java.util.List;

/**
 * The dev stack's SMTP server (GreenMail, on a free port of 127.0.0.1). The worker sends to it
 * exactly as it sends to a real relay; it keeps every message it accepted for {@code GET
 * /v1/dev/outbox}. Like the sandbox's test cards, one address plays a failure: any address whose
 * local part is "bounce" (bounce@example.com) is refused for good at RCPT (550 5.1.1), which is a
 * bounce.
 */
final class DevMailServer implements AutoCloseable {
  static final String FROM = "Billing (dev) <billing@localhost>";

  private final GreenMail greenMail;

  DevMailServer() {
    greenMail =
        new BouncingGreenMail(
            new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort());
    greenMail.start();
  }

  int port() {
    return greenMail.getSmtp().getPort();
  }

  /** Plain SMTP, no login: what a developer's local relay looks like. */
  SmtpSettings smtpSettings() {
    return SmtpSettings.plain("127.0.0.1", port(), FROM);
  }

  /** Every message accepted, in the order it arrived. */
  List<MimeMessage> received() {
    return List.of(greenMail.getReceivedMessages());
  }

  @Override
  public void close() {
    greenMail.stop();
  }

  private static final class BouncingGreenMail extends GreenMail {
    BouncingGreenMail(ServerSetup setup) {
      super(setup);
      managers = new BouncingManagers(); // init() uses it instead of creating plain Managers
    }
  }

  private static final class BouncingManagers extends Managers {
    private final SmtpManager smtp =
        new SmtpManager(getImapHostManager(), getUserManager()) {
          @Override
          public String checkRecipient(SmtpState state, MailAddress recipient) {
            return "bounce".equalsIgnoreCase(recipient.getUser())
                ? "550 5.1.1 <"
                    + recipient.getEmail()
                    + ">: mailbox unavailable (dev stack bounce address)"
                : null;
          }
        };

    @Override
    public SmtpManager getSmtpManager() {
      return smtp;
    }
  }
}
