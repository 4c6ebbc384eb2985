import { fileURLToPath } from "node:url";
import { memoryCache } from "../src/cache/memory.js";
import type { Sql } from "../src/db/database.js";
import { PostgresEventStore } from "../src/event-store/postgres.js";
import { createApp } from "../src/http/app.js";
import { createLogger } from "../src/http/logging.js";
import { apiRoutes } from "../src/http/routes.js";
import { importCricsheet } from "../src/ingest/cricsheet/import.js";
import { projectors } from "../src/projections/registry.js";
import { ProjectionRunner } from "../src/projections/runner.js";
import { ReadModelWatch } from "../src/projections/watch.js";
import type { ScratchDatabase } from "../test/support/scratch-databases.js";
import { againstHealth, listen } from "./http.js";
import { log, measurement, onEachDatabase, pairedRatio, type Result, seconds } from "./support.js";

const cricsheet = (relative: string) =>
  fileURLToPath(new URL(`../../shared/data/cricsheet/${relative}`, import.meta.url));
const SEASON = Array.from({ length: 60 }, (_, i) => cricsheet(`ipl/${980901 + 2 * i}.json`));
const REBUILDS = Number(process.env.BENCH_REBUILDS ?? 2);

/**
 * Statistics reads under load against the health route of the same app, on IPL 2016: a
 * fixture's statistics and a season leaderboard, each with the versioned cache (cached) and
 * with a cache that keeps nothing (cold). The app memoises read-model values with a watch on
 * the runner, as the server does.
 */
export const statisticsReadsBenchmark = (): Promise<Result[]> => onEachDatabase(measureReads);

async function measureReads(sql: Sql, backend: string, { reads }: ScratchDatabase): Promise<Result[]> {
  log(`statistics reads: ${backend}: importing IPL 2016`);
  const store = new PostgresEventStore(sql);
  await importCricsheet(store, SEASON);
  const runner = new ProjectionRunner(sql, store, projectors);
  await runner.catchUp();
  // As main.ts serves: read-model values memoised until the runner commits again.
  const watch = new ReadModelWatch(sql);
  watch.follow(runner);
  await watch.start();
  const [fixture] = await sql<{ fixture_id: string; season_id: string }[]>`
    select fixture_id, season_id from fixture order by start_date limit 1`;
  const logger = createLogger("silent");
  const cached = await listen(createApp({ logger, sql, reads, cache: memoryCache(), watch }, apiRoutes).fetch, "");
  const cold = await listen(
    createApp({ logger, sql, reads, cache: memoryCache({ maxEntries: 0 }), watch }, apiRoutes).fetch,
    "",
  );
  const statisticsPath = `/api/v1/fixtures/${fixture?.fixture_id}/statistics`;
  const leaderboardPath = `/api/v1/statistics/leaderboards?scope=season&seasonId=${fixture?.season_id}&metric=most_runs`;
  const cases = [
    { label: "GET /fixtures/{id}/statistics, cached", url: `${cached.url}${statisticsPath}`, health: cached.url },
    {
      label: "GET /fixtures/{id}/statistics, cold (cache keeps nothing)",
      url: `${cold.url}${statisticsPath}`,
      health: cold.url,
    },
    {
      label: "GET /statistics/leaderboards most_runs season, cached",
      url: `${cached.url}${leaderboardPath}`,
      health: cached.url,
    },
    {
      label: "GET /statistics/leaderboards most_runs season, cold",
      url: `${cold.url}${leaderboardPath}`,
      health: cold.url,
    },
  ];
  try {
    const results: Result[] = [];
    for (const c of cases) results.push(await againstHealth("statistics-reads", backend, c.label, c.url, c.health));
    return results;
  } finally {
    await cached.close();
    await cold.close();
    watch.close();
  }
}

/** Rebuilding every statistic of the full IPL from the log, against importing it. */
export const statisticsRebuildBenchmark = (): Promise<Result[]> => onEachDatabase(measureRebuild);

async function measureRebuild(sql: Sql, backend: string): Promise<Result> {
  const store = new PostgresEventStore(sql);
  let deliveries = 0;
  const imported = await seconds(async () => {
    deliveries = (await importCricsheet(store, [cricsheet("ipl")])).deliveriesWritten;
  });
  log(`statistics rebuild: ${backend}: imported ${deliveries} deliveries in ${imported.toFixed(1)} s`);
  const runner = new ProjectionRunner(sql, store, projectors);
  const rebuilds: number[] = [];
  for (let i = 0; i < REBUILDS; i++) {
    const elapsed = await seconds(() => runner.rebuild("statistics"));
    log(`statistics rebuild: ${backend}: ${elapsed.toFixed(1)} s`);
    rebuilds.push(deliveries / elapsed);
  }
  const importRate = deliveries / imported;
  return {
    benchmark: "statistics-rebuild",
    backend,
    subject: measurement("cricket projections rebuild statistics, full IPL", "deliveries/s", rebuilds),
    baseline: measurement("importCricsheet of the same log (one run)", "deliveries/s", [importRate]),
    ratio: pairedRatio(
      rebuilds,
      rebuilds.map(() => importRate),
    ),
  };
}
