import { Command, CommanderError } from "commander";
import { InvalidSettings, loadSettings } from "../config.js";
import { createApp } from "../http/app.js";
import { createLogger } from "../http/logging.js";
import { openApiDocument, toYaml } from "../http/openapi.js";
import { apiRoutes } from "../http/routes.js";
import { openRuntime, type Runtime } from "../runtime.js";
import { adminCommands } from "./admin.js";
import { importCommands } from "./import.js";
import { projectionCommands } from "./projections.js";
import { tokenCommands } from "./token.js";

/**
 * `cricket`: the operator's tool. It works on the same data as the server: on the embedded
 * default it connects to a running server's database, or opens the data directory itself.
 */
const program = new Command("cricket")
  .description("Cricket Analytics Service command-line tool")
  .showHelpAfterError()
  .exitOverride();

/** The runtime a command is using, so a failure can be explained by the database having gone. */
let current: Runtime | undefined;

async function withRuntime<T>(work: (runtime: Runtime) => Promise<T>): Promise<T> {
  const settings = loadSettings();
  const runtime = await openRuntime(settings, createLogger(settings.logLevel === "info" ? "warn" : settings.logLevel));
  current = runtime;
  try {
    // A command on a running server's database must not outlive that server by minutes.
    return await Promise.race([work(runtime), runtime.db.lost]);
  } finally {
    // Queries to a server that has gone would wait on its closed port: leave them to the exit.
    await Promise.race([runtime.close(), runtime.db.lost.catch(() => {})]);
  }
}

projectionCommands(program, withRuntime);
importCommands(program, withRuntime);
adminCommands(program, withRuntime);
tokenCommands(program);

program
  .command("openapi")
  .description("print the OpenAPI 3.1 document (YAML) the server publishes at /openapi.yaml")
  .action(() => {
    const app = createApp({ logger: createLogger("silent") }, apiRoutes);
    process.stdout.write(toYaml(openApiDocument(app)));
  });

/** Says what failed, and stops: a connection reset is explained by the server it came from having ended. */
function fail(error: unknown): never {
  const cause = current?.db.gone() ?? error;
  process.stderr.write(
    `${cause instanceof InvalidSettings || cause instanceof Error ? cause.message : String(cause)}\n`,
  );
  process.exit(1);
}

// A query whose connection the dying server reset may reject where nothing awaits it.
process.on("unhandledRejection", fail);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  fail(error);
}
