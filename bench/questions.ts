import { readFileSync } from "node:fs";
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
import { UNLIMITED } from "../src/questions/limits.js";
import type { ScratchDatabase } from "../test/support/scratch-databases.js";
import { listen, load, loadCounting, withLatency } from "./http.js";
import { log, measurement, onEachDatabase, pairedRatio, percentile, type Result, seconds } from "./support.js";

const IPL = process.env.BENCH_READS_DATA ?? fileURLToPath(new URL("../../shared/data/cricsheet/ipl", import.meta.url));
const RUNS = Number(process.env.BENCH_QUESTIONS_RUNS ?? 3);
const DURATION_S = Number(process.env.BENCH_QUESTIONS_SECONDS ?? 5);
const PATH = "/api/v1/natural-language-queries";

/** Every question of the accuracy set: answered, ambiguous and unanswerable ones alike. */
const QUESTIONS = (
  JSON.parse(readFileSync(new URL("../test/questions/questions.json", import.meta.url), "utf8")) as {
    question: string;
  }[]
).map((q) => q.question);

/**
 * Natural-language questions on the full IPL (1,243 matches), as the server runs (the
 * read-model watch memoising the vocabulary, the versioned cache). Server time: each question
 * of the accuracy set asked in turn in process (no socket), `RUNS` rounds after one to warm
 * up, p50 and p99 over every answer. Throughput: the same questions sent in turn on 50
 * connections, against /health in the same cycle.
 */
export const questionsBenchmark = (): Promise<Result[]> => onEachDatabase(measureQuestions);

async function measureQuestions(sql: Sql, backend: string, { reads }: ScratchDatabase): Promise<Result[]> {
  const store = new PostgresEventStore(sql);
  log(`questions: ${backend}: importing the full IPL`);
  await importCricsheet(store, [IPL]);
  const runner = new ProjectionRunner(sql, store, projectors);
  const projected = await seconds(() => runner.catchUp(undefined, { timeoutMs: 30 * 60_000 }));
  log(`questions: ${backend}: read models in ${projected.toFixed(0)} s`);
  const watch = new ReadModelWatch(sql);
  watch.follow(runner);
  await watch.start();
  const app = createApp(
    { logger: createLogger("silent"), sql, reads, watch, limits: { questions: UNLIMITED } },
    apiRoutes,
  );
  const ask = async (question: string) => {
    const started = performance.now();
    const res = await app.request(PATH, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ question }),
    });
    await res.text();
    if (res.status !== 200) throw new Error(`${question}: ${res.status}`);
    return performance.now() - started;
  };
  const server = await listen(app.fetch, "");
  try {
    for (const question of QUESTIONS) await ask(question);
    const times: number[] = [];
    for (let round = 0; round < RUNS; round++) for (const question of QUESTIONS) times.push(await ask(question));
    times.sort((a, b) => a - b);
    const serverTime = { p50: percentile(times, 0.5), p99: percentile(times, 0.99), max: times.at(-1) as number };
    log(
      `questions: ${backend}: server time p50 ${serverTime.p50.toFixed(2)} ms, p99 ${serverTime.p99.toFixed(2)} ms over ${times.length}`,
    );
    const requests = QUESTIONS.map((question) => ({
      method: "POST" as const,
      path: PATH,
      body: JSON.stringify({ question }),
      headers: { "content-type": "application/json" },
    }));
    const health = [];
    const asked = [];
    for (let cycle = 0; cycle < RUNS; cycle++) {
      health.push(await load(`${server.url}/api/v1/health`, DURATION_S));
      const run = await loadCounting(`${server.url}${PATH}`, DURATION_S, { requests });
      if (run.failed) throw new Error(`${run.failed} questions failed under load`);
      asked.push(run);
    }
    const subject = asked.map((r) => r.requestsPerSecond);
    const baseline = health.map((r) => r.requestsPerSecond);
    return [
      {
        benchmark: "questions",
        backend,
        subject: {
          ...withLatency(measurement(`POST ${PATH} (${QUESTIONS.length} questions in turn)`, "req/s", subject), asked),
          extra: { "server p50 ms": serverTime.p50, "server p99 ms": serverTime.p99, "server max ms": serverTime.max },
        },
        baseline: withLatency(measurement("GET /api/v1/health", "req/s", baseline), health),
        ratio: pairedRatio(subject, baseline),
      },
    ];
  } finally {
    await server.close();
    watch.close();
  }
}
