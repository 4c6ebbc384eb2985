import postgres from "postgres";
import type { Settings } from "../config.js";
import { NEVER_LOST, openEmbedded } from "./embedded.js";
import { migrate } from "./migrations.js";

export type Sql = postgres.Sql;
export type Tx = postgres.TransactionSql;

export type Database = {
  sql: Sql;
  /** The pool reads of the read models use (`readOptions`); the same pool as `sql` on the embedded database. */
  reads: Sql;
  /** "postgres" for DATABASE_URL, "embedded" when this process serves PGlite, "embedded-client" when another does. */
  kind: "postgres" | "embedded" | "embedded-client";
  /** Rejects when the database goes for good under this process (an embedded server that ended); else never settles. */
  lost: Promise<never>;
  /** Why the database went for good, asked now (the embedded server ended), or undefined. */
  gone(): Error | undefined;
  close(): Promise<void>;
};

/** Longest a statement may run unless its transaction lifts the bound (projector batches, migrations). */
export const STATEMENT_TIMEOUT_MS = 30_000;

/**
 * Custom plans for every execution: postgres.js prepares statements, and a generic plan
 * chosen while a table was empty (a fresh database, an import just starting) would keep
 * scanning it sequentially after it has grown to millions of rows. Without JIT: every
 * statement here touches one fixture's rows or one batch's, yet once the delivery table held
 * two IPLs the estimates of an innings-totals update crossed `jit_above_cost`, and compiling
 * it took 12 ms of a statement that runs in under 1 (the import of the second IPL took
 * twice as long as the first). Without parallel workers, for the same reason: the same
 * estimates turned a batch's read of its fixtures' deliveries into a parallel scan whose
 * workers cost more to start than the few thousand rows cost to read. A server that accepts
 * a connection but never completes it (a hung host) is given up on after 5 s, not 30.
 */
export const connectionOptions = {
  onnotice: () => {},
  connect_timeout: 5,
  connection: {
    plan_cache_mode: "force_custom_plan",
    statement_timeout: STATEMENT_TIMEOUT_MS,
    jit: "off",
    max_parallel_workers_per_gather: "0",
  },
};

/**
 * The read pool's sessions keep one generic plan per statement: a read's plan shape does not
 * depend on its values (keys, keysets, limits), and planning a fixture page's five-table join
 * on every execution cost three times running it. A generic plan made while a table was small
 * is made again once the grown table is analysed (autovacuum's analyse, or an ANALYZE after
 * a bulk load, invalidates the cached plans that use it). JIT is off here too: a page whose
 * estimate crossed `jit_above_cost` took 22 ms instead of 1. The embedded database has one
 * session for every connection and ignores these settings: it plans as Postgres does by
 * default (and its build has no JIT).
 */
export const readOptions = {
  ...connectionOptions,
  connection: { ...connectionOptions.connection, plan_cache_mode: "force_generic_plan" },
};

/** Connects to DATABASE_URL, or to the embedded database under DATA_DIR, and brings its schema up to date. */
export async function openDatabase(settings: Pick<Settings, "databaseUrl" | "dataDir">): Promise<Database> {
  if (settings.databaseUrl) {
    const sql = postgres(settings.databaseUrl, { ...connectionOptions, max: 10 });
    await migrate(sql);
    const reads = postgres(settings.databaseUrl, { ...readOptions, max: 10 });
    return {
      sql,
      reads,
      kind: "postgres",
      lost: NEVER_LOST,
      gone: () => undefined,
      close: async () => {
        await Promise.all([sql.end(), reads.end()]);
      },
    };
  }
  const embedded = await openEmbedded(settings.dataDir);
  // One backend serves every connection in turn, so a large pool only queues.
  const sql = postgres({
    host: "127.0.0.1",
    port: embedded.port,
    user: "postgres",
    database: "postgres",
    max: 4,
    ...connectionOptions,
  });
  await migrate(sql);
  return {
    sql,
    reads: sql,
    kind: embedded.owned ? "embedded" : "embedded-client",
    lost: embedded.lost,
    gone: embedded.gone,
    async close() {
      await sql.end();
      await embedded.close();
    },
  };
}
