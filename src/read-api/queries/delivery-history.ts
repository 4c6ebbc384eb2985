import type { Account } from "../../../streams/account-state.js";
import { type DeliveryState, deliveryStateSchema } from "../../../streams/fixture.js";
import { DeliveryNotFound } from "../../commands/submissions/errors.js";
import type { Sql } from "../../db/database.js";
import { REVISION_FIELDS } from "../../projections/delivery-history.js";
import type { StoredSource } from "../../projections/revision-sources.js";
import { mayCorrectAny, mayCorrectInCompetition } from "../../submissions/access.js";
import { deliveryFixture } from "../../submissions/facts.js";
import type { RefreshScope } from "../../submissions/scopes.js";

/** Reads of the delivery history read model (src/projections/delivery-history.ts). */

/** A revision's whole state, as it was submitted (the sequence is the delivery's own). */
export type RevisionState = DeliveryState & { eventId: string; sequenceNumber: number };

type Origin = { submissionId: string; position: number } | null;

/** Who recorded or corrected: an account with its display name, or a process (`cricsheet-import`) without one. */
export type Actor = { id: string; name: string | null };

export type CorrectionEntry = {
  previousDeliveryId: string;
  replacementDeliveryId: string;
  previousRevision: number;
  revision: number;
  requestedBy: Actor;
  correctedAt: string;
  reason: string;
  previousState: RevisionState;
  resultingState: RevisionState;
  originalSubmission: Origin;
  /** `<batchReference>:<ordinal>` when a batch publication made the correction; null for a direct one. */
  batchItemId: string | null;
  /** The review a batch correction passed; direct corrections are accepted without one. */
  review: { reviewer: string; decision: "approved"; reviewedAt: string; reason: string } | null;
  refreshedScopes: RefreshScope[];
};

export type DeliveryHistory = {
  eventId: string;
  fixtureId: string;
  currentRevision: number;
  recorded: {
    deliveryId: string;
    revision: 1;
    recordedBy: Actor;
    recordedAt: string;
    originalSubmission: Origin;
    state: RevisionState;
  };
  corrections: CorrectionEntry[];
};

/**
 * Refuses `account` a delivery's history or provenance unless it may correct the delivery:
 * who may correct a delivery may read how it came to be. Viewers are refused before anything
 * is looked up, submitters once the delivery's competition is known.
 */
export async function mayReadHowItCame(sql: Sql, account: Account, eventId: string): Promise<void> {
  mayCorrectAny(account);
  const competitionId = (await deliveryFixture(sql, eventId))?.competitionId;
  if (!competitionId) throw new DeliveryNotFound(eventId);
  mayCorrectInCompetition(account, competitionId);
}

/** A delivery's history as `account` may read it. */
export async function readableHistory(sql: Sql, account: Account, eventId: string): Promise<DeliveryHistory> {
  await mayReadHowItCame(sql, account, eventId);
  const history = await deliveryHistory(sql, eventId);
  if (!history) throw new DeliveryNotFound(eventId);
  return history;
}

export type RevisionRow = {
  event_id: string;
  revision: number;
  revision_event_id: string;
  fixture_id: string;
  sequence_number: number;
  actor: string;
  actor_name: string | null;
  /** The display name of the reviewer who approved a batch's revision; null for any other. */
  reviewer_name: string | null;
  occurred_at: string;
  reason: string | null;
  state: unknown;
  submission_id: string | null;
  position: number | null;
  refreshed_scopes: RefreshScope[] | null;
  source: StoredSource | null;
};

/**
 * Every revision of the deliveries, by event id then oldest first, with the display name of
 * whoever made each; none for a delivery never recorded (revision 1 is there when any is).
 * Each fixture's revisions are one compressed value (src/projections/delivery-history.ts):
 * it is unpacked once here, however many of its deliveries are asked for (100 of a
 * fixture's: about 6 ms; through the `delivery_revision` view, which unpacks it once per
 * delivery, 9 ms).
 */
export const revisionRows = (sql: Sql, eventIds: readonly string[]) =>
  sql<RevisionRow[]>`
    with wanted as materialized (
      select event_id::text as event_id, fixture_key from history_delivery where event_id = any(${eventIds}::uuid[])
    ), unpacked as materialized (
      select h.fixture_key, h.fixture_id, e.key as event_id, e.value as revisions
      from history_revisions h cross join lateral jsonb_each(h.revisions) e
      where h.fixture_key in (select fixture_key from wanted)
    )
    select w.event_id, r.revision, r.revision_event_id::text, u.fixture_id, r.sequence_number, r.actor,
           a.display_name as actor_name, v.display_name as reviewer_name, r.occurred_at, r.reason, r.state,
           r.submission_id, r.position, r.refreshed_scopes, r.source
    from wanted w
      join unpacked u on u.fixture_key = w.fixture_key and u.event_id = w.event_id
      cross join lateral jsonb_to_recordset(u.revisions) as r(${sql.unsafe(REVISION_FIELDS)})
      left join account a on a.account_id = r.actor
      left join account v on v.account_id = r.source->'review'->>'reviewerAccountId'
    order by w.event_id, r.revision`;

/** A revision's whole state; jsonb keeps no key order, so the schema puts the fields back in the submitted order. */
export const revisionState = (eventId: string, row: RevisionRow): RevisionState => ({
  eventId,
  sequenceNumber: row.sequence_number,
  ...deliveryStateSchema.parse(row.state),
});

export const actorOf = (row: RevisionRow): Actor => ({ id: row.actor, name: row.actor_name });

/** The batch item a revision was published from, and the approval it passed; none for any other. */
function batchOf({ source }: RevisionRow): Pick<CorrectionEntry, "batchItemId" | "review"> {
  if (source?.kind !== "batch") return { batchItemId: null, review: null };
  const { reviewerAccountId, reviewedAt, reason } = source.review;
  return {
    batchItemId: `${source.batchReference}:${source.ordinal}`,
    review: { reviewer: reviewerAccountId, decision: "approved", reviewedAt, reason },
  };
}

/**
 * How a delivery was recorded and every correction since, oldest first; undefined when it
 * was never recorded. The delivery ids are the ids of the events holding each revision.
 */
async function deliveryHistory(sql: Sql, eventId: string): Promise<DeliveryHistory | undefined> {
  const rows = await revisionRows(sql, [eventId]);
  const [first, ...later] = rows;
  if (first?.revision !== 1) return undefined;
  const stateOf = (row: RevisionRow) => revisionState(eventId, row);
  const originOf = (row: RevisionRow): Origin =>
    row.submission_id === null ? null : { submissionId: row.submission_id, position: row.position as number };
  return {
    eventId,
    fixtureId: first.fixture_id,
    currentRevision: rows.at(-1)?.revision ?? 1,
    recorded: {
      deliveryId: first.revision_event_id,
      revision: 1,
      recordedBy: actorOf(first),
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
        requestedBy: actorOf(row),
        correctedAt: row.occurred_at,
        reason: row.reason as string,
        previousState: stateOf(previous),
        resultingState: stateOf(row),
        originalSubmission: originOf(row),
        ...batchOf(row),
        refreshedScopes: row.refreshed_scopes ?? [],
      };
    }),
  };
}
