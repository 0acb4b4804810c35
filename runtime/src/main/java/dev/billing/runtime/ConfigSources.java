package dev.billing.runtime;

import io.dropwizard.configuration.ConfigurationSourceProvider;
import io.dropwizard.configuration.FileConfigurationSourceProvider;
import io.dropwizard.configuration.ResourceConfigurationSourceProvider;
import io.dropwizard.configuration.SubstitutingSourceProvider;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.commons.text.StringSubstitutor;

/**
 * YAML configuration from a file, or else from the classpath (the bundled defaults), with
 * ${ENV_VAR:-default} substitution so every setting can be overridden from the environment, and
 * every variable can be given as a file instead ({@code ENV_VAR_FILE}, see {@link SecretFiles}).
 */
public final class ConfigSources {
  private ConfigSources() {}

  public static ConfigurationSourceProvider fileOrClasspathWithEnv() {
    ConfigurationSourceProvider fileOrResource =
        new ConfigurationSourceProvider() {
          private final FileConfigurationSourceProvider files =
              new FileConfigurationSourceProvider();
          private final ResourceConfigurationSourceProvider resources =
              new ResourceConfigurationSourceProvider();

          @Override
          public InputStream open(String path) throws IOException {
            return Files.exists(Path.of(path)) ? files.open(path) : resources.open(path);
          }
        };
    return new SubstitutingSourceProvider(fileOrResource, substitutor(System.getenv()));
  }

  /** ${NAME} from the environment, or from the file NAME_FILE names. */
  static StringSubstitutor substitutor(Map<String, String> environment) {
    StringSubstitutor substitutor =
        new StringSubstitutor(name -> SecretFiles.lookup(environment, name));
    // Like Dropwizard's EnvironmentVariableSubstitutor(false): an unset variable without a default
    // is
    // left as written and fails validation loudly.
    substitutor.setEnableUndefinedVariableException(false);
    substitutor.setEnableSubstitutionInVariables(true);
    return substitutor;
  }
}
