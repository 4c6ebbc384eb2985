import { createHash, randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BatchValidator } from "../src/batches/validator.js";
import type { Sql } from "../src/db/database.js";
import { createLogger } from "../src/http/logging.js";
import { packageEventOf } from "../test/support/batches.js";
import { aFixture, aSeason, dismissalKinds, type FixtureBuilder } from "../test/support/cricket-builders.js";
import { CricketWorld } from "../test/support/cricket-world.js";
import { KINDS, validEvents } from "../test/support/submission-events.js";
import { bearerApp } from "./bearer-app.js";
import { compareLoads, listen } from "./http.js";
import { alternate, log, measurement, median, onEachDatabase, pairedRatio, type Result } from "./support.js";

const REPETITIONS = Number(process.env.BENCH_BATCH_REPETITIONS ?? 5);
/** Publications (and direct submissions) timed: each publishes into 21 fresh fixtures. */
const PUBLICATIONS = Number(process.env.BENCH_PUBLICATIONS ?? 3);
/** 21 T20 fixtures, both innings of 20 overs: 5,040 deliveries. */
const FIXTURES = 21;
const BALLS = 120;
/** Two fixtures to a file: 11 files, each well within 1 MB. */
const FIXTURES_PER_FILE = 2;

/**
 * Batch packages end to end on the real app, as the embedded default runs them: a 5,040-event
 * package (42 T20 innings) sent as a manifest and its files, stored, then validated by the
 * validator running in the same process, every item judged against the fixtures' ledgers.
 *
 * - POST to validated (the status read showing `validated`), against POST to the 202 alone;
 *   the peak growth of the process's resident memory while it validates, as an extra;
 * - a page of 50 report items under load, against /health on the same server; and the
 *   batch's status under load, the floor under any bearer-authenticated batch read;
 * - publication of a reviewed package of 5,040 events into 21 fresh fixtures, from POST to
 *   every fixture's statistics refreshed (each fixture's statistics at its fixture's new
 *   version), against direct submissions of the same number of events (one per fixture) to
 *   the same point.
 */
export const batchesBenchmark = (): Promise<Result[]> => onEachDatabase(measureBatches);

async function measureBatches(sql: Sql, backend: string): Promise<Result[]> {
  const dataDir = await mkdtemp(join(tmpdir(), "bench-batches-"));
  const world = new CricketWorld(sql);
  const { app, anAdminToken } = await bearerApp(sql, world, dataDir);
  // One competition's fixtures, as a package is one competition's.
  const season = aSeason();
  const fixtures = Array.from({ length: FIXTURES }, (_, i) =>
    aFixture({ season, startDate: `2024-04-${String(i + 1).padStart(2, "0")}` })
      .withInnings({ deliveries: 0 })
      .withInnings({ deliveries: 0 }),
  );
  await world.given(dismissalKinds(...KINDS), ...fixtures);
  // An administrator sends: the benchmark measures the package, not the scope check.
  const token = await anAdminToken();
  world.runner.start();
  const validator = new BatchValidator({ sql, store: world.store, logger: createLogger("silent") }, { idlePollMs: 50 });
  validator.start(world.runner);
  const server = await listen(app.fetch, "");
  const auth = { authorization: `Bearer ${token}` };
  try {
    log(`batches: ${backend}: ${REPETITIONS} packages of ${FIXTURES * 2 * BALLS} events`);
    const receipt = async () => {
      const { form } = aPackage(fixtures);
      const started = performance.now();
      const res = await fetch(`${server.url}/api/v1/batches`, {
        method: "POST",
        headers: { ...auth, "idempotency-key": randomUUID() },
        body: form,
      });
      const body = (await res.json()) as { data: { batchReference: string; links: { status: string } } };
      if (res.status !== 202) throw new Error(`POST /batches answered ${res.status}: ${JSON.stringify(body)}`);
      return { started, received: performance.now(), batch: body.data };
    };
    /** Polls the batch's status until it is validated; throws on any other end. */
    const untilValidated = async (status: string) => {
      for (;;) {
        const res = await fetch(`${server.url}${status}`, { headers: auth });
        const { data } = (await res.json()) as { data: { status: string; counts: { accepted: number } } };
        if (data.status === "validated") {
          if (data.counts.accepted !== FIXTURES * 2 * BALLS) throw new Error(`accepted ${data.counts.accepted}`);
          return;
        }
        if (data.status !== "received" && data.status !== "validating") throw new Error(`batch ${data.status}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const peaks: number[] = [];
    const toValidated = async () => {
      const rss = process.memoryUsage().rss;
      let peak = rss;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 25);
      const { started, batch } = await receipt();
      await untilValidated(batch.links.status);
      const elapsed = (performance.now() - started) / 1000;
      clearInterval(sampler);
      peaks.push((peak - rss) / 2 ** 20);
      return elapsed;
    };
    // Untimed after the 202: its batch is validated before the next run, which it would slow.
    const toReceipt = async () => {
      const { started, received, batch } = await receipt();
      await untilValidated(batch.links.status);
      return (received - started) / 1000;
    };
    await toReceipt(); // warm-up
    const runs = await alternate(REPETITIONS, toValidated, toReceipt);
    const validated = {
      benchmark: "batches",
      backend,
      subject: {
        ...measurement("5,040-event package, POST to validated", "s", runs.subject),
        extra: { peakRssGrowthMiB: Math.round(median(peaks)) },
      },
      baseline: measurement("the same package, POST to 202", "s", runs.baseline),
      ratio: pairedRatio(runs.subject, runs.baseline),
    };
    const { batch } = await receipt();
    await untilValidated(batch.links.status);
    const report = await compareLoads(
      "batches",
      backend,
      {
        label: "GET report, a page of 50 items",
        url: `${server.url}${batch.links.status}/report?limit=50`,
        headers: auth,
      },
      { label: "GET /api/v1/health, same app", url: `${server.url}/api/v1/health` },
    );
    // The floor under any batch read: the bearer token and the caller's account, then one row.
    const status = await compareLoads(
      "batches",
      backend,
      {
        label: "GET the batch's status (the floor of a bearer read)",
        url: `${server.url}${batch.links.status}`,
        headers: auth,
      },
      { label: "GET /api/v1/health, same app", url: `${server.url}/api/v1/health` },
    );
    const published = await measurePublication({
      world,
      season,
      server: server.url,
      sender: auth,
      backend,
      untilValidated,
      anAdminToken,
    });
    return [validated, report, status, published];
  } finally {
    await validator.stop();
    await server.close();
    await world.runner.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

type PublicationRun = {
  world: CricketWorld;
  season: ReturnType<typeof aSeason>;
  server: string;
  sender: Record<string, string>;
  backend: string;
  untilValidated: (status: string) => Promise<void>;
  anAdminToken: () => Promise<string>;
};

async function measurePublication(run: PublicationRun): Promise<Result> {
  const { world, season, server } = run;
  const reviewer = { authorization: `Bearer ${await run.anAdminToken()}` };
  const freshFixtures = async () => {
    const fixtures = Array.from({ length: FIXTURES }, (_, i) =>
      aFixture({ season, startDate: `2025-05-${String(i + 1).padStart(2, "0")}` })
        .withInnings({ deliveries: 0 })
        .withInnings({ deliveries: 0 }),
    );
    await world.given(...fixtures);
    return fixtures;
  };
  const post = async (path: string, body: unknown, headers: Record<string, string>, expected: number) => {
    const res = await fetch(`${server}${path}`, {
      method: "POST",
      headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (res.status !== expected) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
  };
  /** Until every fixture's statistics are those of its current version, as a reader sees them. */
  const untilRefreshed = async (fixtures: readonly FixtureBuilder[]) => {
    for (const fixture of fixtures)
      for (;;) {
        const [read, statistics] = await Promise.all([
          fetch(`${server}/api/v1/fixtures/${fixture.id}`).then(
            (r) => r.json() as Promise<{ data: { version: number } }>,
          ),
          fetch(`${server}/api/v1/fixtures/${fixture.id}/statistics`).then((r) =>
            r.ok ? (r.json() as Promise<{ fixtureVersion: number }>) : { fixtureVersion: -1 },
          ),
        ]);
        if (statistics.fixtureVersion === read.data.version) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
  };
  const publication = async () => {
    const fixtures = await freshFixtures();
    const { form } = aPackage(fixtures);
    const res = await fetch(`${server}/api/v1/batches`, {
      method: "POST",
      headers: { ...run.sender, "idempotency-key": randomUUID() },
      body: form,
    });
    const { data } = (await res.json()) as { data: { links: { status: string } } };
    await run.untilValidated(data.links.status);
    await post(`${data.links.status}/reviews`, { decision: "approved", items: "all", reason: "bench" }, reviewer, 200);
    const started = performance.now();
    await post(`${data.links.status}/publication`, undefined, reviewer, 200);
    await untilRefreshed(fixtures);
    return (performance.now() - started) / 1000;
  };
  const submissions = async () => {
    const fixtures = await freshFixtures();
    // An administrator of their own each run: an account may send 30 submissions a minute.
    const submitter = { authorization: `Bearer ${await run.anAdminToken()}` };
    const started = performance.now();
    for (const fixture of fixtures) {
      const events = fixture.innings.flatMap((inn) => validEvents(fixture, BALLS, { ordinal: inn.ordinal }));
      await post("/api/v1/submissions", { fixtureId: fixture.id, schemaVersion: "1.0", events }, submitter, 201);
    }
    await untilRefreshed(fixtures);
    return (performance.now() - started) / 1000;
  };
  log(`batches: ${run.backend}: publication of ${FIXTURES * 2 * BALLS} events`);
  const runs = await alternate(PUBLICATIONS, publication, submissions);
  return {
    benchmark: "batches",
    backend: run.backend,
    subject: measurement(
      `publication of a reviewed ${FIXTURES * 2 * BALLS}-event batch, POST to statistics refreshed`,
      "s",
      runs.subject,
    ),
    baseline: measurement(
      `${FIXTURES} direct submissions of the same events, to statistics refreshed`,
      "s",
      runs.baseline,
    ),
    ratio: pairedRatio(runs.subject, runs.baseline),
  };
}

/** A package of every fixture's two innings, fresh event ids each time, as a manifest and its files. */
function aPackage(fixtures: readonly FixtureBuilder[]) {
  const files: { path: string; content: string }[] = [];
  for (let i = 0; i < fixtures.length; i += FIXTURES_PER_FILE) {
    const part = fixtures.slice(i, i + FIXTURES_PER_FILE).map((fixture) => ({
      sourceId: `app:fixture:${fixture.id}`,
      context: {
        date: fixture.startDate,
        teams: [fixture.home, fixture.away].map((t) => ({ context: { name: t.name } })),
      },
      innings: fixture.innings.map((inn) => ({
        context: { ordinal: inn.ordinal, battingTeam: { context: { name: inn.batting.name } } },
        events: validEvents(fixture, BALLS, { ordinal: inn.ordinal }).map((e) => packageEventOf(fixture, e)),
      })),
    }));
    files.push({ path: `fixtures-${i / FIXTURES_PER_FILE}.json`, content: JSON.stringify({ fixtures: part }) });
  }
  const [first] = fixtures;
  const manifest = {
    contractVersion: "1.0",
    packageId: `bench-${randomUUID().slice(0, 8)}`,
    competition: {
      sourceId: `app:competition:${first?.season.competition.id}`,
      context: { name: first?.season.competition.name },
    },
    files: files.map((f) => ({
      path: f.path,
      mediaType: "application/json",
      sha256: createHash("sha256").update(f.content).digest("hex"),
    })),
  };
  const form = new FormData();
  form.append("manifest", JSON.stringify(manifest));
  for (const f of files) form.append("files", new File([f.content], f.path, { type: "application/json" }));
  return { form };
}
