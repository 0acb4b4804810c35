package dev.billing.api.subscriptions;

import dev.billing.domain.Subscription;
import java.util.IllformedLocaleException;
import java.util.Locale;
import java.util.Set;

/**
 * The customer's locale: a well-formed BCP 47 tag with a known language (and a known country when
 * it names one), stored in its canonical case ("EN-us" becomes "en-US") so equal tags hash equally.
 */
public final class Locales {
  private Locales() {}

  /** RFC 5646's advice: 35 characters hold every tag a real locale needs. */
  static final int MAX_LENGTH = 35;

  private static final Set<String> LANGUAGES = Set.of(Locale.getISOLanguages());
  private static final Set<String> COUNTRIES = Set.of(Locale.getISOCountries());

  /** The canonical tag, {@value Subscription#DEFAULT_LOCALE} when absent. */
  static String normalize(String tag) {
    return tag == null ? Subscription.DEFAULT_LOCALE : canonical(tag);
  }

  /** The canonical tag of {@code tag} (stripped); null when it is not an acceptable one. */
  public static String canonical(String tag) {
    String stripped = tag.strip();
    if (stripped.isEmpty() || stripped.length() > MAX_LENGTH) {
      return null;
    }
    Locale locale;
    try {
      locale = new Locale.Builder().setLanguageTag(stripped).build();
    } catch (IllformedLocaleException e) {
      return null;
    }
    String language = locale.getLanguage();
    String country = locale.getCountry();
    // Two-letter codes are checked against ISO 639-1 and 3166-1; the JDK lists no three-letter
    // languages, and numeric regions (UN M.49, e.g. 419) are accepted as well-formed.
    boolean knownLanguage = language.length() == 3 || LANGUAGES.contains(language);
    boolean knownCountry = country.length() != 2 || COUNTRIES.contains(country);
    if (language.isEmpty() || !knownLanguage || !knownCountry) {
      return null;
    }
    return locale.toLanguageTag();
  }
}
