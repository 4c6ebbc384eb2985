import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { memoryCache } from "../src/cache/memory.js";
import type { Sql } from "../src/db/database.js";
import { PostgresEventStore } from "../src/event-store/postgres.js";
import { createApp } from "../src/http/app.js";
import { createLogger } from "../src/http/logging.js";
import { apiRoutes } from "../src/http/routes.js";
import { importCricsheet } from "../src/ingest/cricsheet/import.js";
import { memoryWindowCounter } from "../src/limits/memory.js";
import { redisWindowCounter } from "../src/limits/redis.js";
import { projectors } from "../src/projections/registry.js";
import { ProjectionRunner } from "../src/projections/runner.js";
import { ReadModelWatch } from "../src/projections/watch.js";
import type { ScratchDatabase } from "../test/support/scratch-databases.js";
import { unlimitedConsumer } from "./access.js";
import { type Load, listen, load, loadCounting, withLatency } from "./http.js";
import { log, measurement, median, onEachDatabase, pairedRatio, type Result } from "./support.js";

const TESTS = fileURLToPath(new URL("../../shared/data/cricsheet/tests", import.meta.url));
const RUNS = Number(process.env.BENCH_EXPORTS_RUNS ?? 3);
const DURATION_S = 5;
/** Clients downloading at once in the mixed load, beside 50 keyed readers. */
const EXPORTERS = 10;

/**
 * Exports of whole Tests (about 2,000 deliveries: 0.6 MB of CSV, 1.3 MB of JSON, every
 * Test of the data set in turn, both formats) as the server runs (kept answers, watch,
 * limits counted in Redis when REDIS_URL is set), alone against /health, then beside 50
 * clients reading a fixture's statistics with an API key: what those keyed readers see
 * (p99, failures, 503s), how long the event loop was held (monitorEventLoopDelay over the
 * mixed load) and the heap's peak; then, after a full collection, one client exporting
 * alone, whose loop delay is the longest any one export holds the loop, its own garbage's
 * collection included (with 60 connections one turn of the loop serves whatever all of them
 * have ready, so the mixed load's maximum can be several requests' work).
 */
export const exportsBenchmark = (): Promise<Result[]> => onEachDatabase(measureExports);

async function measureExports(sql: Sql, backend: string, { reads }: ScratchDatabase): Promise<Result[]> {
  const store = new PostgresEventStore(sql);
  const files = readdirSync(TESTS).filter((name) => name.endsWith(".json"));
  log(`exports: ${backend}: importing ${files.length} Tests`);
  await importCricsheet(store, [TESTS]);
  const runner = new ProjectionRunner(sql, store, projectors);
  await runner.catchUp(undefined, { timeoutMs: 10 * 60_000 });
  const { secret, apiKey } = await unlimitedConsumer(store, sql);
  await runner.catchUp();
  const watch = new ReadModelWatch(sql);
  watch.follow(runner);
  await watch.start();
  const counter = process.env.REDIS_URL
    ? redisWindowCounter(process.env.REDIS_URL, { prefix: `bench:${randomBytes(6).toString("hex")}` })
    : memoryWindowCounter();
  const app = createApp(
    { logger: createLogger("silent"), sql, reads, cache: memoryCache(), watch, secret, rateLimits: counter },
    apiRoutes,
  );
  const server = await listen(app.fetch, "");
  try {
    const fixtures = (await sql<{ fixture_id: string }[]>`select fixture_id from fixture order by fixture_id`).map(
      (f) => f.fixture_id,
    );
    const exports = fixtures.flatMap((id) => [
      `/api/v1/fixtures/${id}/events/export.csv`,
      `/api/v1/fixtures/${id}/events/export.json`,
    ]);
    const keyed = { headers: { "x-api-key": apiKey } };
    const keyedUrl = `${server.url}/api/v1/fixtures/${fixtures[0]}/statistics`;
    const health = `${server.url}/api/v1/health`;
    await load(keyedUrl, 1, keyed.headers);
    await loadCounting(server.url, 1, { paths: exports });

    const runs = { health: [] as Load[], exports: [] as Load[], keyedAlone: [] as Load[] };
    const mixed: { keyed: Awaited<ReturnType<typeof loadCounting>>; exports: Load; loop: Loop }[] = [];
    /** The loop under one exporting client: the longest a single export holds it, garbage collection included. */
    const oneClient: Loop[] = [];
    for (let cycle = 0; cycle < RUNS; cycle++) {
      log(`exports: ${backend}: cycle ${cycle + 1} of ${RUNS}`);
      runs.health.push(await load(health, DURATION_S));
      runs.exports.push(await strict(loadCounting(server.url, DURATION_S, { paths: exports })));
      runs.keyedAlone.push(await load(keyedUrl, DURATION_S, keyed.headers));
      const [keyedRun, exportRun, loop] = await Promise.all([
        loadCounting(keyedUrl, DURATION_S, keyed),
        strict(loadCounting(server.url, DURATION_S, { paths: exports, connections: EXPORTERS })),
        watchLoopDuring(DURATION_S),
      ]);
      mixed.push({ keyed: keyedRun, exports: exportRun, loop });
      collectGarbage();
      const [, held] = await Promise.all([
        strict(loadCounting(server.url, DURATION_S, { paths: exports, connections: 1 })),
        watchLoopDuring(DURATION_S),
      ]);
      oneClient.push(held);
    }
    const rate = (loads: readonly Load[]) => loads.map((r) => r.requestsPerSecond);
    const healthRate = measurement("GET /api/v1/health, same cycle", "req/s", rate(runs.health));
    const keyedUnder = mixed.map((m) => m.keyed);
    return [
      {
        benchmark: "exports",
        backend,
        subject: {
          ...withLatency(
            measurement("Test exports, CSV and JSON in turn, alone", "req/s", rate(runs.exports)),
            runs.exports,
          ),
          extra: {
            "event loop delay max ms, one exporting client": median(oneClient.map((l) => l.maxMs)),
            "event loop delay p99 ms, one exporting client": median(oneClient.map((l) => l.p99Ms)),
            "event loop delay max ms less waits for a core, one exporting client": median(
              oneClient.map((l) => l.ownMaxMs),
            ),
          },
        },
        baseline: healthRate,
        ratio: pairedRatio(rate(runs.exports), rate(runs.health)),
      },
      {
        benchmark: "exports",
        backend,
        subject: {
          ...withLatency(
            measurement(`keyed statistics read beside ${EXPORTERS} exporting clients`, "req/s", rate(keyedUnder)),
            keyedUnder,
          ),
          extra: {
            "failed requests": median(keyedUnder.map((k) => k.failed)),
            "503 and other 5xx": median(keyedUnder.map((k) => k.serverErrors)),
            "exports req/s": median(mixed.map((m) => m.exports.requestsPerSecond)),
            "event loop delay max ms": median(mixed.map((m) => m.loop.maxMs)),
            "event loop delay p99 ms": median(mixed.map((m) => m.loop.p99Ms)),
            "event loop delay max ms less waits for a core": median(mixed.map((m) => m.loop.ownMaxMs)),
            "heap peak MB": median(mixed.map((m) => m.loop.heapPeakMb)),
          },
        },
        baseline: withLatency(
          measurement("the same keyed read alone", "req/s", rate(runs.keyedAlone)),
          runs.keyedAlone,
        ),
        ratio: pairedRatio(rate(keyedUnder), rate(runs.keyedAlone)),
      },
    ];
  } finally {
    await server.close();
    await counter.close();
    watch.close();
  }
}

/** Exports must not fail: a failure would make the figures those of a cheaper answer. */
async function strict(running: ReturnType<typeof loadCounting>): Promise<Load> {
  const result = await running;
  if (result.failed) throw new Error(`${result.failed} exports failed`);
  return result;
}

/**
 * A full collection now, so that the earlier phases' garbage is not collected (and its pause
 * counted) while one client's exports are watched. `gc` is exposed by flag only: set here.
 */
function collectGarbage() {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

type Loop = { maxMs: number; p99Ms: number; ownMaxMs: number; heapPeakMb: number };

const LOAD_EDGE_MS = 500;
/** How often the loop is looked at: a timer this often, whose own interval is not delay. */
const TICK_MS = 2;
const HEAP_EVERY_MS = 50;

/**
 * The event loop over a load of `seconds`, watched from half a second after its start to
 * half a second before its end (the load generator starts a worker thread from this one and
 * adds up its histograms here when it ends, which is the benchmark's work, not the
 * server's): its delay, its longest delay less the time the thread waited for a core, and
 * the heap's peak. The delay is wall time: on two cores shared with the load generator's
 * thread and the database it also counts time the thread was ready to run but not running,
 * which no request held. That wait is the kernel's `run_delay` (`/proc/thread-self/schedstat`,
 * Linux), exact at every switch-in (the time on a CPU beside it moves a scheduler tick at a
 * time); what is left of a delay is the loop's own work, its collections and any wait for
 * their helper threads.
 */
async function watchLoopDuring(seconds: number): Promise<Loop> {
  await sleep(LOAD_EDGE_MS);
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  let heapPeak = 0;
  let heapAt = Number.NEGATIVE_INFINITY;
  let own = 0;
  let last = { at: performance.now(), waited: waitedForCoreMs() };
  const look = () => {
    const now = { at: performance.now(), waited: waitedForCoreMs() };
    own = Math.max(own, now.at - last.at - TICK_MS - (now.waited - last.waited));
    last = now;
    if (now.at - heapAt >= HEAP_EVERY_MS) {
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
      heapAt = now.at;
    }
  };
  const ticker = setInterval(look, TICK_MS);
  await sleep(seconds * 1000 - 2 * LOAD_EDGE_MS);
  look();
  clearInterval(ticker);
  delay.disable();
  return { maxMs: delay.max / 1e6, p99Ms: delay.percentile(99) / 1e6, ownMaxMs: own, heapPeakMb: heapPeak / 2 ** 20 };
}

/** How long this thread has waited for a core so far, in milliseconds; 0 where the kernel does not say. */
function waitedForCoreMs(): number {
  try {
    return Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[1]) / 1e6;
  } catch {
    return 0;
  }
}
