package dev.billing.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.billing.activities.notifications.SmtpSettings;
import dev.billing.activities.payments.stripe.StripeSettings;
import dev.billing.api.ApiConfiguration;
import dev.billing.runtime.BillingConfiguration;
import dev.billing.worker.WorkerApplication;
import dev.billing.worker.WorkerConfiguration;
import dev.billing.worker.reconciliation.ReconciliationSettings;
import io.dropwizard.configuration.ResourceConfigurationSourceProvider;
import io.dropwizard.configuration.SubstitutingSourceProvider;
import io.dropwizard.configuration.YamlConfigurationFactory;
import io.dropwizard.core.cli.Command;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.jersey.validation.Validators;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.text.StringSubstitutor;
import org.junit.jupiter.api.Test;

/**
 * No Docker engine runs here, so docker-compose.yml is checked by reading it: every service the
 * system needs, pinned images, the ports the processes listen on, and every environment variable
 * against the ones the bundled worker.yml and api.yml (and the code) read. The processes'
 * configuration is then built from those files with the compose environment, exactly as the
 * containers will, and must point at the compose services.
 */
class DockerComposeTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Z0-9_]+)(?::-[^}]*)?}");

  /** Read by the code itself, not through the YAML files. */
  private static final Set<String> WORKER_CODE_VARIABLES =
      Set.of(StripeSettings.API_KEY_ENV, StripeSettings.API_BASE_ENV, SmtpSettings.PASSWORD_ENV);

  /** Read by the API's code itself: disputed Charges are read with the Stripe key. */
  private static final Set<String> API_CODE_VARIABLES =
      Set.of(StripeSettings.API_KEY_ENV, StripeSettings.API_BASE_ENV);

  private static JsonNode compose() throws IOException {
    return new YAMLMapper().readTree(ROOT.resolve("docker-compose.yml").toFile());
  }

  private static JsonNode service(String name) throws IOException {
    JsonNode service = compose().path("services").path(name);
    assertThat(service.isMissingNode()).as("service %s", name).isFalse();
    return service;
  }

  /** Images Temporal no longer builds or patches, and their successors. */
  private static final Map<String, String> DEPRECATED_IMAGES =
      Map.of(
          "temporalio/auto-setup", "temporalio/server with a temporalio/admin-tools schema step",
          "temporalio/web", "temporalio/ui",
          "temporalio/tctl", "temporalio/admin-tools (temporal CLI)");

  @Test
  void everyPieceOfTheSystemIsAServiceWithAPinnedImage() throws IOException {
    JsonNode services = compose().path("services");
    List<String> names = new ArrayList<>();
    services.fieldNames().forEachRemaining(names::add);
    assertThat(names)
        .containsExactlyInAnyOrder(
            "temporal-db",
            "temporal-schema",
            "temporal",
            "temporal-namespace",
            "temporal-ui",
            "dynamodb",
            "mail",
            "setup",
            "worker",
            "api");
    for (String name : names) {
      String image = image(name);
      assertThat(image)
          .as("image of %s: pinned to a version", name)
          .matches("[a-z0-9./-]+:v?[0-9][0-9A-Za-z.+_-]*");
      DEPRECATED_IMAGES.forEach(
          (deprecated, successor) ->
              assertThat(image.split(":")[0])
                  .as("%s uses %s, which Temporal deprecated: use %s", name, deprecated, successor)
                  .isNotEqualTo(deprecated));
    }
    assertThat(image("temporal")).startsWith("temporalio/server:");
    assertThat(image("temporal-schema")).startsWith("temporalio/admin-tools:");
    assertThat(image("temporal-namespace")).isEqualTo(image("temporal-schema"));
    assertThat(tag(image("temporal-schema")))
        .as("admin-tools of the server's release (its schema)")
        .isEqualTo(tag(image("temporal")));
    assertThat(image("temporal-ui")).startsWith("temporalio/ui:");
    assertThat(image("dynamodb")).startsWith("amazon/dynamodb-local:");
    assertThat(image("temporal-db")).startsWith("postgres:");
    // The same image as Maven's DynamoDB Local, so dev, tests and compose run one version.
    assertThat(image("dynamodb")).endsWith(":" + pomProperty("dynamodb.local.version"));
    for (String built : List.of("setup", "worker", "api")) {
      assertThat(services.path(built).path("build").asText())
          .as("build of %s", built)
          .isEqualTo(".");
    }
  }

  @Test
  void theImageBuiltFromTheRepositoryHoldsTheJarsTheServicesRun() throws IOException {
    String dockerfile = Files.readString(ROOT.resolve("Dockerfile"));
    String version = projectVersion();
    assertThat(dockerfile)
        .contains("/src/worker/target/billing-worker-" + version + "-all.jar billing-worker.jar")
        .contains("/src/api/target/billing-api-" + version + "-all.jar billing-api.jar")
        .contains("-pl worker,api -am package")
        .containsPattern("FROM eclipse-temurin:17[0-9._]+-jdk")
        .containsPattern("FROM eclipse-temurin:17[0-9._]+-jre");
    assertThat(command("worker"))
        .containsExactly("-jar", "billing-worker.jar", "server", "worker.yml");
    assertThat(command("api")).containsExactly("-jar", "billing-api.jar", "server", "api.yml");
    assertThat(command("setup"))
        .containsExactly("-jar", "billing-worker.jar", "setup", "worker.yml");
    Bootstrap<WorkerConfiguration> bootstrap = new Bootstrap<>(new WorkerApplication());
    new WorkerApplication().initialize(bootstrap);
    assertThat(bootstrap.getCommands()).extracting(Command::getName).contains("setup");
  }

  @Test
  void theImageBuildSeesEveryModuleOfTheReactor() throws IOException {
    // Maven refuses a reactor with a missing module, even one the image does not build.
    String dockerfile = Files.readString(ROOT.resolve("Dockerfile"));
    Matcher module =
        Pattern.compile("<module>([^<]+)</module>")
            .matcher(Files.readString(ROOT.resolve("pom.xml")));
    List<String> modules = new ArrayList<>();
    while (module.find()) {
      modules.add(module.group(1));
    }
    assertThat(modules).contains("domain", "workflows", "worker", "api", "bench");
    for (String name : modules) {
      assertThat(dockerfile)
          .as("the Dockerfile copies module %s", name)
          .containsPattern(
              "(?m)^COPY " + Pattern.quote(name) + "/(pom\\.xml)? " + Pattern.quote(name) + "/$");
    }
  }

  @Test
  void everyVariableAServiceSetsIsOneItsProcessReads() throws IOException {
    Set<String> worker = variablesOf("worker.yml");
    worker.addAll(WORKER_CODE_VARIABLES);
    Set<String> api = variablesOf("api.yml");
    api.addAll(API_CODE_VARIABLES);
    assertThat(worker).contains("TEMPORAL_TARGET", "DYNAMODB_ENDPOINT", "RECONCILIATION_CRON");
    assertThat(api).contains("TEMPORAL_TARGET", "DYNAMODB_ENDPOINT", "BILLING_PAGE_TOKEN_SECRET");

    assertThat(environment("worker").keySet())
        .isSubsetOf(worker)
        .contains(
            "TEMPORAL_TARGET",
            "DYNAMODB_ENDPOINT",
            "AWS_REGION",
            "PAYMENT_GATEWAY",
            "BILLING_SMTP_HOST",
            "BILLING_SMTP_PORT",
            "BILLING_PAGE_TOKEN_SECRET");
    assertThat(environment("setup").keySet())
        .isSubsetOf(worker)
        .contains("TEMPORAL_TARGET", "DYNAMODB_ENDPOINT");
    assertThat(environment("api").keySet())
        .isSubsetOf(api)
        .contains(
            "TEMPORAL_TARGET",
            "DYNAMODB_ENDPOINT",
            "BILLING_PORT",
            "BILLING_ADMIN_PORT",
            "BILLING_PAGE_TOKEN_SECRET",
            "SANDBOX_WEBHOOK_SECRET",
            "STRIPE_API_KEY");
  }

  @Test
  void theProcessesConfiguredFromComposeReachTheComposeServices() throws Exception {
    WorkerConfiguration worker =
        configuration(WorkerConfiguration.class, "worker.yml", environment("worker"));
    ApiConfiguration api = configuration(ApiConfiguration.class, "api.yml", environment("api"));
    WorkerConfiguration setup =
        configuration(WorkerConfiguration.class, "worker.yml", environment("setup"));

    for (BillingConfiguration config : List.of(worker, api, setup)) {
      assertReaches(config.temporal.target(), "temporal", 7233);
      URI dynamo = URI.create(config.dynamo.endpoint());
      assertReaches(dynamo.getHost() + ":" + dynamo.getPort(), "dynamodb", 8000);
      assertThat(config.temporal.namespace()).isEqualTo("default");
      assertThat(config.dynamo.createTables()).as("tables come from the setup service").isFalse();
    }
    assertThat(worker.temporal.taskQueue())
        .isEqualTo(api.temporal.taskQueue())
        .isEqualTo("billing");
    assertThat(worker.gateway).isEqualTo("sandbox");
    // Customer email goes to the Mailpit service's SMTP port.
    assertReaches(worker.mail.host() + ":" + worker.mail.port(), "mail", 1025);
    assertThat(published("mail")).contains(1025, 8025);
    assertThat(worker.reconciliation)
        .isEqualTo(
            new ReconciliationSettings(
                true, "0 3 * * *", 3, ReconciliationSettings.DEFAULT_SCHEDULE_ID));
    assertThat(api.pageTokenSecret).hasSizeGreaterThanOrEqualTo(32);
    assertThat(api.webhooks.sandboxSecret()).isNotBlank();
    // The UI talks to the same frontend.
    assertReaches(
        service("temporal-ui").path("environment").path("TEMPORAL_ADDRESS").asText(),
        "temporal",
        7233);

    // Every port a process listens on is published, and nothing else of theirs.
    assertThat(published("api"))
        .containsExactlyInAnyOrder(
            httpPort(api, "applicationConnectors"), httpPort(api, "adminConnectors"));
    assertThat(published("worker")).containsExactly(workerAdminPort(worker));
    assertThat(published("temporal")).containsExactly(7233);
    assertThat(published("dynamodb")).containsExactly(8000);
    assertThat(published("temporal-ui")).containsExactly(8080);
    assertThat(service("temporal").path("environment").path("POSTGRES_SEEDS").asText())
        .isEqualTo("temporal-db");
  }

  @Test
  void theSchemaIsSetUpBeforeTheServerStartsAndTheNamespaceBeforeTheSetup() throws IOException {
    assertThat(condition("temporal-schema", "temporal-db")).isEqualTo("service_healthy");
    assertThat(service("temporal-db").path("healthcheck").path("test").toString())
        .contains("pg_isready");
    assertThat(condition("temporal", "temporal-schema"))
        .isEqualTo("service_completed_successfully");
    // Both stores (the history store and visibility), each created, set up and brought up to date.
    String schema = String.join(" ", command("temporal-schema"));
    assertThat(schema)
        .contains(
            "for db in temporal temporal_visibility",
            "dir=visibility",
            "--plugin postgres12",
            "--ep temporal-db",
            "create;",
            "setup-schema -v 0.0;",
            "update-schema -d \"/etc/temporal/schema/postgresql/v12/$$dir/versioned\"");
    assertThat(service("temporal").path("environment").path("DB").asText()).isEqualTo("postgres12");
    assertThat(service("temporal").path("healthcheck").isMissingNode()).isFalse();
    assertThat(condition("temporal-namespace", "temporal")).isEqualTo("service_healthy");
    assertThat(String.join(" ", command("temporal-namespace")))
        .contains("namespace describe -n default", "namespace create -n default");
    assertReaches(
        service("temporal-namespace").path("environment").path("TEMPORAL_ADDRESS").asText(),
        "temporal",
        7233);
    for (String oneShot : List.of("temporal-schema", "temporal-namespace", "setup")) {
      assertThat(service(oneShot).path("restart").asText())
          .as("%s runs once", oneShot)
          .isEqualTo("no");
    }
  }

  @Test
  void theSetupRunsOnceBeforeTheWorkerAndTheApiStart() throws IOException {
    assertThat(condition("worker", "mail")).isEqualTo("service_started");
    for (String process : List.of("worker", "api")) {
      assertThat(condition(process, "setup"))
          .as("%s waits for the setup", process)
          .isEqualTo("service_completed_successfully");
    }
    List<String> setupNeeds = new ArrayList<>();
    service("setup").path("depends_on").fieldNames().forEachRemaining(setupNeeds::add);
    assertThat(setupNeeds).containsExactlyInAnyOrder("temporal-namespace", "dynamodb");
    assertThat(condition("setup", "temporal-namespace"))
        .isEqualTo("service_completed_successfully");
    assertThat(command("dynamodb")).contains("-sharedDb", "-disableTelemetry");
  }

  private static String condition(String service, String dependency) throws IOException {
    JsonNode needed = service(service).path("depends_on").path(dependency);
    assertThat(needed.isMissingNode()).as("%s depends on %s", service, dependency).isFalse();
    return needed.path("condition").asText();
  }

  private static String image(String service) throws IOException {
    return service(service).path("image").asText();
  }

  private static String tag(String image) {
    return image.substring(image.lastIndexOf(':') + 1);
  }

  private static void assertReaches(String target, String service, int port) throws IOException {
    assertThat(target).isEqualTo(service + ":" + port);
    assertThat(compose().path("services").has(service)).isTrue();
  }

  private static List<String> command(String service) throws IOException {
    List<String> command = new ArrayList<>();
    service(service).path("command").forEach(n -> command.add(n.asText()));
    return command;
  }

  /**
   * The service's environment as the container gets it: compose's own ${VAR:-default} with no shell
   * variables set.
   */
  private static Map<String, String> environment(String service) throws IOException {
    Map<String, String> environment = new HashMap<>();
    StringSubstitutor compose = new StringSubstitutor(Map.of());
    service(service)
        .path("environment")
        .fields()
        .forEachRemaining(e -> environment.put(e.getKey(), compose.replace(e.getValue().asText())));
    return environment;
  }

  /** The container-side ports a service publishes ("host:container"). */
  private static List<Integer> published(String service) throws IOException {
    List<Integer> ports = new ArrayList<>();
    service(service)
        .path("ports")
        .forEach(
            p -> {
              String[] parts = p.asText().split(":");
              assertThat(parts)
                  .as("%s publishes the same port on the host", service)
                  .hasSize(2)
                  .satisfies(
                      x ->
                          assertThat(x[0])
                              .isEqualTo(service.equals("temporal-ui") ? "8233" : x[1]));
              ports.add(Integer.parseInt(parts[1]));
            });
    return ports;
  }

  private static Set<String> variablesOf(String resource) throws IOException {
    Set<String> names = new TreeSet<>();
    Matcher matcher = VARIABLE.matcher(resourceText(resource));
    while (matcher.find()) {
      names.add(matcher.group(1));
    }
    return new LinkedHashSet<>(names);
  }

  private static String resourceText(String resource) throws IOException {
    try (InputStream in = DockerComposeTest.class.getClassLoader().getResourceAsStream(resource)) {
      assertThat(in).as(resource).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static <T> T configuration(
      Class<T> type, String resource, Map<String, String> environment) throws Exception {
    return new YamlConfigurationFactory<>(
            type, Validators.newValidator(), Jackson.newObjectMapper(), "dw")
        .build(
            new SubstitutingSourceProvider(
                new ResourceConfigurationSourceProvider(), new StringSubstitutor(environment)),
            resource);
  }

  private static int httpPort(ApiConfiguration api, String connectors) throws IOException {
    JsonNode server =
        new YAMLMapper()
            .readTree(new StringSubstitutor(environment("api")).replace(resourceText("api.yml")))
            .path("server")
            .path(connectors);
    return server.get(0).path("port").asInt();
  }

  private static int workerAdminPort(WorkerConfiguration worker) throws IOException {
    return new YAMLMapper()
        .readTree(new StringSubstitutor(environment("worker")).replace(resourceText("worker.yml")))
        .path("server")
        .path("connector")
        .path("port")
        .asInt();
  }

  private static String projectVersion() throws IOException {
    Matcher matcher =
        Pattern.compile("<artifactId>billing-parent</artifactId>\\s*<version>([^<]+)</version>")
            .matcher(Files.readString(ROOT.resolve("pom.xml")));
    assertThat(matcher.find()).isTrue();
    return matcher.group(1);
  }

  private static String pomProperty(String name) throws IOException {
    Matcher matcher =
        Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</")
            .matcher(Files.readString(ROOT.resolve("pom.xml")));
    assertThat(matcher.find()).as("pom property %s", name).isTrue();
    return matcher.group(1);
  }
}
