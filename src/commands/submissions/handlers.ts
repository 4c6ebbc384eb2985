import { createHash, randomUUID } from "node:crypto";
import canonicalize from "canonicalize";
import {
  type DeliveryState,
  type FixtureEvent,
  fixtureCatalogue,
  fixtureStream,
  recordingId,
  type SubmissionAccepted,
} from "../../../streams/fixture.js";
import type { FixtureState } from "../../../streams/fixture-state.js";
import type { EventData } from "../../../streams/types.js";
import { DuplicateEventId, type EventStore, WrongExpectedRevision } from "../../event-store/port.js";
import type { DirectSubmission } from "../../submissions/schema.js";
import { type CommandContext, type Decider, type HandleResult, handleCommand } from "../handle.js";
import { KeyedQueue } from "../serial.js";
import { type CorrectDelivery, correctDelivery } from "./correct.js";
import { LedgerConflict } from "./errors.js";
import { submitDeliveries } from "./submit.js";

export type Upload = NonNullable<EventData<typeof SubmissionAccepted>["upload"]>;
export type SubmissionReceipt = HandleResult & { submissionId: string; receivedAt: string };

const fixtures = new KeyedQueue();

/** Accepts a validated submission: its record and deliveries in one append to the fixture's ledger. */
export async function submit(
  store: EventStore,
  { submission, upload }: { submission: DirectSubmission; upload: Upload | null },
  context: CommandContext,
): Promise<SubmissionReceipt> {
  const submissionId = randomUUID();
  const receivedAt = context.now.toISOString();
  const record = {
    submissionId,
    submitterId: context.actor,
    receivedAt,
    payloadSha256: sha256(canonicalize(submission) ?? ""),
    upload,
  };
  try {
    const result = await handle(store, submission.fixtureId, submitDeliveries, { submission, record }, context);
    return { ...result, submissionId, receivedAt };
  } catch (error) {
    if (!(error instanceof DuplicateEventId)) throw error;
    // Another fixture recorded one of these deliveries after the checks read the read models.
    const stored = new Set(error.eventIds);
    throw new LedgerConflict(
      "DUPLICATE_EVENT_ID",
      submission.events.flatMap((e, eventIndex) =>
        stored.has(recordingId(e.eventId))
          ? [{ code: "DUPLICATE_EVENT_ID", message: "This event id is already accepted", field: "eventId", eventIndex }]
          : [],
      ),
    );
  }
}

export type CorrectionOutcome = HandleResult & {
  /** The fixture as the decision that stood saw it: the live revision it replaced (or kept) is in it. */
  decidedOn: FixtureState;
};

/** Appends the next revision of a live delivery, unless the replacement changes nothing. */
export async function correct(
  store: EventStore,
  command: { fixtureId: string; eventId: string; reason: string; delivery: DeliveryState },
  context: CommandContext,
): Promise<CorrectionOutcome> {
  // What the caller read before its turn in the queue may be stale: a racing correction may have
  // appended since. The answer (the revision replaced, the scopes of the change) must describe
  // the state this decision was taken on, so keep the state of the last decision.
  let decidedOn: FixtureState | undefined;
  const decider: Decider<CorrectDelivery, FixtureState, FixtureEvent> = {
    ...correctDelivery,
    decide: (cmd, state) => {
      decidedOn = state;
      return correctDelivery.decide(cmd, state);
    },
  };
  const result = await handle(store, command.fixtureId, decider, command, context);
  return { ...result, decidedOn: decidedOn as FixtureState };
}

export const sha256 = (content: string | Uint8Array) => createHash("sha256").update(content).digest("hex");

async function handle<Command>(
  store: EventStore,
  fixtureId: string,
  decider: Decider<Command, Parameters<typeof submitDeliveries.evolve>[0], FixtureEvent>,
  command: Command,
  context: CommandContext,
): Promise<HandleResult> {
  const stream = fixtureStream(fixtureId);
  try {
    return await fixtures.run(stream, () => handleCommand(store, fixtureCatalogue, stream, decider, command, context));
  } catch (error) {
    // Only writers in other processes get here, after several fresh decisions all lost the race.
    if (error instanceof WrongExpectedRevision)
      throw new LedgerConflict("EVENT_CONFLICT", [
        {
          code: "EVENT_CONFLICT",
          message: "The fixture kept changing while this was stored; retry",
          field: "fixtureId",
        },
      ]);
    throw error;
  }
}
