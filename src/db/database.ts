import postgres from "postgres";
import type { Settings } from "../config.js";
import { connectionOptions, readOptions } from "./connection-options.js";
import { NEVER_LOST, openEmbedded } from "./embedded.js";
import { migrate } from "./migrations.js";

export type Sql = postgres.Sql;
export type Tx = postgres.TransactionSql;

export type Database = {
  sql: Sql;
  /** The pool reads of the read models use (`readOptions`); the same pool as `sql` on the embedded database. */
  reads: Sql;
  /** Where another pool (a release generation's thread) connects to reach this database. */
  url: string;
  /** "postgres" for DATABASE_URL, "embedded" when this process serves PGlite, "embedded-client" when another does. */
  kind: "postgres" | "embedded" | "embedded-client";
  /** Rejects when the database goes for good under this process (an embedded server that ended); else never settles. */
  lost: Promise<never>;
  /** Why the database went for good, asked now (the embedded server ended), or undefined. */
  gone(): Error | undefined;
  close(): Promise<void>;
};

export { connectionOptions, readOptions, STATEMENT_TIMEOUT_MS } from "./connection-options.js";

/** Connects to DATABASE_URL, or to the embedded database under DATA_DIR, and brings its schema up to date. */
export async function openDatabase(settings: Pick<Settings, "databaseUrl" | "dataDir">): Promise<Database> {
  if (settings.databaseUrl) {
    const sql = postgres(settings.databaseUrl, { ...connectionOptions, max: 10 });
    await migrate(sql);
    const reads = postgres(settings.databaseUrl, { ...readOptions, max: 10 });
    return {
      sql,
      reads,
      url: settings.databaseUrl,
      kind: "postgres",
      lost: NEVER_LOST,
      gone: () => undefined,
      close: async () => {
        await Promise.all([sql.end(), reads.end()]);
      },
    };
  }
  const embedded = await openEmbedded(settings.dataDir);
  const url = `postgres://postgres@127.0.0.1:${embedded.port}/postgres`;
  // One backend serves every connection in turn, so a large pool only queues.
  const sql = postgres(url, { max: 4, ...connectionOptions });
  await migrate(sql);
  return {
    sql,
    reads: sql,
    url,
    kind: embedded.owned ? "embedded" : "embedded-client",
    lost: embedded.lost,
    gone: embedded.gone,
    async close() {
      await sql.end();
      await embedded.close();
    },
  };
}
