import type { Account } from "../../../streams/account-state.js";
import { DeliveryNotFound } from "../../commands/submissions/errors.js";
import type { Sql } from "../../db/database.js";
import type { CricsheetSource } from "../../projections/revision-sources.js";
import {
  type Actor,
  actorOf,
  mayReadHowItCame,
  type RevisionRow,
  type RevisionState,
  revisionRows,
  revisionState,
} from "./delivery-history.js";

/**
 * Event-revision provenance, read from the `delivery_history` read model: every revision of
 * one delivery with where it came from and the complete states before and after it.
 */

export type RevisionSource =
  | CricsheetSource
  | { kind: "submission"; submissionId: string; position: number; submittedBy: Actor; provenance: string }
  | {
      kind: "batch";
      batchReference: string;
      ordinal: number;
      publishedBy: Actor;
      review: { reviewedBy: Actor; decision: "approved"; reason: string; reviewedAt: string };
      batch: string;
    }
  | { kind: "correction"; correctedBy: Actor; reason: string };

export type RevisionProvenance = {
  revision: number;
  /** Id of the event holding this revision. */
  deliveryId: string;
  recordedBy: Actor;
  recordedAt: string;
  /** Null for revision 1. */
  reason: string | null;
  /** Null only when the log names no source for the revision. */
  source: RevisionSource | null;
  /** Null for revision 1. */
  previousState: RevisionState | null;
  resultingState: RevisionState;
};

export type EventProvenance = {
  eventId: string;
  fixtureId: string;
  currentRevision: number;
  revisions: RevisionProvenance[];
};

export const submissionProvenancePath = (submissionId: string) =>
  `/api/v1/provenance/submissions/${encodeURIComponent(submissionId)}`;

/** A revision's source as answered: the stored one, with who submitted or corrected (the revision's actor). */
export function sourceOf(row: RevisionRow): RevisionSource | null {
  const source = row.source;
  switch (source?.kind) {
    case undefined:
      return null;
    case "cricsheet": {
      // jsonb keeps no key order: the fields go back in the documented order.
      const { sourceId, revision, dataVersion, createdOn } = source;
      return { kind: "cricsheet", sourceId, revision, dataVersion, createdOn };
    }
    case "submission":
      return {
        kind: "submission",
        submissionId: source.submissionId,
        position: source.position,
        submittedBy: actorOf(row),
        provenance: submissionProvenancePath(source.submissionId),
      };
    case "batch": {
      const { reviewerAccountId, reason, reviewedAt } = source.review;
      return {
        kind: "batch",
        batchReference: source.batchReference,
        ordinal: source.ordinal,
        publishedBy: actorOf(row),
        review: {
          reviewedBy: { id: reviewerAccountId, name: row.reviewer_name },
          decision: "approved",
          reason,
          reviewedAt,
        },
        batch: `/api/v1/batches/${source.batchReference}`,
      };
    }
    case "correction":
      return { kind: "correction", correctedBy: actorOf(row), reason: row.reason as string };
  }
}

/** A revision as provenance answers it, but for the states it replaced and made. */
export const revisionOf = (row: RevisionRow): Omit<RevisionProvenance, "previousState" | "resultingState"> => ({
  revision: row.revision,
  deliveryId: row.revision_event_id,
  recordedBy: actorOf(row),
  recordedAt: row.occurred_at,
  reason: row.reason,
  source: sourceOf(row),
});

/** Every revision of a delivery, oldest first, as `account` may read them (the history's rule). */
export async function readableEventProvenance(sql: Sql, account: Account, eventId: string): Promise<EventProvenance> {
  await mayReadHowItCame(sql, account, eventId);
  const rows = await revisionRows(sql, [eventId]);
  const [first] = rows;
  if (!first) throw new DeliveryNotFound(eventId);
  const states = rows.map((row) => revisionState(eventId, row));
  return {
    eventId,
    fixtureId: first.fixture_id,
    currentRevision: rows.at(-1)?.revision ?? 1,
    revisions: rows.map((row, i) => ({
      ...revisionOf(row),
      previousState: states[i - 1] ?? null,
      resultingState: states[i] as RevisionState,
    })),
  };
}
