import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { connectionOptions, readOptions, type Sql } from "../../src/db/database.js";
import { servedInWorker } from "../../src/db/embedded.js";
import { migrate } from "../../src/db/migrations.js";

/** A throwaway database with the schema migrated, for tests and benchmarks. */
export type ScratchDatabase = {
  backend: "pglite" | "postgres";
  sql: Sql;
  /** The pool reads of the read models use, as `Database.reads`: generic plans on Postgres, `sql` itself on PGlite. */
  reads: Sql;
  /** A connection URL other processes can use to reach the same database. */
  url: string;
  close(): Promise<void>;
};

/** Migrated up to and including the file `through` (a test of the migration after it); all by default. */
type Migrated = { through?: string };

/**
 * A fresh PGlite served the way the embedded default serves it (behind the multiplexer, a
 * pool of 4); in memory, or in a temporary directory like the real data directory.
 */
export async function pgliteDatabase({
  onDisk = false,
  through,
}: Migrated & { onDisk?: boolean } = {}): Promise<ScratchDatabase> {
  const dataDir = onDisk ? await mkdtemp(path.join(os.tmpdir(), "cricket-scratch-")) : undefined;
  const served = await servedInWorker(dataDir ? { dataDir } : {});
  const url = `postgres://postgres@127.0.0.1:${served.port}/postgres`;
  const sql = postgres(url, { ...connectionOptions, max: 4 });
  await migrate(sql, { through });
  return {
    backend: "pglite",
    sql,
    reads: sql,
    url,
    async close() {
      await sql.end();
      await served.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A fresh database on a real Postgres server, pooled like src/db/database.ts, dropped on close. */
export async function postgresDatabase(serverUrl: string, { through }: Migrated = {}): Promise<ScratchDatabase> {
  const name = `cricket_scratch_${randomBytes(6).toString("hex")}`;
  const admin = postgres(serverUrl, { ...connectionOptions, max: 1 });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const sql = postgres(url.toString(), { ...connectionOptions, max: 10 });
  await migrate(sql, { through });
  const reads = postgres(url.toString(), { ...readOptions, max: 10 });
  return {
    backend: "postgres",
    sql,
    reads,
    url: url.toString(),
    async close() {
      await Promise.all([sql.end(), reads.end()]);
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
