import { fileURLToPath } from "node:url";
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
import { signedInPages } from "./signed-in-pages.js";
import { log, measurement, onEachDatabase, pairedRatio, percentile, type Result, seconds } from "./support.js";

const IPL = process.env.BENCH_READS_DATA ?? fileURLToPath(new URL("../../shared/data/cricsheet/ipl", import.meta.url));
const RUNS = Number(process.env.BENCH_PAGES_RUNS ?? 5);
/** Fixtures and players sampled per run, every one of the rest of the pages each run. */
const SAMPLE = Number(process.env.BENCH_PAGES_SAMPLE ?? 100);
/** The budget: server render under 50 ms at p99, under 150 KB a page. */
const BUDGET = { p99Ms: 50, bytes: 150 * 1024 };

/**
 * The web UI's pages on the full IPL (1,243 matches), as the server runs them, in process
 * (no socket): server render time from request to the last byte, each kind of page over many
 * ids (home, a search, the competition, every season, a sample of fixtures and of players,
 * leaderboards of seasons and of the competition, questions asked in English, and the
 * signed-in pages of an administrator with their heaviest data: bench/signed-in-pages.ts),
 * a browser's `Accept`. Baseline: the JSON the fixture page is drawn from
 * (`/fixtures/{id}/statistics`), for the same fixtures in the same run.
 */
export const pagesBenchmark = (): Promise<Result[]> => onEachDatabase(measurePages);

async function measurePages(sql: Sql, backend: string, { reads }: ScratchDatabase): Promise<Result[]> {
  const store = new PostgresEventStore(sql);
  log(`pages: ${backend}: importing the full IPL`);
  await importCricsheet(store, [IPL]);
  const runner = new ProjectionRunner(sql, store, projectors);
  const projected = await seconds(() => runner.catchUp(undefined, { timeoutMs: 30 * 60_000 }));
  log(`pages: ${backend}: read models in ${projected.toFixed(0)} s`);
  const watch = new ReadModelWatch(sql);
  watch.follow(runner);
  await watch.start();
  // Questions are limited per client; the benchmark is one client asking many.
  const questions = { perSourcePerMinute: 1e9, perSourcePerDay: 1e9, platformPerDay: 1e9 };
  const signedIn = await signedInPages(sql, store, runner);
  const app = createApp(
    {
      logger: createLogger("silent"),
      sql,
      reads,
      watch,
      store,
      projections: runner,
      identity: signedIn.identity,
      limits: { questions },
    },
    apiRoutes,
  );
  try {
    const session = await signedIn.kinds(app);
    const ids = async (rows: Promise<{ id: string }[]>) => (await rows).map((r) => r.id);
    const [competitionId] = await ids(sql`select competition_id as id from competition limit 1`);
    const seasons = await ids(sql`select season_id as id from season`);
    const fixtures = await ids(sql`select fixture_id as id from fixture order by random() limit ${SAMPLE}`);
    const players = await ids(
      sql`select participant_id as id from player_aggregate group by 1 order by random() limit ${SAMPLE}`,
    );
    const kinds: Record<string, string[]> = {
      home: ["/"],
      search: ["/search?q=kumar", "/search?q=kohli", "/search?q=super"],
      competition: [`/competitions/${competitionId}`],
      season: seasons.map((id) => `/seasons/${id}`),
      fixture: fixtures.map((id) => `/fixtures/${id}`),
      participant: players.map((id) => `/participants/${id}`),
      leaderboard: [
        ...seasons.slice(0, 5).map((id) => `/seasons/${id}/leaderboards/most_runs`),
        `/competitions/${competitionId}/leaderboards/most_runs`,
        `/competitions/${competitionId}/leaderboards/best_economy_rate`,
      ],
      ask: [
        "Who scored the most runs in IPL 2016?",
        "most wickets in the IPL",
        "Virat Kohli's career batting average",
        "what is the meaning of cricket",
      ].map((q) => `/ask?q=${encodeURIComponent(q)}`),
      ...session.kinds,
    };
    const get = async (path: string, accept: string) => {
      const started = performance.now();
      const headers: Record<string, string> = { accept };
      if (path.startsWith("/account")) headers.Cookie = session.cookie;
      const res = await app.request(path, { headers });
      const bytes = (await res.arrayBuffer()).byteLength;
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      return { ms: performance.now() - started, bytes };
    };
    const page = (path: string) => get(path, "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8");
    for (const paths of Object.values(kinds)) for (const path of paths) await page(path); // warm up
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
    const largest: Record<string, number> = {};
    const fixtureP99: number[] = [];
    const statisticsP99: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      for (const [kind, paths] of Object.entries(kinds))
        for (const path of paths) {
          const { ms, bytes } = await page(path);
          times[kind]?.push(ms);
          largest[kind] = Math.max(largest[kind] ?? 0, bytes);
        }
      const pageTimes: number[] = [];
      const jsonTimes: number[] = [];
      for (const id of fixtures) {
        pageTimes.push((await page(`/fixtures/${id}`)).ms);
        jsonTimes.push((await get(`/api/v1/fixtures/${id}/statistics`, "application/json")).ms);
      }
      fixtureP99.push(
        percentile(
          pageTimes.sort((a, b) => a - b),
          0.99,
        ),
      );
      statisticsP99.push(
        percentile(
          jsonTimes.sort((a, b) => a - b),
          0.99,
        ),
      );
    }
    const all = Object.values(times)
      .flat()
      .sort((a, b) => a - b);
    for (const [kind, values] of Object.entries(times)) {
      values.sort((a, b) => a - b);
      log(
        `pages: ${backend}: ${kind}: p50 ${percentile(values, 0.5).toFixed(1)} ms, p99 ${percentile(values, 0.99).toFixed(1)} ms, largest ${((largest[kind] ?? 0) / 1024).toFixed(1)} KB`,
      );
    }
    const p99 = percentile(all, 0.99);
    const heaviest = Math.max(...Object.values(largest));
    log(
      `pages: ${backend}: every page p99 ${p99.toFixed(1)} ms (budget ${BUDGET.p99Ms}), largest ${(heaviest / 1024).toFixed(1)} KB (budget 150)`,
    );
    return [
      {
        benchmark: "pages",
        backend,
        subject: {
          ...measurement("GET /fixtures/{id} page, server p99", "ms", fixtureP99),
          extra: {
            "all pages p50 ms": percentile(all, 0.5),
            "all pages p99 ms": p99,
            "largest page KB": heaviest / 1024,
            "season pages p99 ms": percentile(times.season ?? [], 0.99),
            "participant pages p99 ms": percentile(times.participant ?? [], 0.99),
          },
        },
        baseline: measurement("GET /api/v1/fixtures/{id}/statistics, server p99", "ms", statisticsP99),
        ratio: pairedRatio(fixtureP99, statisticsP99),
      },
    ];
  } finally {
    watch.close();
    await signedIn.close();
  }
}
