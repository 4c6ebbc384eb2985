import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Sql } from "../src/db/database.js";
import type { Position } from "../src/event-store/port.js";
import { FIXTURE_READ_MODELS } from "../src/submission-api/submissions.js";
import { DeliveryRecorded } from "../streams/fixture.js";
import type { FixtureBuilder } from "../test/support/cricket-builders.js";
import { dismissalKinds } from "../test/support/cricket-builders.js";
import { CricketWorld } from "../test/support/cricket-world.js";
import { anOpenFixture, KINDS, submission, validEvents } from "../test/support/submission-events.js";
import { bearerApp } from "./bearer-app.js";
import { listen } from "./http.js";
import { alternate, log, measurement, median, onEachDatabase, pairedRatio, type Result } from "./support.js";

const LATENCY_SAMPLES = Number(process.env.BENCH_SUBMISSION_SAMPLES ?? 30);
const WORKERS = 8;
const DURATION_MS = 5000;
const REPETITIONS = 5;
/** A sustained submission is one over, as a live scorer sends them. */
const OVER = 6;
/** Overs a fixture takes before a worker moves to a fresh one: two T20 innings' worth. */
const OVERS_PER_FIXTURE = 40;
/** Enough admins that none reaches the 30-a-minute submission limit during the run. */
const ACCOUNTS = 600;

/**
 * Direct submissions end to end over HTTP on the real app: bearer token verified, one-pass
 * checks against the fixture's stream and the read models, the atomic append, and the wait
 * until the public reads show the events (the 201 is read-your-writes).
 *
 * - latency of a 1,000-event submission (p50/p99), against appending the same 1,000 events
 *   to a fixture stream directly (the write alone);
 * - sustained one-over submissions per second from 8 concurrent clients, against the same
 *   clients appending one-over batches directly;
 * - for each, the floor under any submission: the same append followed by the wait for the
 *   read models a 201 waits for (no HTTP, no checks), against the bare append.
 */
export const submissionsBenchmark = (): Promise<Result[]> => onEachDatabase(measureSubmissions);

async function measureSubmissions(sql: Sql, backend: string): Promise<Result[]> {
  const dataDir = await mkdtemp(join(tmpdir(), "bench-submissions-"));
  const world = new CricketWorld(sql);
  const { app, anAdminToken } = await bearerApp(sql, world, dataDir);
  log(`submissions: ${backend}: ${ACCOUNTS} admins and the fixtures`);
  const tokens: string[] = [];
  for (let i = 0; i < ACCOUNTS; i++) tokens.push(await anAdminToken());
  // A thousand balls in one innings are a Test's; the one-over clients play T20s.
  const fixtures = [
    ...Array.from({ length: LATENCY_SAMPLES * 4 }, () => anOpenFixture({ matchType: "Test" })),
    ...Array.from({ length: WORKERS * 120 }, () => anOpenFixture()),
  ];
  await world.given(dismissalKinds(...KINDS), ...fixtures);
  world.runner.start();
  const server = await listen(app.fetch, "/api/v1/submissions");
  let account = 0;
  let lastAppended: Position | undefined;
  const post = async (body: unknown) => {
    const started = performance.now();
    const res = await fetch(server.url, {
      method: "POST",
      headers: { authorization: `Bearer ${tokens[account++ % tokens.length]}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`submission answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
    return performance.now() - started;
  };
  const appendOnly = async (fixture: FixtureBuilder, events: ReturnType<typeof validEvents>) => {
    const { position } = await world.store.append(
      fixture.stream,
      events.map(({ ballNumber, ...e }) => ({
        id: randomUUID(),
        type: DeliveryRecorded.type,
        data: { ...e, ballNumber: ballNumber ?? null, submissionId: null },
        metadata: { actor: "bench", occurredAt: new Date().toISOString(), schemaVersion: DeliveryRecorded.version },
      })),
      "any",
    );
    lastAppended = position;
    return position;
  };
  const append: Append = async (fixture, events) => {
    const started = performance.now();
    await appendOnly(fixture, events);
    return performance.now() - started;
  };
  const appendAndProject: Append = async (fixture, events) => {
    const started = performance.now();
    const position = await appendOnly(fixture, events);
    if (!(await world.runner.waitFor(FIXTURE_READ_MODELS, position, 120_000)))
      throw new Error("the read models did not reach an append within 120 s");
    return performance.now() - started;
  };
  // Untimed, after each baseline run: every projector (statistics too) projects the appended
  // events, and a submission made before they had would compete with that work.
  const everyProjector = world.runner.projectors.map((p) => p.name);
  const settle = async () => {
    if (lastAppended) await world.runner.waitFor(everyProjector, lastAppended, 120_000);
  };
  const submit: Append = (fixture, events) => post(submission(fixture, events));
  try {
    const settled: Append = async (fixture, events) => {
      const elapsed = await append(fixture, events);
      await settle();
      return elapsed;
    };
    const latencyFixtures = fixtures.slice(0, LATENCY_SAMPLES * 4);
    const sustainedFixtures = fixtures.slice(LATENCY_SAMPLES * 4);
    const results = [
      await latency(latencyFixtures.slice(0, LATENCY_SAMPLES * 2), SUBMISSION, submit, settled),
      await latency(latencyFixtures.slice(LATENCY_SAMPLES * 2), FLOOR, appendAndProject, settled),
      await sustained(sustainedFixtures.slice(0, WORKERS * 80), SUBMISSION, submit, append, settle, backend),
      await sustained(sustainedFixtures.slice(WORKERS * 80), FLOOR, appendAndProject, append, settle, backend),
    ];
    return results.map((r) => ({ ...r, backend }));
  } finally {
    await server.close();
    await world.runner.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

type Append = (fixture: FixtureBuilder, events: ReturnType<typeof validEvents>) => Promise<number>;

/** What is timed against the bare append: a submission end to end, or the least any submission must do. */
/** `wraps`: goes round its fixtures, as only writes that check nothing can. */
type Subject = { what: string; unit: string; wraps: boolean };
const SUBMISSION: Subject = { what: "POST /submissions", unit: "submissions/s", wraps: false };
const FLOOR: Subject = {
  what: "append, then the wait for the read models a 201 waits for",
  unit: "appends/s",
  wraps: true,
};

async function latency(
  fixtures: FixtureBuilder[],
  subject: Subject,
  send: Append,
  append: Append,
): Promise<Omit<Result, "backend">> {
  log(`submissions: ${LATENCY_SAMPLES} × 1,000 events, ${subject.what}, each against a direct append`);
  let next = 0;
  const thousand = (timed: Append) => () => {
    const fixture = fixtures[next++] as FixtureBuilder;
    return timed(fixture, validEvents(fixture, 1000));
  };
  const runs = await alternate(LATENCY_SAMPLES, thousand(send), thousand(append));
  return {
    benchmark: "submissions",
    subject: withPercentiles(measurement(`${subject.what}, 1,000 events`, "ms", runs.subject)),
    baseline: withPercentiles(measurement("append of the same 1,000 events", "ms", runs.baseline)),
    ratio: pairedRatio(runs.subject, runs.baseline),
  };
}

async function sustained(
  fixtures: FixtureBuilder[],
  subject: Subject,
  send: Append,
  append: Append,
  settle: () => Promise<void>,
  backend: string,
): Promise<Omit<Result, "backend">> {
  log(
    `submissions: ${backend}: ${WORKERS} clients, one over at a time, ${subject.what}, ${REPETITIONS} × ${DURATION_MS / 1000} s`,
  );
  // Each client writes its own fixtures, moving to a fresh one after OVERS_PER_FIXTURE overs;
  // the direct appends have fixtures of their own (they check nothing, so they go round them).
  const split = (pool: FixtureBuilder[]) =>
    Array.from({ length: WORKERS }, (_, w) => ({ fixtures: pool.filter((_, i) => i % WORKERS === w), overs: 0 }));
  const sent = split(fixtures.slice(0, -WORKERS * 20));
  const appended = split(fixtures.slice(-WORKERS * 20));
  const nextOver = (lane: { fixtures: FixtureBuilder[]; overs: number }, wrap: boolean) => {
    const index = Math.floor(lane.overs / OVERS_PER_FIXTURE);
    const fixture = lane.fixtures[wrap ? index % lane.fixtures.length : index];
    if (!fixture) throw new Error("the benchmark ran out of fixtures");
    const over = lane.overs++ % OVERS_PER_FIXTURE;
    return {
      fixture,
      events: validEvents(fixture, OVER, { ordinal: over % 2, from: Math.floor(over / 2) * OVER + 1 }),
    };
  };
  const run = async (lanes: ReturnType<typeof split>, timed: Append, wrap = false) => {
    const deadline = performance.now() + DURATION_MS;
    const latencies: number[] = [];
    await Promise.all(
      lanes.map(async (lane) => {
        while (performance.now() < deadline) {
          const { fixture, events } = nextOver(lane, wrap);
          latencies.push(await timed(fixture, events));
        }
      }),
    );
    return { perSecond: latencies.length / (DURATION_MS / 1000), latencies };
  };
  const runs = await alternate(
    REPETITIONS,
    async () => {
      const result = await run(sent, send, subject.wraps);
      await settle();
      return result;
    },
    async () => {
      const result = await run(appended, append, true);
      await settle();
      return result;
    },
  );
  const perSecond = runs.subject.map((r) => r.perSecond);
  const baseline = runs.baseline.map((r) => r.perSecond);
  return {
    benchmark: "submissions",
    subject: {
      ...measurement(`${subject.what}, one over, ${WORKERS} clients`, subject.unit, perSecond),
      latencyMs: percentiles(runs.subject.flatMap((r) => r.latencies)),
      extra: { "events/s": median(perSecond) * OVER },
    },
    baseline: {
      ...measurement(`append of one over, ${WORKERS} clients`, "appends/s", baseline),
      latencyMs: percentiles(runs.baseline.flatMap((r) => r.latencies)),
    },
    ratio: pairedRatio(perSecond, baseline),
  };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
};
const percentiles = (values: number[]) => ({
  p50: Math.round(percentile(values, 50) * 10) / 10,
  p99: Math.round(percentile(values, 99) * 10) / 10,
});
const withPercentiles = <T extends { runs: number[] }>(m: T) => ({ ...m, latencyMs: percentiles(m.runs) });
