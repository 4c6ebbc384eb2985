import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { inject } from "vitest";
import { connectionOptions, type Sql } from "../../src/db/database.js";
import { migrate } from "../../src/db/migrations.js";
import { PGliteMultiplexer } from "../../src/db/pglite-multiplexer.js";

export type TestDatabase = {
  backend: "pglite" | "postgres";
  sql: Sql;
  /** A connection URL other processes can use to reach the same database. */
  url: string;
  close(): Promise<void>;
};

/** A fresh in-memory PGlite served the same way the embedded default serves it. */
export async function pgliteDatabase(): Promise<TestDatabase> {
  const db = await PGlite.create();
  const multiplexer = new PGliteMultiplexer(db);
  const port = await multiplexer.listen();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const sql = postgres(url, { ...connectionOptions, max: 4 });
  await migrate(sql);
  return {
    backend: "pglite",
    sql,
    url,
    async close() {
      await sql.end();
      await multiplexer.close();
      await db.close();
    },
  };
}

/** A fresh database on the real Postgres server, dropped on close. */
export async function postgresDatabase(serverUrl: string): Promise<TestDatabase> {
  const name = `cricket_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(serverUrl, { ...connectionOptions, max: 1 });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const sql = postgres(url.toString(), { ...connectionOptions, max: 10 });
  await migrate(sql);
  return {
    backend: "postgres",
    sql,
    url: url.toString(),
    async close() {
      await sql.end();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

export const postgresUrl = (): string | undefined => inject("postgresUrl");

/** Every backend this run can reach: PGlite always, real Postgres when one is given. */
export function backends(): { name: "pglite" | "postgres"; available: boolean; open: () => Promise<TestDatabase> }[] {
  const url = postgresUrl();
  return [
    { name: "pglite", available: true, open: pgliteDatabase },
    { name: "postgres", available: url !== undefined, open: () => postgresDatabase(url as string) },
  ];
}

/** The database a suite that needs just one uses: real Postgres when given, else PGlite. */
export function openTestDatabase(): Promise<TestDatabase> {
  const url = postgresUrl();
  return url ? postgresDatabase(url) : pgliteDatabase();
}
