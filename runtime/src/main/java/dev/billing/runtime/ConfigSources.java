package dev.billing.runtime;

import io.dropwizard.configuration.ConfigurationSourceProvider;
import io.dropwizard.configuration.EnvironmentVariableSubstitutor;
import io.dropwizard.configuration.FileConfigurationSourceProvider;
import io.dropwizard.configuration.ResourceConfigurationSourceProvider;
import io.dropwizard.configuration.SubstitutingSourceProvider;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * YAML configuration from a file, or else from the classpath (the bundled defaults), with
 * ${ENV_VAR:-default} substitution so every setting can be overridden from the environment.
 */
public final class ConfigSources {
  private ConfigSources() {}

  public static ConfigurationSourceProvider fileOrClasspathWithEnv() {
    ConfigurationSourceProvider fileOrResource = new ConfigurationSourceProvider() {
      private final FileConfigurationSourceProvider files = new FileConfigurationSourceProvider();
      private final ResourceConfigurationSourceProvider resources = new ResourceConfigurationSourceProvider();

      @Override
      public InputStream open(String path) throws IOException {
        return Files.exists(Path.of(path)) ? files.open(path) : resources.open(path);
      }
    };
    // strict=false: an unset variable without a default is left as written and fails validation loudly.
    return new SubstitutingSourceProvider(fileOrResource, new EnvironmentVariableSubstitutor(false));
  }
}
