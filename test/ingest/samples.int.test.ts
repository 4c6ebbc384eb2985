import { readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresEventStore } from "../../src/event-store/postgres.js";
import { loadSamplesIfEmpty, SAMPLE_DIRECTORY } from "../../src/ingest/samples.js";
import { openTestDatabase, type TestDatabase } from "../support/databases.js";

describe("the bundled sample on first start", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => db?.close());

  it("loads every sample match into an empty store, and nothing once there is data", async () => {
    const store = new PostgresEventStore(db.sql);
    const files = readdirSync(SAMPLE_DIRECTORY).filter((f) => f.endsWith(".json"));
    expect(files.length).toBeGreaterThanOrEqual(8);

    const first = await loadSamplesIfEmpty(store);
    expect(first).toMatchObject({ matches: files.length, imported: files.length, failed: [] });
    expect(await loadSamplesIfEmpty(store)).toBeUndefined();
  });
});
