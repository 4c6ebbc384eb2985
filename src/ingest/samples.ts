import { fileURLToPath } from "node:url";
import { comparePositions, type EventStore, START } from "../event-store/port.js";
import { type ImportSummary, importCricsheet } from "./cricsheet/import.js";

export const SAMPLE_DIRECTORY = fileURLToPath(new URL("../../samples/cricsheet/", import.meta.url));

/**
 * Loads the bundled Cricsheet sample when the event store is empty, so the embedded
 * default shows real fixtures on its first start. Returns undefined when there was data.
 */
export async function loadSamplesIfEmpty(store: EventStore): Promise<ImportSummary | undefined> {
  // The head, not a read: a read sees nothing while any older transaction on the server runs.
  if (comparePositions(await store.head(), START) > 0) return undefined;
  return importCricsheet(store, [SAMPLE_DIRECTORY]);
}
