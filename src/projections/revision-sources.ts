import { CRICSHEET_IMPORT_ACTOR, type FixtureScheduled } from "../../streams/fixture.js";
import type { EventData } from "../../streams/types.js";
import type { Tx } from "../db/database.js";

/**
 * Where a delivery revision came from, as the `delivery_history` read model stores it. Each
 * way into the ledger is a `kind`; a correction's reason and corrector are the revision's
 * own, so they are not repeated here.
 */
export type CricsheetSource = {
  kind: "cricsheet";
  sourceId: string;
  revision: number;
  /** Null when the log does not say: revisions imported before the data version was kept. */
  dataVersion: string | null;
  createdOn: string;
};
/** The batch item a publication made the revision of, and the approval it was published under. */
export type BatchSource = {
  kind: "batch";
  batchReference: string;
  ordinal: number;
  review: { reviewerAccountId: string; reason: string; reviewedAt: string };
};
export type StoredSource =
  | CricsheetSource
  | { kind: "submission"; submissionId: string; position: number }
  | BatchSource
  | { kind: "correction" };

type ScheduledSource = NonNullable<EventData<typeof FixtureScheduled>["source"]>;

export const cricsheetSource = ({ sourceId, revision, dataVersion, createdOn }: ScheduledSource): CricsheetSource => ({
  kind: "cricsheet",
  sourceId,
  revision,
  dataVersion,
  createdOn,
});

/**
 * A correction the import made is the change of a re-issued file, the fixture's latest
 * source revision; any other is somebody's direct correction.
 */
export const correctionSource = (actor: string, fixtureSource: CricsheetSource | null): StoredSource | null =>
  byImport(actor) ? fixtureSource : { kind: "correction" };

/** Whether the import made a revision: a Cricsheet file's delivery, or a re-issued file's change of one. */
export const byImport = (actor: string) => actor === CRICSHEET_IMPORT_ACTOR;

/** The Cricsheet source each of the fixtures stands at now (fixtures without one are absent). */
export async function fixtureSources(tx: Tx, fixtureIds: string[]): Promise<Map<string, CricsheetSource>> {
  const rows = await tx<{ fixture_id: string; source: CricsheetSource }[]>`
    select fixture_id, source from history_fixture where fixture_id = any(${fixtureIds}) and source is not null`;
  return new Map(rows.map((r) => [r.fixture_id, r.source]));
}
