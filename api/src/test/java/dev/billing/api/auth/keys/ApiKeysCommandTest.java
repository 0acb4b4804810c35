package dev.billing.api.auth.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.api.auth.BillingPrincipal;
import dev.billing.store.TableNames;
import dev.billing.store.testing.LocalDynamoDb;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.sourceforge.argparse4j.ArgumentParsers;
import net.sourceforge.argparse4j.inf.ArgumentParser;
import net.sourceforge.argparse4j.inf.Namespace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The operator command's arguments as Dropwizard parses them, against DynamoDB Local. */
class ApiKeysCommandTest {
  private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");
  private static LocalDynamoDb dynamo;
  private static ApiKeyStore store;
  private static ApiKeyService keys;

  @BeforeAll
  static void start() {
    dynamo = LocalDynamoDb.start();
    TableNames tables = dynamo.createTables();
    store = new ApiKeyStore(dynamo.client(), tables.billing());
    keys = new ApiKeyService(store, InstantSource.fixed(NOW));
  }

  @AfterAll
  static void stop() {
    dynamo.close();
  }

  private static String run(String... args) throws Exception {
    ArgumentParser parser = ArgumentParsers.newFor("billing-api").build();
    ApiKeysCommand command = new ApiKeysCommand();
    command.configure(parser.addSubparsers().addParser(command.getName()));
    Namespace namespace = parser.parseArgs(args);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ApiKeysCommand.execute(keys, namespace, new PrintStream(out, true, StandardCharsets.UTF_8));
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void createPrintsTheTokenOnceAndStoresOnlyItsHash() throws Exception {
    String output =
        run(
            "keys",
            "create",
            "--role",
            "account",
            "--account",
            "acc-7",
            "--label",
            "batch",
            "api.yml");

    Matcher token = Pattern.compile("(?m)^(bk_([0-9a-f]{16})_[0-9a-f]{64})$").matcher(output);
    assertThat(token.find()).as(output).isTrue();
    ApiKey stored = store.find(token.group(2)).orElseThrow();
    assertThat(stored.accountId()).isEqualTo("acc-7");
    assertThat(stored.label()).isEqualTo("batch");
    assertThat(stored.createdAt()).isEqualTo(NOW);
    assertThat(stored.createdBy()).startsWith("cli:");
    assertThat(stored.hash()).doesNotContain(token.group(1).substring(20));
    assertThat(new ApiKeyAuthenticator(store).authenticate(token.group(1)))
        .contains(BillingPrincipal.account("key:" + token.group(2), "acc-7"));

    String listed = run("keys", "list", "api.yml");
    assertThat(listed)
        .contains(token.group(2))
        .contains("acc-7")
        .contains("active")
        .doesNotContain(token.group(1).substring(20));
  }

  @Test
  void revokeStopsTheKey() throws Exception {
    ApiKeyService.Created created = keys.create("operator", null, null, "test");

    String output = run("keys", "revoke", "--key-id", created.key().keyId());

    assertThat(output).contains("revoked at 2026-03-10T12:00:00.000Z");
    assertThat(new ApiKeyAuthenticator(store).authenticate(created.token())).isEmpty();
    assertThat(run("keys", "list")).contains("REVOKED 2026-03-10T12:00:00.000Z");
  }

  @Test
  void wrongArgumentsAreNamed() {
    assertThatThrownBy(() -> run("keys", "create", "--role", "account"))
        .hasMessage("--account is required for an account key");
    assertThatThrownBy(() -> run("keys", "revoke")).hasMessage("revoke needs --key-id <key id>");
    assertThatThrownBy(() -> run("keys", "revoke", "--key-id", "0000000000000000"))
        .hasMessage("there is no API key 0000000000000000");
    assertThatThrownBy(() -> run("keys", "create", "--role", "admin"))
        .hasMessageContaining("invalid choice");
  }
}
