import { type DeliveryState, deliveryStateSchema } from "../../../streams/fixture.js";
import { isUuid } from "../../../streams/shared.js";
import type { Sql } from "../../db/database.js";
import type { RefreshScope } from "../../submissions/scopes.js";

/**
 * Reads of the delivery history read model (src/projections/delivery-history.ts) and of the
 * current delivery's fixture and competition, which decide who may read it.
 */

/** A revision's whole state, as it was submitted (the sequence is the delivery's own). */
export type RevisionState = DeliveryState & { eventId: string; sequenceNumber: number };

type Origin = { submissionId: string; position: number } | null;

export type CorrectionEntry = {
  previousDeliveryId: string;
  replacementDeliveryId: string;
  previousRevision: number;
  revision: number;
  requestedBy: string;
  correctedAt: string;
  reason: string;
  previousState: RevisionState;
  resultingState: RevisionState;
  originalSubmission: Origin;
  /** Set when a batch publication made the correction; direct corrections have none. */
  batchItemId: string | null;
  /** The review a batch correction passed; direct corrections are accepted without one. */
  review: null;
  refreshedScopes: RefreshScope[];
};

export type DeliveryHistory = {
  eventId: string;
  fixtureId: string;
  currentRevision: number;
  recorded: {
    deliveryId: string;
    revision: 1;
    recordedBy: string;
    recordedAt: string;
    originalSubmission: Origin;
    state: RevisionState;
  };
  corrections: CorrectionEntry[];
};

/** The fixture of a current delivery and the competition it is played in; undefined when unknown. */
export async function deliveryFixture(
  sql: Sql,
  eventId: string,
): Promise<{ fixtureId: string; competitionId: string } | undefined> {
  if (!isUuid(eventId)) return undefined;
  const [row] = await sql<{ fixture_id: string; competition_id: string }[]>`
    select d.fixture_id, f.competition_id
    from delivery d join fixture f on f.fixture_id = d.fixture_id
    where d.event_id = ${eventId}::uuid`;
  return row && { fixtureId: row.fixture_id, competitionId: row.competition_id };
}

type RevisionRow = {
  revision: number;
  revision_event_id: string;
  fixture_id: string;
  sequence_number: number;
  actor: string;
  occurred_at: string;
  reason: string | null;
  state: unknown;
  submission_id: string | null;
  position: number | null;
  refreshed_scopes: RefreshScope[] | null;
};

/**
 * How a delivery was recorded and every correction since, oldest first; undefined when it
 * was never recorded. The delivery ids are the ids of the events holding each revision.
 */
export async function deliveryHistory(sql: Sql, eventId: string): Promise<DeliveryHistory | undefined> {
  const rows = await sql<RevisionRow[]>`
    select revision, revision_event_id::text, fixture_id, sequence_number, actor, occurred_at, reason, state,
           submission_id, position, refreshed_scopes
    from delivery_revision where event_id = ${eventId}::uuid order by revision`;
  const [first, ...later] = rows;
  if (first?.revision !== 1) return undefined;
  // jsonb keeps no key order: the schema puts the state's fields back in the submitted order.
  const stateOf = (row: RevisionRow): RevisionState => ({
    eventId,
    sequenceNumber: row.sequence_number,
    ...deliveryStateSchema.parse(row.state),
  });
  const originOf = (row: RevisionRow): Origin =>
    row.submission_id === null ? null : { submissionId: row.submission_id, position: row.position as number };
  return {
    eventId,
    fixtureId: first.fixture_id,
    currentRevision: rows.at(-1)?.revision ?? 1,
    recorded: {
      deliveryId: first.revision_event_id,
      revision: 1,
      recordedBy: first.actor,
      recordedAt: first.occurred_at,
      originalSubmission: originOf(first),
      state: stateOf(first),
    },
    corrections: later.map((row, i) => {
      const previous = rows[i] as RevisionRow;
      return {
        previousDeliveryId: previous.revision_event_id,
        replacementDeliveryId: row.revision_event_id,
        previousRevision: previous.revision,
        revision: row.revision,
        requestedBy: row.actor,
        correctedAt: row.occurred_at,
        reason: row.reason as string,
        previousState: stateOf(previous),
        resultingState: stateOf(row),
        originalSubmission: originOf(row),
        batchItemId: null,
        review: null,
        refreshedScopes: row.refreshed_scopes ?? [],
      };
    }),
  };
}
