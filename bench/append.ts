import { readFile } from "node:fs/promises";
import type postgres from "postgres";
import type { Sql } from "../src/db/database.js";
import { PostgresEventStore } from "../src/event-store/postgres.js";
import { alternate, innings, log, measurement, onEachDatabase, pairedRatio, type Result, seconds } from "./support.js";

/** One T20 innings per append, the unit an importer writes. */
const BATCH = 250;
const BATCHES_PER_RUN = 100;
const REPETITIONS = 7;
const EVENTS_PER_RUN = BATCH * BATCHES_PER_RUN;

/**
 * Event store appends against the floor of a row an event: one multi-row INSERT per batch into
 * a table shaped as the ledger was before it kept a row per append (001-event-store.sql's
 * `events`: the same columns, defaults and indexes), in the same database.
 */
export const appendBenchmark = (): Promise<Result[]> => onEachDatabase(measureAppend);

/** 001-event-store.sql's table of a row an event and its catch-up index, under another name. */
async function rowAnEventTable(name: string): Promise<string> {
  const sql = await readFile(new URL("../src/db/migrations/001-event-store.sql", import.meta.url), "utf8");
  const statements = sql.split(";").filter((s) => /create (table|index \w+ on) events\b/.test(s));
  return statements.map((s) => s.replace(/\bevents\b/g, name)).join(";");
}

async function measureAppend(sql: Sql, backend: string): Promise<Result> {
  log(`append: ${backend}`);
  const store = new PostgresEventStore(sql);
  await sql.unsafe(await rowAnEventTable("plain_events"));
  let fixtures = 0;
  const prepare = () =>
    Array.from({ length: BATCHES_PER_RUN }, () => ({ stream: `fixture-${++fixtures}`, events: innings(BATCH) }));

  const viaStore = async () => {
    const batches = prepare();
    const elapsed = await seconds(async () => {
      for (const { stream, events } of batches) await store.append(stream, events, "no_stream");
    });
    return EVENTS_PER_RUN / elapsed;
  };
  const plainInsert = async () => {
    const batches = prepare();
    const elapsed = await seconds(async () => {
      for (const { stream, events } of batches) {
        const rows = events.map((e, revision) => ({
          stream_id: stream,
          stream_revision: revision,
          event_id: e.id,
          event_type: e.type,
          data: e.data as postgres.JSONValue,
          metadata: e.metadata as postgres.JSONValue,
        }));
        await sql`insert into plain_events ${sql(rows)}`;
      }
    });
    return EVENTS_PER_RUN / elapsed;
  };

  // Discarded: the first runs pay for JIT, prepared statements and a cold buffer cache.
  await viaStore();
  await plainInsert();
  const runs = await alternate(REPETITIONS, viaStore, plainInsert);
  return {
    benchmark: "append",
    backend,
    subject: measurement(`PostgresEventStore.append, ${BATCH} events/append`, "events/s", runs.subject),
    baseline: measurement(`plain multi-row INSERT, ${BATCH} rows/statement`, "events/s", runs.baseline),
    ratio: pairedRatio(runs.subject, runs.baseline),
  };
}
