import { expect } from "vitest";
import type { Sql } from "../../src/db/database.js";
import { createLogger } from "../../src/http/logging.js";
import { ReleaseGenerator } from "../../src/releases/generator.js";
import type { BearerClient } from "./account-api.js";
import type { CricketWorld } from "./cricket-world.js";

/** The release generator over a test's database and world, to drain by hand; its thread connects to `databaseUrl`. */
export const releaseGenerator = (db: { sql: Sql; url: string }, world: CricketWorld, databaseUrl = db.url) =>
  new ReleaseGenerator({
    sql: db.sql,
    store: world.store,
    logger: createLogger("silent"),
    projections: world.runner,
    databaseUrl,
    eventStoreUrl: undefined,
  });

/** A release of `version` asked for over HTTP by `token`'s administrator and generated: its job id. */
export async function aPublishedRelease(
  api: { api: BearerClient; db: { sql: Sql; url: string }; world: CricketWorld },
  token: string,
  version: string,
): Promise<string> {
  const requested = await api.api.post("/api/v1/admin/dataset-releases", { version }, { token });
  expect(requested.status, requested.text).toBe(202);
  await api.world.catchUp();
  expect(await releaseGenerator(api.db, api.world).drain()).toBe(1);
  await api.world.catchUp();
  return (requested.body as { data: { jobId: string } }).data.jobId;
}
