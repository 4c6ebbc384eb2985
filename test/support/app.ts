import { Writable } from "node:stream";
import { type AppDependencies, createApp, type RouteRegistration } from "../../src/http/app.js";
import { createLogger } from "../../src/http/logging.js";
import { apiRoutes } from "../../src/http/routes.js";

/** The real app with a logger whose output the test can read (`logs`), and the test's database when it reads data. */
export function testApp(routes: readonly RouteRegistration[] = apiRoutes, deps: Omit<AppDependencies, "logger"> = {}) {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...chunk.toString().trim().split("\n"));
      done();
    },
  });
  const logger = createLogger("info", sink);
  const app = createApp({ logger, ...deps }, routes);
  return {
    app,
    logger,
    logs: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
    rawLogs: () => lines.join("\n"),
  };
}
