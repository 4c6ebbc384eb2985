import { openVersionedCache } from "./cache/open.js";
import { InvalidSettings, loadSettings } from "./config.js";
import { DatabaseWatch } from "./db/availability.js";
import { createApp } from "./http/app.js";
import { apiRoutes } from "./http/routes.js";
import { createHttpServer } from "./http/server.js";
import { openIdentity } from "./identity/open.js";
import { loadSamplesIfEmpty } from "./ingest/samples.js";
import { openWindowCounter } from "./limits/open.js";
import { ReadModelWatch } from "./projections/watch.js";
import { openRuntime } from "./runtime.js";
import { openServerSecret } from "./security/server-secret.js";
import { scheduleUsageCleanup } from "./usage/cleanup.js";
import { UsageRecorder } from "./usage/recorder.js";
import { openWeather } from "./weather/open.js";

const SAMPLE_PROJECTION_MS = 60_000;

/** `npm start`: the API (and, unless PROJECTORS=off, the projectors) on the configured database. */
async function main() {
  const settings = loadSettings();
  const runtime = await openRuntime(settings);
  const { logger } = runtime;
  const sample = runtime.db.kind === "embedded" ? await loadSamplesIfEmpty(runtime.store) : undefined;
  if (sample)
    logger.info(
      { fixtures: sample.imported, failed: sample.failed },
      "first start: loaded the Cricsheet sample matches",
    );
  if (settings.runProjectors) runtime.startWorkers();
  if (sample && settings.runProjectors) {
    // A newcomer's first request should find the sample, not read models still catching up.
    const names = runtime.projections.projectors.map((p) => p.name);
    if (!(await runtime.projections.waitFor(names, await runtime.store.head(), SAMPLE_PROJECTION_MS)))
      logger.warn("the read models are still projecting the sample; listening anyway");
  }
  const cache = openVersionedCache(settings.redisUrl);
  const database = new DatabaseWatch(runtime.db.sql);
  database.start();
  const watch = new ReadModelWatch(runtime.db.sql);
  watch.follow(runtime.projections);
  await watch.start();
  const identity = await openIdentity(settings);
  const rateLimits = openWindowCounter(settings.redisUrl);
  const secret = await openServerSecret(settings);
  const usage = new UsageRecorder(runtime.db.sql, logger);
  usage.start();
  const stopUsageCleanup = scheduleUsageCleanup(runtime.db.sql, logger);
  const app = createApp(
    {
      logger,
      sql: runtime.db.sql,
      reads: runtime.db.reads,
      database,
      cache,
      watch,
      identity,
      store: runtime.store,
      projections: runtime.projections,
      rateLimits,
      secret,
      anonymousLimits: settings.anonymousLimits,
      trustedProxyHops: settings.trustedProxyHops,
      corsOrigins: settings.corsOrigins,
      limits: { batchesPerMinute: settings.batchesPerMinute, questions: settings.questionLimits },
      usage,
      weather: openWeather(settings, cache, logger),
    },
    apiRoutes,
  );
  const server = createHttpServer(app, logger);
  server.listen(settings.port, "0.0.0.0", () =>
    logger.info(
      {
        port: settings.port,
        database: runtime.db.kind,
        eventStore: runtime.store.adapter,
        projectors: settings.runProjectors,
      },
      `Cricket Analytics Service listening on http://localhost:${settings.port} (API reference at /docs)`,
    ),
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    await new Promise<void>((resolve) => server.close(() => resolve()));
    watch.close();
    database.stop();
    stopUsageCleanup();
    await usage.close(); // the last requests' telemetry, before the database closes
    await cache.close();
    await rateLimits.close();
    await runtime.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((error: unknown) => {
  if (error instanceof InvalidSettings) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
