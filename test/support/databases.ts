import { inject } from "vitest";
import { pgliteDatabase, postgresDatabase, type ScratchDatabase } from "./scratch-databases.js";

export { pgliteDatabase, postgresDatabase };
export type TestDatabase = ScratchDatabase;

export const postgresUrl = (): string | undefined => inject("postgresUrl");

/** Every backend this run can reach: PGlite always, real Postgres when one is given. */
export function backends(): {
  name: "pglite" | "postgres";
  available: boolean;
  /** `through`: migrated only up to that file (a test of a later migration). */
  open: (options?: { through?: string }) => Promise<TestDatabase>;
}[] {
  const url = postgresUrl();
  return [
    { name: "pglite", available: true, open: (options) => pgliteDatabase(options) },
    { name: "postgres", available: url !== undefined, open: (options) => postgresDatabase(url as string, options) },
  ];
}

/** The database a suite that needs just one uses: real Postgres when given, else PGlite. */
export function openTestDatabase(): Promise<TestDatabase> {
  const url = postgresUrl();
  return url ? postgresDatabase(url) : pgliteDatabase();
}
