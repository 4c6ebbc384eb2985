import { randomUUID } from "node:crypto";
import type { EventCatalogue } from "../../streams/catalogue.js";
import type { EventMetadata } from "../../streams/envelope.js";
import {
  type AppendResult,
  type EventStore,
  type RecordedEvent,
  START,
  WrongExpectedRevision,
} from "../event-store/port.js";

/** `id`, when a decider sets one, is the envelope id: a fact the whole log may hold only once. */
export type DecidedEvent = { type: string; data: unknown; id?: string };

/** The pure parts of a command: fold a stream into state, decide what happens next. */
export type Decider<Command, State> = {
  initialState: () => State;
  evolve: (state: State, event: { type: string; data: unknown }) => State;
  /** Returns the new events, or throws a DomainError. Must be pure: `now` and lookups come in the command. */
  decide: (command: Command, state: State) => DecidedEvent[];
};

export type CommandContext = { actor: string; requestId?: string; correlationId?: string; now: Date };

export type HandleResult = AppendResult & { events: RecordedEventLike[] };
type RecordedEventLike = Pick<RecordedEvent, "id" | "type" | "data">;

const MAX_ATTEMPTS = 5;

/** A stream's events and the state they fold into, each event checked against the catalogue. */
export async function loadStream<State>(
  store: EventStore,
  catalogue: EventCatalogue,
  streamId: string,
  decider: Pick<Decider<never, State>, "initialState" | "evolve">,
): Promise<{ history: RecordedEvent[]; state: State }> {
  const history = await store.readStream(streamId);
  const state = history.reduce(
    (s, e) => decider.evolve(s, { type: e.type, data: catalogue.parse(e.type, e.data) }),
    decider.initialState(),
  );
  return { history, state };
}

/**
 * Loads the stream, folds it, decides and appends with the revision it read. When another
 * writer got there first the stream is read again and the command decided again, a bounded
 * number of times, so a decision is never taken on stale state.
 */
export async function handleCommand<Command, State>(
  store: EventStore,
  catalogue: EventCatalogue,
  streamId: string,
  decider: Decider<Command, State>,
  command: Command,
  context: CommandContext,
): Promise<HandleResult> {
  for (let attempt = 1; ; attempt++) {
    const { history, state } = await loadStream(store, catalogue, streamId, decider);
    const decided = decider.decide(command, state);
    if (decided.length === 0) {
      return {
        nextRevision: history.length - 1,
        position: history.at(-1)?.position ?? START,
        events: [],
      };
    }
    const metadata: EventMetadata = {
      actor: context.actor,
      occurredAt: context.now.toISOString(),
      schemaVersion: 1,
      ...(context.requestId ? { requestId: context.requestId } : {}),
      ...(context.correlationId ? { correlationId: context.correlationId } : {}),
    };
    const events = decided.map((e) => ({
      id: e.id ?? randomUUID(),
      type: e.type,
      data: catalogue.parse(e.type, e.data),
      metadata,
    }));
    try {
      const result = await store.append(streamId, events, history.length === 0 ? "no_stream" : history.length - 1);
      return { ...result, events };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevision) || attempt >= MAX_ATTEMPTS) throw error;
    }
    // A random pause, longer after each loss (up to 5, 10, 20, 40 ms), so that writers racing
    // from other processes fall out of step instead of colliding again on every attempt.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** (attempt - 1)));
  }
}
