import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends, type TestDatabase } from "../support/databases.js";

const postgres = backends()[1] as ReturnType<typeof backends>[number];

// PGlite ignores connection settings (one session for every connection), so only Postgres can show them.
describe.skipIf(!postgres.available)("the sessions of each pool (Postgres)", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await postgres.open();
  });
  afterAll(() => db.close());

  const settings = async (sql: TestDatabase["sql"]) => {
    const [row] = await sql<{ jit: string; workers: string; plans: string; timeout: string }[]>`
      select current_setting('jit') as jit, current_setting('max_parallel_workers_per_gather') as workers,
             current_setting('plan_cache_mode') as plans, current_setting('statement_timeout') as timeout`;
    return row;
  };

  it("compile nothing and start no parallel workers, on the write pool and the read pool", async () => {
    // A setting postgres.js drops (it skips the number 0) would leave the server's default here.
    expect(await settings(db.sql)).toEqual({ jit: "off", workers: "0", plans: "force_custom_plan", timeout: "30s" });
    expect(await settings(db.reads)).toEqual({ jit: "off", workers: "0", plans: "force_generic_plan", timeout: "30s" });
  });
});
