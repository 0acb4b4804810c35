package dev.billing.api.errors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.util.List;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Errors Jetty answers before or around Jersey (a malformed or ambiguous URI, a header block too
 * large, a path outside any servlet): the same problem+json shape as every other error, instead of
 * Jetty's HTML page. The request is never echoed. Installed on the server and on the application's
 * servlet context.
 */
public final class ProblemErrorHandler {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ProblemErrorHandler() {}

  /** For the Server (errors before any context). */
  public static final class Server extends org.eclipse.jetty.server.handler.ErrorHandler {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      return writeProblem(response, callback);
    }
  }

  /** For the application's servlet context (errors the servlet container raises). */
  public static final class Servlet extends org.eclipse.jetty.ee10.servlet.ErrorHandler {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      return writeProblem(response, callback);
    }
  }

  static boolean writeProblem(Response response, Callback callback) {
    int status = response.getStatus() >= 400 ? response.getStatus() : 500;
    String reason = HttpStatus.getMessage(status);
    String type = status >= 500 ? Problem.TYPE_BASE + "internal-error" : Problem.typeOf(reason);
    Problem problem =
        new Problem(
            type,
            reason,
            status,
            status == 400
                ? "The request line or headers are malformed (for example an empty or encoded"
                    + " '/' or '.' path segment)."
                : reason + ".",
            status == 400
                ? List.of(new FieldError(null, "the request line or headers are malformed"))
                : List.of());
    byte[] body;
    try {
      body = JSON.writeValueAsBytes(problem);
    } catch (JsonProcessingException e) {
      body = ("{\"status\":" + status + "}").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, ProblemResponses.PROBLEM_JSON);
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    // Jetty refuses these before reading the request completely and then closes the connection;
    // saying so keeps a client from sending its next request on a connection about to go away.
    response.getHeaders().put(HttpHeader.CONNECTION, "close");
    response.write(true, ByteBuffer.wrap(body), callback);
    return true;
  }
}
