package dev.billing.api.fuzz;

import dev.billing.api.fuzz.Endpoints.Endpoint;

/**
 * One generated request: an endpoint, who calls it, and at most one thing changed from a valid
 * request to it. Keeping to one change lets the test say which input a 400 must name.
 */
record FuzzRequest(Endpoint endpoint, Credential credential, Mutation mutation) {

  enum Caller {
    OPERATOR,
    OWN_ACCOUNT,
    OTHER_ACCOUNT,
    NONE,
    GARBAGE
  }

  /**
   * @param header the raw Authorization header of a GARBAGE caller
   */
  record Credential(Caller caller, String header) {
    @Override
    public String toString() {
      return caller == Caller.GARBAGE ? "GARBAGE(" + abbreviate(header) + ")" : caller.name();
    }
  }

  enum Kind {
    NONE,
    PATH,
    QUERY,
    HEADER,
    BODY_FIELD,
    BODY_EXTRA,
    BODY_DUPLICATE,
    WHOLE_BODY,
    CONTENT_TYPE,
    METHOD
  }

  /**
   * @param name the path/query/header parameter or body field changed; the method for METHOD
   * @param value its new value (raw JSON for body fields; null removes it); the body for WHOLE_BODY
   */
  record Mutation(Kind kind, String name, String value) {
    static final Mutation NONE = new Mutation(Kind.NONE, null, null);

    boolean routingMayChange() {
      return kind == Kind.PATH || kind == Kind.METHOD || kind == Kind.CONTENT_TYPE;
    }

    @Override
    public String toString() {
      return kind
          + (name == null ? "" : " " + abbreviate(name))
          + (value == null ? "" : " = " + abbreviate(value));
    }
  }

  static String abbreviate(String text) {
    return abbreviate(text, 80);
  }

  static String abbreviate(String text, int max) {
    // Escaped to ASCII: a failure message must survive consoles and XML reports intact.
    StringBuilder escaped = new StringBuilder();
    text.chars()
        .limit(max)
        .forEach(
            c ->
                escaped.append(
                    c < 0x20 || c > 0x7E ? String.format("\\u%04x", c) : String.valueOf((char) c)));
    return text.length() > max ? escaped + "...(" + text.length() + " chars)" : escaped.toString();
  }

  @Override
  public String toString() {
    return endpoint + " as " + credential + ", " + mutation;
  }
}
