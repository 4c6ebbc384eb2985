import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { type FixtureEvent, recordDelivery, type SubmissionAccepted } from "../../../streams/fixture.js";
import { evolveFixture, type FixtureState, initialFixtureState } from "../../../streams/fixture-state.js";
import type { EventData } from "../../../streams/types.js";
import { ledgerDelivery } from "../../submissions/schema.js";
import { checkSubmission, type ReferenceFacts } from "../../submissions/validate.js";
import type { Problem } from "../errors.js";
import type { DecidedEvent, Decider } from "../handle.js";
import { refuseProblems } from "./errors.js";

/** How an input format presents a submission: the problems only it shows, and its names for an event's fields. */
export type SubmissionSource = { problems: Problem[]; field: (path: string) => string };

/** A JSON body: nothing of its own to report, and fields named as the JSON names them. */
export const JSON_SOURCE: SubmissionSource = { problems: [], field: (path) => path };

/** A submission as sent, what the read models say about it, and what is retained about it. */
export type SubmitDeliveries = {
  body: unknown;
  source: SubmissionSource;
  facts: ReferenceFacts;
  record: Omit<EventData<typeof SubmissionAccepted>, "eventIds" | "schemaVersion" | "payloadSha256">;
};

/**
 * Requirements:
 * - every detectable problem in one pass: structure, references (fixture, innings, squads,
 *   dismissal kinds, the format's overs), order within the submission, and conflicts with
 *   the ledger (an event id already accepted; a sequence number or ball of an innings held
 *   by a live delivery, or an order crossing one);
 * - problems the sender must mend are 422 with every conflict beside them; conflicts alone
 *   are 409 (DUPLICATE_EVENT_ID when all are accepted ids, else EVENT_CONFLICT);
 * - a submission is all or nothing: the record of it and every delivery in one append, each
 *   delivery revision 1 naming its submission.
 */
export const submitDeliveries: Decider<SubmitDeliveries, FixtureState, FixtureEvent> = {
  initialState: initialFixtureState,
  evolve: evolveFixture,
  decide: ({ body, source, facts, record }, fixture) => {
    const found = checkSubmission(body, fixture, facts);
    const named = (p: Problem) => (p.eventIndex === undefined ? p : { ...p, field: source.field(p.field) });
    refuseProblems("submission", {
      invalid: [...found.invalid.map(named), ...source.problems],
      conflicts: found.conflicts.map(named),
    });
    const submission = found.value as NonNullable<typeof found.value>;
    const accepted: DecidedEvent<FixtureEvent> = {
      type: "SubmissionAccepted",
      data: {
        ...record,
        schemaVersion: submission.schemaVersion,
        payloadSha256: sha256(canonicalize(submission) ?? ""),
        eventIds: submission.events.map((e) => e.eventId),
      },
    };
    return [
      accepted,
      ...submission.events.map((e) =>
        recordDelivery({
          ...ledgerDelivery(e),
          eventId: e.eventId,
          sequenceNumber: e.sequenceNumber,
          submissionId: record.submissionId,
        }),
      ),
    ];
  },
};

export const sha256 = (content: string | Uint8Array) => createHash("sha256").update(content).digest("hex");
