import { randomUUID } from "node:crypto";
import type { Sql } from "../src/db/database.js";
import type { NewEvent } from "../src/event-store/port.js";
import { pgliteDatabase, postgresDatabase, type ScratchDatabase } from "../test/support/scratch-databases.js";

export type Measurement = {
  label: string;
  unit: string;
  median: number;
  runs: number[];
  latencyMs?: { p50: number; p99: number };
  /** Further medians worth a column of their own, e.g. matches/s and peak memory of an import. */
  extra?: Record<string, number>;
};

export type Result = {
  benchmark: string;
  backend: string;
  subject: Measurement;
  baseline: Measurement;
  /** Median of the per-repetition ratios subject / baseline, each pair measured back to back. */
  ratio: number;
};

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

export const measurement = (label: string, unit: string, runs: number[]): Measurement => ({
  label,
  unit,
  median: median(runs),
  runs,
});

/** The value at fraction `p` (0.99: p99) of values sorted ascending. */
export const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;

export const pairedRatio = (subject: readonly number[], baseline: readonly number[]): number =>
  median(subject.map((s, i) => s / (baseline[i] as number)));

export async function seconds(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

/**
 * Runs subject and baseline `repetitions` times each, swapping which goes first every time so
 * drift during the run (growing tables and indexes, JIT, caches) weighs on both alike.
 */
export async function alternate<T>(repetitions: number, subject: () => Promise<T>, baseline: () => Promise<T>) {
  const runs = { subject: [] as T[], baseline: [] as T[] };
  for (let i = 0; i < repetitions; i++) {
    if (i % 2 === 0) {
      runs.subject.push(await subject());
      runs.baseline.push(await baseline());
    } else {
      runs.baseline.push(await baseline());
      runs.subject.push(await subject());
    }
  }
  return runs;
}

export const log = (message: string) => process.stderr.write(`${message}\n`);

export const postgresUrl = (): string | undefined =>
  process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || undefined;

/**
 * The backends of `available` a benchmark runs on: all, or those `BENCH_BACKENDS=postgres`
 * (or `pglite`) names, which runs a long benchmark on one backend only.
 */
export function chosenBackends<T extends { name: string }>(available: readonly T[]): T[] {
  const only = process.env.BENCH_BACKENDS?.split(",").map((name) => name.trim());
  const unknown = only?.filter((name) => !available.some((backend) => backend.name === name)) ?? [];
  if (unknown.length > 0) throw new Error(`BENCH_BACKENDS: ${unknown.join(", ")} is not available here`);
  return available.filter((backend) => !only || only.includes(backend.name));
}

/** Runs `benchmark` on a fresh PGlite, then on a fresh Postgres database when a server is given. */
export async function onEachDatabase(
  benchmark: (sql: Sql, backend: string, db: ScratchDatabase) => Promise<Result | Result[]>,
): Promise<Result[]> {
  const url = postgresUrl();
  // On disk, as the embedded default keeps its data.
  const openers = [{ name: "pglite", open: () => pgliteDatabase({ onDisk: true }) }];
  if (url) openers.push({ name: "postgres", open: () => postgresDatabase(url) });
  const results: Result[] = [];
  for (const { name, open } of chosenBackends(openers)) {
    const db = await open();
    try {
      const [version] = await db.sql<{ server_version: string }[]>`show server_version`;
      results.push(...[await benchmark(db.sql, `${name} ${version?.server_version.split(" ")[0]}`, db)].flat());
    } finally {
      await db.close();
    }
  }
  return results;
}

const players = Array.from({ length: 22 }, () => `participant-${randomUUID()}`);
const OFF_BAT = [0, 1, 0, 4, 1, 0, 2, 1, 0, 6, 0, 1];

/** One innings of deliveries for a fixture stream, each about 300 bytes of JSON like real ball-by-ball data. */
export function innings(deliveries: number): NewEvent[] {
  const occurredAt = new Date().toISOString();
  return Array.from({ length: deliveries }, (_, i) => {
    const wide = i % 29 === 7;
    const offBat = wide ? 0 : (OFF_BAT[i % OFF_BAT.length] as number);
    const extras = wide ? 1 : 0;
    const batter = players[(i >> 3) % 11] as string;
    return {
      id: randomUUID(),
      type: "DeliveryBowled",
      data: {
        innings: 1,
        over: Math.floor(i / 6),
        ball: (i % 6) + 1,
        batterId: batter,
        nonStrikerId: players[((i >> 3) + 1) % 11],
        bowlerId: players[11 + (Math.floor(i / 6) % 5)],
        runs: { offBat, extras, total: offBat + extras },
        extras: wide ? { wides: 1 } : {},
        wickets: i % 23 === 22 ? [{ kind: "caught", playerOutId: batter, fielderIds: [players[17]] }] : [],
      },
      metadata: { actor: "bench", occurredAt, schemaVersion: 1 },
    };
  });
}
