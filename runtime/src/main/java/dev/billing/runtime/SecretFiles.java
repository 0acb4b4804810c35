package dev.billing.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Secrets come from the environment or from files, never from a checked-in file. Every variable
 * {@code NAME} may instead be given as {@code NAME_FILE=/run/secrets/name} (the Docker and
 * Kubernetes convention): the file's content, without its trailing newline, is the value. A set
 * {@code NAME} wins over {@code NAME_FILE}.
 */
public final class SecretFiles {
  public static final String SUFFIX = "_FILE";

  private SecretFiles() {}

  /**
   * The value of {@code name} from {@code environment}, or from the file {@code name_FILE} names;
   * null if neither.
   */
  public static String lookup(Map<String, String> environment, String name) {
    String value = environment.get(name);
    if (value != null) {
      return value;
    }
    String file = environment.get(name + SUFFIX);
    if (file == null || file.isBlank()) {
      return null;
    }
    try {
      return Files.readString(Path.of(file.strip()), StandardCharsets.UTF_8).stripTrailing();
    } catch (IOException e) {
      // The path is named, never the content.
      throw new UncheckedIOException("cannot read " + name + SUFFIX + " (" + file.strip() + ")", e);
    }
  }

  /**
   * {@code environment} plus, for each {@code NAME_FILE} without a {@code NAME}, {@code NAME} read
   * from its file. A {@code *_FILE} whose file cannot be read is left out rather than failing: the
   * environment holds other programs' variables that merely end in _FILE (TF_CLI_CONFIG_FILE), and
   * a secret the application does need then reads as unset, which its own check reports.
   */
  public static Map<String, String> resolve(Map<String, String> environment) {
    Map<String, String> resolved = new HashMap<>(environment);
    environment.keySet().stream()
        .filter(key -> key.endsWith(SUFFIX) && key.length() > SUFFIX.length())
        .map(key -> key.substring(0, key.length() - SUFFIX.length()))
        .filter(name -> !environment.containsKey(name))
        .forEach(
            name -> {
              try {
                resolved.put(name, lookup(environment, name));
              } catch (UncheckedIOException unreadable) {
                // Not a secret of ours, or a misconfigured one: see above.
              }
            });
    return resolved;
  }
}
