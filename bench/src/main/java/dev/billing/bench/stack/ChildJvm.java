package dev.billing.bench.stack;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Starts another JVM on this one's java binary and classpath (the bench module's runtime
 * classpath).
 */
final class ChildJvm {
  private ChildJvm() {}

  static Process start(
      String mainClass,
      List<String> jvmOptions,
      List<String> args,
      Map<String, String> environment,
      Path log)
      throws Exception {
    String java =
        ProcessHandle.current()
            .info()
            .command()
            .orElse(
                System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
    List<String> command = new ArrayList<>();
    command.add(java);
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass);
    command.addAll(args);
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().putAll(environment);
    return builder.start();
  }
}
