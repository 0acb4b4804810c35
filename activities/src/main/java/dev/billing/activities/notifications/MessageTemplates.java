package dev.billing.activities.notifications;

import com.github.mustachejava.DefaultMustacheFactory;
import com.github.mustachejava.Mustache;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;

/**
 * The Mustache templates of every kind, compiled once: {@code templates/<kind>/subject.mustache},
 * {@code text.mustache} and {@code html.mustache} on the classpath, the HTML ones extending {@code
 * templates/layout.mustache}. Values are HTML-escaped in the HTML body only; the subject is folded
 * to one line, so no value can add a header. Thread-safe: compiled templates are immutable.
 */
public final class MessageTemplates {
  static final String ROOT = "dev/billing/activities/notifications/templates";

  private record Compiled(Mustache subject, Mustache text, Mustache html) {}

  private final Map<NotificationKind, Compiled> byKind = new EnumMap<>(NotificationKind.class);

  /** Compiles all templates; a missing or malformed one fails here, at start-up. */
  public MessageTemplates() {
    DefaultMustacheFactory plain = new PlainTextMustacheFactory(ROOT);
    DefaultMustacheFactory html = new DefaultMustacheFactory(ROOT);
    for (NotificationKind kind : NotificationKind.values()) {
      String dir = kind.template() + "/";
      byKind.put(
          kind,
          new Compiled(
              plain.compile(dir + "subject.mustache"),
              plain.compile(dir + "text.mustache"),
              html.compile(dir + "html.mustache")));
    }
  }

  /**
   * @param model the values the kind's templates name, and "lang" (the HTML document's language); a
   *     value missing from it renders as nothing, which the tests of every kind would catch
   */
  public RenderedMessage render(NotificationKind kind, Map<String, Object> model) {
    Compiled templates = byKind.get(kind);
    String subject = run(templates.subject(), model).strip().replaceAll("\\s+", " ");
    Map<String, Object> page = new HashMap<>(model);
    page.put("subject", subject); // the HTML layout's <title>
    return new RenderedMessage(subject, run(templates.text(), model), run(templates.html(), page));
  }

  private static String run(Mustache template, Map<String, Object> model) {
    StringWriter out = new StringWriter();
    try {
      template.execute(out, model).flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /** For the subject and the plain-text body: values go in as they are, not HTML-escaped. */
  private static final class PlainTextMustacheFactory extends DefaultMustacheFactory {
    PlainTextMustacheFactory(String root) {
      super(root);
    }

    @Override
    public void encode(String value, Writer writer) {
      try {
        writer.write(value);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
