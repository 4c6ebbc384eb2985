import { fileURLToPath } from "node:url";
import { memoryCache } from "../src/cache/memory.js";
import type { Sql } from "../src/db/database.js";
import { PostgresEventStore } from "../src/event-store/postgres.js";
import { createApp } from "../src/http/app.js";
import { createLogger } from "../src/http/logging.js";
import { apiRoutes } from "../src/http/routes.js";
import { cricsheetIds } from "../src/ingest/cricsheet/ids.js";
import { importCricsheet } from "../src/ingest/cricsheet/import.js";
import { projectors } from "../src/projections/registry.js";
import { ProjectionRunner } from "../src/projections/runner.js";
import { ReadModelWatch } from "../src/projections/watch.js";
import type { ScratchDatabase } from "../test/support/scratch-databases.js";
import { type Load, listen, load, withLatency } from "./http.js";
import { log, measurement, onEachDatabase, pairedRatio, type Result, seconds } from "./support.js";

/** The full IPL, or `BENCH_READS_DATA` (a directory of Cricsheet files holding IPL 2016) to try the benchmark out. */
const IPL = process.env.BENCH_READS_DATA ?? fileURLToPath(new URL("../../shared/data/cricsheet/ipl", import.meta.url));
const RUNS = Number(process.env.BENCH_READS_RUNS ?? 3);
const DURATION_S = Number(process.env.BENCH_READS_SECONDS ?? 3);
/** Only the reads whose label matches, e.g. `BENCH_READS_ONLY=events` while working on one. */
const ONLY = new RegExp(process.env.BENCH_READS_ONLY ?? "");

/**
 * Every public GET on the full IPL (1,243 matches) under load, warm (as the server runs: the
 * versioned cache and the read-model watch) and cold (a cache that keeps nothing and no
 * watch: every request reads the database), each as a share of /health measured in the same
 * cycle. A cycle loads /health once, then every read warm and cold; `RUNS` cycles.
 */
export const readsBenchmark = (): Promise<Result[]> => onEachDatabase(measurePublicReads);

async function measurePublicReads(sql: Sql, backend: string, { reads }: ScratchDatabase): Promise<Result[]> {
  const store = new PostgresEventStore(sql);
  log(`reads: ${backend}: importing the full IPL`);
  const imported = await seconds(() => importCricsheet(store, [IPL]));
  const runner = new ProjectionRunner(sql, store, projectors);
  const projected = await seconds(() => runner.catchUp(undefined, { timeoutMs: 30 * 60_000 }));
  log(`reads: ${backend}: imported in ${imported.toFixed(0)} s, read models in ${projected.toFixed(0)} s`);
  const watch = new ReadModelWatch(sql);
  watch.follow(runner);
  await watch.start();
  const logger = createLogger("silent");
  const warm = await listen(createApp({ logger, sql, reads, cache: memoryCache(), watch }, apiRoutes).fetch, "");
  const cold = await listen(
    createApp({ logger, sql, reads, cache: memoryCache({ maxEntries: 0 }) }, apiRoutes).fetch,
    "",
  );
  try {
    const paths = (await publicReads(warm.url)).filter((read) => ONLY.test(read.label));
    const health = `${warm.url}/api/v1/health`;
    const modes = [
      { mode: "warm", server: warm.url },
      { mode: "cold", server: cold.url },
    ];
    for (const { server } of modes) for (const read of paths) await load(`${server}${read.path}`, 1);
    const healthRuns: Load[] = [];
    const runs = new Map<string, Load[]>();
    for (let cycle = 0; cycle < RUNS; cycle++) {
      log(`reads: ${backend}: cycle ${cycle + 1} of ${RUNS}, ${paths.length * 2} reads`);
      healthRuns.push(await load(health, DURATION_S));
      for (const { mode, server } of modes)
        for (const read of paths) {
          const label = `${read.label}, ${mode}`;
          runs.set(label, [...(runs.get(label) ?? []), await load(`${server}${read.path}`, DURATION_S)]);
        }
    }
    const rate = (loads: readonly Load[]) => loads.map((r) => r.requestsPerSecond);
    const baseline = withLatency(measurement("GET /api/v1/health, same cycle", "req/s", rate(healthRuns)), healthRuns);
    return [...runs].map(([label, loads]) => ({
      benchmark: "reads",
      backend,
      subject: withLatency(measurement(label, "req/s", rate(loads)), loads),
      baseline,
      ratio: pairedRatio(rate(loads), rate(healthRuns)),
    }));
  } finally {
    watch.close();
    await warm.close();
    await cold.close();
  }
}

type Read = { label: string; path: string };

/**
 * Each public GET with real ids: a 2016 fixture, its first event and a statistic, the
 * season's leading run scorer (V Kohli), a team; each read once, so a wrong id fails here.
 */
export async function publicReads(server: string): Promise<Read[]> {
  const read = async (path: string): Promise<string> => {
    const response = await fetch(`${server}${path}`);
    const text = await response.text();
    if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
    return text;
  };
  const get = async <T>(path: string): Promise<T> => JSON.parse(await read(path)) as T;
  const ipl = cricsheetIds.competition("male", "Indian Premier League");
  const season = cricsheetIds.season(ipl, "2016");
  const fixtures = await get<{ data: { fixtureId: string }[] }>(`/api/v1/fixtures?seasonId=${season}&limit=1`);
  const fixture = fixtures.data[0]?.fixtureId as string;
  const events = await get<{ data: { eventId: string }[] }>(`/api/v1/fixtures/${fixture}/events?limit=1`);
  const statistics = JSON.stringify(await get(`/api/v1/fixtures/${fixture}/statistics`));
  const statistic = /"statisticId":"(innings-\d+-batter-[^"]+)"/.exec(statistics)?.[1] as string;
  const leaders = await get<{ data: { participantId: string }[] }>(
    `/api/v1/statistics/leaderboards?scope=season&seasonId=${season}&metric=most_runs&limit=1`,
  );
  const kohli = leaders.data[0]?.participantId as string;
  const teams = await get<{ data: { competitorId: string }[] }>("/api/v1/competitors?limit=1");
  const team = teams.data[0]?.competitorId as string;
  const f = `/api/v1/fixtures/${fixture}`;
  const reads = [
    { label: "GET /competitions", path: "/api/v1/competitions" },
    { label: "GET /competitions/{id}", path: `/api/v1/competitions/${ipl}` },
    { label: "GET /seasons", path: "/api/v1/seasons" },
    { label: "GET /seasons/{id}", path: `/api/v1/seasons/${season}` },
    { label: "GET /competitors", path: "/api/v1/competitors" },
    { label: "GET /competitors/{id}", path: `/api/v1/competitors/${team}` },
    { label: "GET /participants?name=kohli", path: "/api/v1/participants?name=kohli" },
    { label: "GET /participants/{id}", path: `/api/v1/participants/${kohli}` },
    { label: "GET /participants/{id}/fixtures", path: `/api/v1/participants/${kohli}/fixtures` },
    { label: "GET /participants/{id}/statistics", path: `/api/v1/participants/${kohli}/statistics` },
    {
      label: "GET /participants/{id}/statistics/{statisticId}",
      path: `/api/v1/participants/${kohli}/statistics/season-${season}`,
    },
    { label: "GET /fixtures?limit=20", path: "/api/v1/fixtures?limit=20" },
    { label: "GET /fixtures/{id}", path: f },
    { label: "GET /fixtures/{id}/events?limit=100", path: `${f}/events?limit=100` },
    { label: "GET /fixtures/{id}/events/{eventId}", path: `${f}/events/${events.data[0]?.eventId}` },
    { label: "GET /fixtures/{id}/statistics", path: `${f}/statistics` },
    { label: "GET /fixtures/{id}/statistics/{statisticId}", path: `${f}/statistics/${statistic}` },
    {
      label: "GET /statistics/leaderboards (season, most_runs)",
      path: `/api/v1/statistics/leaderboards?scope=season&seasonId=${season}&metric=most_runs`,
    },
    { label: "GET /fixtures/{id}/events/export.csv", path: `${f}/events/export.csv` },
    { label: "GET /fixtures/{id}/events/export.json", path: `${f}/events/export.json` },
    {
      label: "GET /fixtures/{id}/statistics/{statisticId}/events/export.csv",
      path: `${f}/statistics/${statistic}/events/export.csv`,
    },
  ];
  for (const { path } of reads) await read(path);
  return reads;
}
