import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Sql } from "../src/db/database.js";
import { importCricsheet } from "../src/ingest/cricsheet/import.js";
import { CricketWorld } from "../test/support/cricket-world.js";
import { bearerApp } from "./bearer-app.js";
import { compareLoads, listen } from "./http.js";
import { alternate, log, measurement, median, onEachDatabase, pairedRatio, type Result } from "./support.js";

const cricsheet = (relative: string) =>
  fileURLToPath(new URL(`../../shared/data/cricsheet/${relative}`, import.meta.url));
const SEASON = Array.from({ length: 60 }, (_, i) => cricsheet(`ipl/${980901 + 2 * i}.json`));

/**
 * Provenance of a season leaderboard row on IPL 2016 (60 matches): the first page (50
 * deliveries) of the trace of the season's leading run scorer's batting, followed from the
 * leaderboard's `provenance` link as an administrator. Latency p50 and p99 are the figures
 * the issue names: one client asking again as soon as it is answered (what a user waits),
 * against /health the same way; then throughput under load against /health. A page computes
 * the whole trace (every delivery the batter faced or was out on in the season) and reads
 * the page's revisions and sources.
 */
export const provenanceBenchmark = (): Promise<Result[]> => onEachDatabase(measureProvenance);

const SEQUENTIAL = 200;

/** p50 and p99 of `SEQUENTIAL` requests one after another, each read whole, in ms. */
async function latencies(url: string, headers: Record<string, string> = {}) {
  const times: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] as number;
  return { p50: at(0.5), p99: at(0.99) };
}

async function measureProvenance(sql: Sql, backend: string): Promise<Result[]> {
  log(`provenance: ${backend}: importing IPL 2016`);
  const dataDir = await mkdtemp(join(tmpdir(), "bench-provenance-"));
  const world = new CricketWorld(sql);
  await importCricsheet(world.store, SEASON);
  await world.runner.catchUp();
  const { app, anAdminToken } = await bearerApp(sql, world, dataDir);
  const token = await anAdminToken();
  await world.runner.catchUp();
  world.runner.start();
  const server = await listen(app.fetch, "");
  try {
    const [season] = await sql<{ season_id: string }[]>`select season_id from fixture order by start_date limit 1`;
    const board = await fetch(
      `${server.url}/api/v1/statistics/leaderboards?scope=season&seasonId=${season?.season_id}&metric=most_runs`,
    );
    const { data, provenance } = (await board.json()) as { data: { participantId: string }[]; provenance: string };
    const path = provenance.replace("{participantId}", data[0]?.participantId ?? "");
    const first = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const { count } = (await first.json()) as { count: number };
    log(`provenance: ${backend}: the leading run scorer's season trace holds ${count} deliveries`);
    const auth = { authorization: `Bearer ${token}` };
    await latencies(`${server.url}${path}`, auth); // warm-up
    const runs = await alternate(
      5,
      () => latencies(`${server.url}${path}`, auth),
      () => latencies(`${server.url}/api/v1/health`),
    );
    const p50 = (r: { p50: number }[]) => r.map((x) => Math.round(x.p50 * 10) / 10);
    const sequential: Result = {
      benchmark: "provenance",
      backend,
      subject: {
        ...measurement(
          `a season leaderboard row's provenance, first page, one client (${SEQUENTIAL} requests a run)`,
          "ms p50",
          p50(runs.subject),
        ),
        extra: { p99Ms: Math.round(median(runs.subject.map((r) => r.p99))) },
      },
      baseline: {
        ...measurement("GET /api/v1/health, one client", "ms p50", p50(runs.baseline)),
        extra: { p99Ms: Math.round(median(runs.baseline.map((r) => r.p99)) * 10) / 10 },
      },
      ratio: pairedRatio(p50(runs.subject), p50(runs.baseline)),
    };
    const loaded = await compareLoads(
      "provenance",
      backend,
      {
        label: `GET a season leaderboard row's provenance (most runs, ${count} deliveries), first page of 50, under load`,
        url: `${server.url}${path}`,
        headers: { authorization: `Bearer ${token}` },
      },
      { label: "GET /api/v1/health, same app", url: `${server.url}/api/v1/health` },
    );
    return [sequential, loaded];
  } finally {
    await server.close();
    await world.runner.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
