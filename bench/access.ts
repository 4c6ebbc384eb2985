import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { memoryCache } from "../src/cache/memory.js";
import { issueConsumer } from "../src/commands/consumers/handlers.js";
import type { Sql } from "../src/db/database.js";
import { PostgresEventStore } from "../src/event-store/postgres.js";
import { createApp } from "../src/http/app.js";
import { createLogger } from "../src/http/logging.js";
import { apiRoutes } from "../src/http/routes.js";
import { importCricsheet } from "../src/ingest/cricsheet/import.js";
import { memoryWindowCounter } from "../src/limits/memory.js";
import { redisWindowCounter } from "../src/limits/redis.js";
import type { WindowCounter } from "../src/limits/window-counter.js";
import { projectors } from "../src/projections/registry.js";
import { ProjectionRunner } from "../src/projections/runner.js";
import { ReadModelWatch } from "../src/projections/watch.js";
import { serverSecret } from "../src/security/server-secret.js";
import { UsageRecorder } from "../src/usage/recorder.js";
import { compareLoads, listen } from "./http.js";
import { log, onEachDatabase, type Result } from "./support.js";

const MATCH = fileURLToPath(new URL("../samples/cricsheet/1298152.json", import.meta.url));
/** High enough that no run is refused: the cost of counting is measured, not of refusing. */
const UNLIMITED = 1_000_000_000;

/**
 * What keyed access costs on a cached read: a fixture's statistics document (served from
 * the versioned cache) with a consumer's key, against the same read anonymous on the same
 * app, which limits no anonymous read. The keyed read looks its key up (memoised by the
 * read-model watch, as the server runs), counts the consumer's minute and day windows and
 * records its usage (flushed every 5 s). Counted in process, and in Redis when REDIS_URL
 * is set, as a deployment of several instances counts.
 */
export const accessBenchmark = (): Promise<Result[]> => onEachDatabase(measureAccess);

async function measureAccess(sql: Sql, backend: string): Promise<Result[]> {
  log(`access: ${backend}: one match and a consumer`);
  const store = new PostgresEventStore(sql);
  await importCricsheet(store, [MATCH]);
  const runner = new ProjectionRunner(sql, store, projectors);
  await runner.catchUp();
  const watch = new ReadModelWatch(sql);
  watch.follow(runner);
  await watch.start();
  const { secret, apiKey } = await unlimitedConsumer(store, sql);
  await runner.catchUp();
  const [fixture] = await sql<{ fixture_id: string }[]>`select fixture_id from fixture limit 1`;
  const path = `/api/v1/fixtures/${fixture?.fixture_id}/statistics`;

  const logger = createLogger("silent");
  const counters: { name: string; counter: WindowCounter }[] = [
    { name: "in-process counter", counter: memoryWindowCounter() },
  ];
  const redisUrl = process.env.REDIS_URL;
  if (redisUrl)
    counters.push({
      name: "Redis counter",
      counter: redisWindowCounter(redisUrl, { prefix: `bench:${randomBytes(6).toString("hex")}` }),
    });
  else log("access: REDIS_URL is unset: the Redis row is skipped");

  const results: Result[] = [];
  const usage = new UsageRecorder(sql, logger);
  usage.start();
  try {
    for (const { name, counter } of counters) {
      const app = createApp(
        { logger, sql, cache: memoryCache(), watch, secret, rateLimits: counter, usage },
        apiRoutes,
      );
      const server = await listen(app.fetch, path);
      try {
        results.push(
          await compareLoads(
            "access",
            backend,
            {
              label: `GET /fixtures/{id}/statistics, cached, keyed (${name})`,
              url: server.url,
              headers: { "x-api-key": apiKey },
            },
            { label: "the same read anonymous, no limits", url: server.url },
          ),
        );
      } finally {
        await server.close();
        await counter.close();
      }
    }
    return results;
  } finally {
    await usage.close();
    watch.close();
  }
}

/** A consumer no run reaches the limits of, and the server secret its key was issued under. */
export async function unlimitedConsumer(store: PostgresEventStore, sql: Sql) {
  const secret = serverSecret(randomBytes(32));
  const { apiKey } = await issueConsumer(
    store,
    sql,
    secret,
    {
      ownerAccountId: "bench-admin",
      settings: { name: "Bench", rateLimitPerMinute: UNLIMITED, dailyQuota: UNLIMITED },
    },
    { now: new Date() },
  );
  return { secret, apiKey };
}
