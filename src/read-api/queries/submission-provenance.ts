import type { Account } from "../../../streams/account-state.js";
import { SubmissionNotFound } from "../../commands/submissions/errors.js";
import type { Sql } from "../../db/database.js";
import { mayCorrectAny, mayCorrectInCompetition } from "../../submissions/access.js";
import { type Actor, revisionRows } from "./delivery-history.js";

/**
 * Submission provenance, read from the `submission_record` table of the `delivery_history`
 * read model: who sent a direct submission, when, what exactly (digests of the payload and
 * of any uploaded file), and what became of each of its events.
 */

type Upload = { filename: string; mediaType: string; byteLength: number; sha256: string };

export type SubmissionItem = {
  /** Zero-based index in the submission's events (its data row, for a CSV upload). */
  position: number;
  eventId: string;
  /** A submission is atomic: every event of an accepted one was accepted. */
  outcome: "accepted";
  currentRevision: number;
  provenance: string;
};

export type SubmissionProvenance = {
  submissionId: string;
  fixtureId: string;
  submittedBy: Actor;
  receivedAt: string;
  schemaVersion: string;
  payloadSha256: string;
  upload: Upload | null;
  items: SubmissionItem[];
};

type RecordRow = {
  fixture_id: string;
  competition_id: string | null;
  submitter_id: string;
  submitter_name: string | null;
  received_at: string;
  schema_version: string;
  payload_sha256: string;
  upload: Upload | null;
  /** In submitted order. */
  event_ids: string[];
};

export const eventProvenancePath = (eventId: string) => `/api/v1/provenance/events/${eventId}`;

/**
 * A submission's provenance as `account` may read it: an administrator, or a submitter in
 * the competition of the fixture it was sent to. Viewers learn nothing, not even whether it exists.
 */
export async function readableSubmissionProvenance(
  sql: Sql,
  account: Account,
  submissionId: string,
): Promise<SubmissionProvenance> {
  mayCorrectAny(account);
  const [record] = await sql<RecordRow[]>`
    select s.fixture_id, f.competition_id, s.submitter_id, a.display_name as submitter_name, s.received_at,
           s.schema_version, s.payload_sha256, s.upload, s.event_ids
    from submission_record s
    left join fixture f on f.fixture_id = s.fixture_id
    left join account a on a.account_id = s.submitter_id
    where s.submission_id = ${submissionId}`;
  if (!record?.competition_id) throw new SubmissionNotFound(submissionId);
  mayCorrectInCompetition(account, record.competition_id);
  const current = new Map<string, number>();
  for (const row of await revisionRows(sql, record.event_ids)) current.set(row.event_id, row.revision);
  return {
    submissionId,
    fixtureId: record.fixture_id,
    submittedBy: { id: record.submitter_id, name: record.submitter_name },
    receivedAt: record.received_at,
    schemaVersion: record.schema_version,
    payloadSha256: record.payload_sha256,
    upload: record.upload,
    items: record.event_ids.flatMap((eventId, position) => {
      const currentRevision = current.get(eventId.toLowerCase());
      if (currentRevision === undefined) return [];
      return [
        { position, eventId, outcome: "accepted" as const, currentRevision, provenance: eventProvenancePath(eventId) },
      ];
    }),
  };
}
