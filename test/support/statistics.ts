import { expect } from "vitest";
import { importCricsheet } from "../../src/ingest/cricsheet/import.js";
import type { CricketWorld } from "./cricket-world.js";
import { cricsheetFile } from "./cricsheet.js";

/**
 * Imports real Cricsheet matches (paths relative to the shared data) and catches every
 * projector up. Matches that fail are imported again (the import is idempotent): concurrent
 * matches adding the same new dismissal kinds can exhaust the command's conflict retries.
 */
export async function importMatches(world: CricketWorld, relative: readonly string[]): Promise<void> {
  let pending = relative.map(cricsheetFile);
  for (let round = 0; pending.length > 0 && round < 5; round++) {
    const summary = await importCricsheet(world.store, pending);
    pending = summary.failed.map((f) => f.source);
  }
  expect(pending, "Cricsheet files that would not import").toEqual([]);
  await world.catchUp();
}
