package dev.billing.api.input;

import com.fasterxml.jackson.core.JsonFactory;
import dev.billing.api.errors.ApiProblem;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.util.Set;

/**
 * Every JSON request body of every endpoint, before Jackson binds it: at most {@link
 * #MAX_BODY_BYTES} (413), then {@link JsonBodyCheck}. Bodies an endpoint takes raw (the webhooks
 * read bytes to check their signature, with their own limit) are left alone.
 */
public final class StrictJsonBodies implements ReaderInterceptor {
  /** The largest request body the API accepts: far above any request it defines. */
  public static final int MAX_BODY_BYTES = 64 * 1024;

  /** How much of an oversized body is read and thrown away, so the client sees the 413. */
  private static final int MAX_DRAINED_BYTES = 1024 * 1024;

  private static final Set<Class<?>> RAW =
      Set.of(InputStream.class, byte[].class, String.class, Reader.class);

  private final JsonFactory factory;

  public StrictJsonBodies(JsonFactory factory) {
    this.factory = factory;
  }

  @Override
  public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
    if (RAW.contains(context.getType()) || !isJson(context.getMediaType())) {
      return context.proceed();
    }
    // A body too large to drain is refused unread (the connection is then closed); a moderately
    // oversized one is drained so the client, still writing, reads the 413 instead of a broken
    // pipe.
    String declared = context.getHeaders().getFirst(HttpHeaders.CONTENT_LENGTH);
    if (declared != null
        && declared.chars().allMatch(Character::isDigit)
        && (declared.length() > 9 || Long.parseLong(declared) > MAX_DRAINED_BYTES)) {
      throw ApiProblem.tooLarge(MAX_BODY_BYTES);
    }
    InputStream in = context.getInputStream();
    byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
    if (body.length > MAX_BODY_BYTES) {
      drain(in);
      throw ApiProblem.tooLarge(MAX_BODY_BYTES);
    }
    if (body.length > 0) {
      JsonBodyCheck.check(factory, body);
    }
    context.setInputStream(new ByteArrayInputStream(body));
    return context.proceed();
  }

  private static boolean isJson(MediaType type) {
    return type != null
        && (type.getSubtype().equals("json") || type.getSubtype().endsWith("+json"));
  }

  private static void drain(InputStream in) throws IOException {
    byte[] sink = new byte[8192];
    long drained = 0;
    for (int n; drained < MAX_DRAINED_BYTES && (n = in.read(sink)) >= 0; ) {
      drained += n;
    }
  }
}
