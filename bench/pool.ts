import type { Sql } from "../src/db/database.js";
import { log, measurement, onEachDatabase, pairedRatio, type Result } from "./support.js";

const CALLERS = 50;
const WINDOW_MS = 2_000;
const WINDOWS = 8;

/**
 * Sustained load on the connection pool: 50 callers each running `select 1` back to back
 * through the product's pool (4 connections on PGlite, 10 on Postgres), so the pool
 * pipelines and its queues never empty. Throughput in the last four 2-second windows
 * against the first four: a driver whose queues grow with every query (postgres.js 3.4.9
 * unpatched, see patches/) falls to a quarter within 16 s.
 */
export const poolBenchmark = (): Promise<Result[]> => onEachDatabase(measurePool);

async function measurePool(sql: Sql, backend: string): Promise<Result> {
  log(`pool: ${backend}`);
  let count = 0;
  let stop = false;
  const caller = async () => {
    while (!stop) {
      await sql`select 1`;
      count++;
    }
  };
  const callers = Array.from({ length: CALLERS }, caller);
  const windows: number[] = [];
  for (let w = 0; w < WINDOWS; w++) {
    const [before, started] = [count, performance.now()];
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
    windows.push((count - before) / ((performance.now() - started) / 1000));
  }
  stop = true;
  await Promise.all(callers);
  const early = windows.slice(0, WINDOWS / 2);
  const late = windows.slice(WINDOWS / 2);
  return {
    benchmark: "pool",
    backend,
    subject: measurement(`select 1, ${CALLERS} callers, seconds 8 to 16`, "queries/s", late),
    baseline: measurement(`the same, seconds 0 to 8`, "queries/s", early),
    ratio: pairedRatio(late, early),
  };
}
