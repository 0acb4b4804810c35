package dev.billing.api.auth.keys;

import dev.billing.activities.views.Timestamps;
import dev.billing.api.ApiConfiguration;
import dev.billing.api.errors.ApiProblem;
import dev.billing.api.errors.FieldError;
import dev.billing.runtime.DynamoConnection;
import io.dropwizard.core.cli.ConfiguredCommand;
import io.dropwizard.core.setup.Bootstrap;
import java.io.PrintStream;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import net.sourceforge.argparse4j.inf.Namespace;
import net.sourceforge.argparse4j.inf.Subparser;

/**
 * The operator command, and the only way to the first operator key of an installation:
 *
 * <pre>
 * java -jar billing-api-all.jar keys create --role operator --label "billing ops" api.yml
 * java -jar billing-api-all.jar keys create --role account --account acc-1 api.yml
 * java -jar billing-api-all.jar keys list api.yml
 * java -jar billing-api-all.jar keys revoke --key-id 3f9a0c1b2d4e5f60 api.yml
 * </pre>
 *
 * It talks to DynamoDB with the configuration's table names and the caller's AWS credentials (the
 * key administration role of docs/security.md). A new key's token is printed once, on standard
 * output, and never logged.
 */
public final class ApiKeysCommand extends ConfiguredCommand<ApiConfiguration> {

  public ApiKeysCommand() {
    super("keys", "Create, list or revoke API keys");
  }

  @Override
  public void configure(Subparser subparser) {
    subparser
        .addArgument("action")
        .choices("create", "list", "revoke")
        .help("create a key (its token is printed once), list keys, or revoke one");
    super.configure(subparser);
    subparser.addArgument("--role").choices("operator", "account").help("create: the key's role");
    subparser
        .addArgument("--account")
        .dest("account")
        .help("create: the account of an account key");
    subparser.addArgument("--label").help("create: what the key is for");
    subparser.addArgument("--key-id").dest("keyId").help("revoke: the key id (not the token)");
  }

  @Override
  protected void run(
      Bootstrap<ApiConfiguration> bootstrap, Namespace namespace, ApiConfiguration config) {
    DynamoConnection dynamo = new DynamoConnection(config.dynamo);
    try {
      dynamo.start();
      ApiKeyService keys =
          new ApiKeyService(
              new ApiKeyStore(dynamo.client(), dynamo.tableNames().billing()),
              InstantSource.system());
      execute(keys, namespace, System.out);
    } finally {
      dynamo.stop();
    }
  }

  /** Runs one action; invalid arguments end in an exception that names them (exit status 1). */
  static void execute(ApiKeyService keys, Namespace namespace, PrintStream out) {
    String by =
        "cli:" + System.getProperty("user.name", "unknown").replaceAll("[^A-Za-z0-9._-]", "_");
    switch (namespace.getString("action")) {
      case "create" -> {
        ApiKeyService.Created created;
        try {
          created =
              keys.create(
                  namespace.getString("role"),
                  namespace.getString("account"),
                  namespace.getString("label"),
                  by);
        } catch (ApiProblem problem) {
          throw new IllegalArgumentException(describe(problem.errors()));
        }
        ApiKey key = created.key();
        out.println(
            "Created API key "
                + key.keyId()
                + " ("
                + key.role().wireName()
                + (key.accountId() == null ? "" : ", account " + key.accountId())
                + ").");
        out.println("Its token is shown this once; keep it in a secret store:");
        out.println(created.token());
      }
      case "list" -> {
        List<ApiKey> all = keys.list();
        out.println(all.size() + " API key(s)");
        for (ApiKey key : all) {
          out.println(
              String.join(
                  "  ",
                  key.keyId(),
                  key.role().wireName(),
                  key.accountId() == null ? "-" : key.accountId(),
                  "created " + Timestamps.instant(key.createdAt()) + " by " + key.createdBy(),
                  key.revoked()
                      ? "REVOKED " + Timestamps.instant(key.revokedAt()) + " by " + key.revokedBy()
                      : "active",
                  key.label() == null ? "" : "\"" + key.label() + "\""));
        }
      }
      case "revoke" -> {
        String keyId = namespace.getString("keyId");
        if (keyId == null) {
          throw new IllegalArgumentException("revoke needs --key-id <key id>");
        }
        Optional<ApiKey> revoked = keys.revoke(keyId, by);
        if (revoked.isEmpty()) {
          throw new IllegalArgumentException("there is no API key " + keyId);
        }
        out.println(
            "API key "
                + keyId
                + " revoked at "
                + Timestamps.instant(revoked.get().revokedAt())
                + " by "
                + revoked.get().revokedBy()
                + "; API instances stop accepting it within their"
                + " key cache's expiry (auth.keyCache).");
      }
      default ->
          throw new IllegalArgumentException("unknown action " + namespace.getString("action"));
    }
  }

  private static String describe(List<FieldError> errors) {
    return String.join(
        "; ",
        errors.stream()
            .map(
                e ->
                    e.message()
                        .replace("accountId", "--account")
                        .replace("role ", "--role ")
                        .replace("label ", "--label "))
            .toList());
  }
}
