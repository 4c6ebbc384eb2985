import { randomUUID } from "node:crypto";
import type { Account } from "../../../streams/account-state.js";
import {
  type FixtureEvent,
  fixtureCatalogue,
  fixtureStream,
  recordingId,
  type SubmissionAccepted,
} from "../../../streams/fixture.js";
import type { FixtureState } from "../../../streams/fixture-state.js";
import type { EventData } from "../../../streams/types.js";
import type { Sql } from "../../db/database.js";
import { DuplicateEventId, type EventStore, WrongExpectedRevision } from "../../event-store/port.js";
import { mayCorrectAny } from "../../submissions/access.js";
import { deliveryFixture, referenceFacts } from "../../submissions/facts.js";
import { type RefreshScope, refreshedScopes } from "../../submissions/scopes.js";
import { namedIds } from "../../submissions/validate.js";
import { type CommandContext, type Decider, type HandleResult, handleCommand } from "../handle.js";
import { KeyedQueue } from "../serial.js";
import { type CorrectDelivery, correctDelivery } from "./correct.js";
import { DeliveryNotFound, LedgerConflict } from "./errors.js";
import { type SubmissionSource, type SubmitDeliveries, submitDeliveries } from "./submit.js";

export type Upload = NonNullable<EventData<typeof SubmissionAccepted>["upload"]>;
export type SubmissionReceipt = HandleResult & {
  submissionId: string;
  receivedAt: string;
  fixtureId: string;
  schemaVersion: EventData<typeof SubmissionAccepted>["schemaVersion"];
  eventCount: number;
};
export type Ledger = { store: EventStore; sql: Sql };

const fixtures = new KeyedQueue();

/**
 * Records a submission: the read models' facts are gathered once, the fixture's stream read
 * and every rule decided in one pass, and the record of it and its deliveries appended at once.
 */
export async function submit(
  { store, sql }: Ledger,
  { body, source, upload }: { body: unknown; source: SubmissionSource; upload: Upload | null },
  context: CommandContext,
): Promise<SubmissionReceipt> {
  const submissionId = randomUUID();
  const receivedAt = context.now.toISOString();
  const named = namedIds(body);
  const command: SubmitDeliveries = {
    body,
    source,
    facts: await referenceFacts(sql, named),
    record: { submissionId, submitterId: context.actor, receivedAt, upload },
  };
  // A body naming no fixture reads an empty stream: the decision then refuses the body alone.
  const fixtureId = named.fixtureId ?? "";
  try {
    const result = await handleOnFixture(store, fixtureId, submitDeliveries, command, context);
    const [accepted] = result.events;
    if (accepted?.type !== "SubmissionAccepted") throw new Error("a submission that stood appends its record first");
    return {
      ...result,
      submissionId,
      receivedAt,
      fixtureId,
      schemaVersion: accepted.data.schemaVersion,
      eventCount: accepted.data.eventIds.length,
    };
  } catch (error) {
    if (!(error instanceof DuplicateEventId)) throw error;
    // Another fixture recorded one of these deliveries after the facts were read.
    const stored = new Set(error.eventIds);
    throw new LedgerConflict(
      named.eventIds.flatMap((eventId, eventIndex) =>
        stored.has(recordingId(eventId))
          ? [{ code: "DUPLICATE_EVENT_ID", message: "This event id is already accepted", field: "eventId", eventIndex }]
          : [],
      ),
    );
  }
}

export type CorrectionOutcome = HandleResult & {
  /** What the correction did, as the decision that stood saw the fixture. */
  correction: {
    eventId: string;
    fixtureId: string;
    revision: number;
    previousRevision: number;
    changed: boolean;
    refreshedScopes: RefreshScope[];
  };
};

/** Appends the next revision of a live delivery, unless the replacement changes nothing. */
export async function correct(
  { store, sql }: Ledger,
  {
    eventId,
    readBody,
    corrector,
  }: {
    eventId: string;
    /** Read only once the corrector may correct, so a viewer learns nothing from how a body is judged. */
    readBody: () => Promise<unknown>;
    corrector: Account;
  },
  context: CommandContext,
): Promise<CorrectionOutcome> {
  mayCorrectAny(corrector);
  const fixtureId = (await deliveryFixture(sql, eventId))?.fixtureId;
  if (fixtureId === undefined) throw new DeliveryNotFound(eventId);
  const body = await readBody();
  // A correction keeps its delivery's id: no other fixture's ids need looking up.
  const facts = await referenceFacts(sql, { ...namedIds(body), eventIds: [] });
  // A racing correction may append before this one's turn. The answer (the revision replaced,
  // the scopes of the change) must describe the state this decision was taken on, so keep the
  // state of the last decision.
  let decidedOn: FixtureState | undefined;
  const decider: Decider<CorrectDelivery, FixtureState, FixtureEvent> = {
    ...correctDelivery,
    decide: (cmd, state) => {
      decidedOn = state;
      return correctDelivery.decide(cmd, state);
    },
  };
  const command = { fixtureId, eventId, body, facts, corrector };
  const result = await handleOnFixture(store, fixtureId, decider, command, context);
  const fixture = decidedOn as FixtureState;
  const previous = fixture.deliveries.get(eventId) as NonNullable<ReturnType<typeof fixture.deliveries.get>>;
  const [event] = result.events;
  const appended = event?.type === "DeliveryCorrected" ? event.data : undefined;
  return {
    ...result,
    correction: {
      eventId,
      fixtureId,
      revision: appended?.revision ?? previous.revision,
      previousRevision: previous.revision,
      changed: appended !== undefined,
      // Nothing changed, so no statistic needs refreshing.
      refreshedScopes: appended ? refreshedScopes(fixtureId, fixture, [previous.state, appended.delivery]) : [],
    },
  };
}

/**
 * Decides a command on a fixture's stream, one at a time in this process; a stream that
 * keeps moving under writers in other processes is an EVENT_CONFLICT to retry.
 */
export async function handleOnFixture<Command>(
  store: EventStore,
  fixtureId: string,
  decider: Decider<Command, FixtureState, FixtureEvent>,
  command: Command,
  context: CommandContext,
): Promise<HandleResult<FixtureEvent>> {
  const stream = fixtureStream(fixtureId);
  try {
    return await fixtures.run(stream, () => handleCommand(store, fixtureCatalogue, stream, decider, command, context));
  } catch (error) {
    // Only writers in other processes get here, after several fresh decisions all lost the race.
    if (error instanceof WrongExpectedRevision)
      throw new LedgerConflict([
        {
          code: "EVENT_CONFLICT",
          message: "The fixture kept changing while this was stored; retry",
          field: "fixtureId",
        },
      ]);
    throw error;
  }
}
