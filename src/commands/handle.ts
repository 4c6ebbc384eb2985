import { randomUUID } from "node:crypto";
import type { EventDefinition, UntypedEvent } from "../../streams/catalogue.js";
import type { EventMetadata } from "../../streams/envelope.js";
import {
  type AppendResult,
  type EventStore,
  type Position,
  type RecordedEvent,
  START,
  WrongExpectedRevision,
} from "../event-store/port.js";

/** `id`, when a decider sets one, is the envelope id: a fact the whole log may hold only once. */
export type DecidedEvent<Event extends UntypedEvent = UntypedEvent> = Event & { id?: string };

/**
 * The pure parts of a command: fold a stream into state, decide what happens next. `Event`
 * is the stream's union (`FixtureEvent`); a decider spanning several streams' generic
 * registrations keeps the untyped default and relies on the catalogue's check on append.
 */
export type Decider<Command, State, Event extends UntypedEvent = UntypedEvent> = {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  /** Returns the new events, or throws a DomainError. Must be pure: `now` and lookups come in the command. */
  decide: (command: Command, state: State) => DecidedEvent<Event>[];
};

/**
 * What a command needs of a catalogue: events validated into the decider's union, and each
 * type's definition. A stream's catalogue (`fixtureCatalogue`) also refuses another
 * stream's events; the whole `catalogue` serves deciders with the untyped default.
 */
export type CommandCatalogue<Event extends UntypedEvent> = {
  event(event: UntypedEvent): Event;
  definition(type: string): EventDefinition;
};

export type CommandContext = { actor: string; requestId?: string; correlationId?: string; now: Date };

export type HandleResult<Event extends UntypedEvent = UntypedEvent> = AppendResult & {
  events: (Event & { id: string })[];
};

const MAX_ATTEMPTS = 5;

/** What folding a stream needs of a decider. */
export type Fold<State, Event extends UntypedEvent> = Pick<Decider<never, State, Event>, "initialState" | "evolve">;

/** A stream's events and the state they fold into, each event checked against the catalogue. */
export async function loadStream<State, Event extends UntypedEvent>(
  store: EventStore,
  catalogue: CommandCatalogue<Event>,
  streamId: string,
  decider: Fold<State, Event>,
): Promise<{ history: RecordedEvent[]; state: State }> {
  const history = await store.readStream(streamId);
  const state = history.reduce((s, e) => decider.evolve(s, catalogue.event(e)), decider.initialState());
  return { history, state };
}

/** Where a stream stands: its state folded up to `revision` (-1: no stream yet), and that event's position. */
export type StreamState<State> = { state: State; revision: number; position: Position };

/** How a command reads its stream's state; by default the whole stream, folded (see also FoldedStreams). */
export type StreamLoader<State> = (streamId: string) => Promise<StreamState<State>>;

const wholeStream =
  <State, Event extends UntypedEvent>(
    store: EventStore,
    catalogue: CommandCatalogue<Event>,
    decider: Fold<State, Event>,
  ): StreamLoader<State> =>
  async (streamId) => {
    const { history, state } = await loadStream(store, catalogue, streamId, decider);
    return { state, revision: history.length - 1, position: history.at(-1)?.position ?? START };
  };

/**
 * Loads the stream's state, decides and appends with the revision it was folded to. When
 * another writer got there first the state is loaded again and the command decided again,
 * a bounded number of times, so a decision is never taken on stale state.
 */
export async function handleCommand<Command, State, Event extends UntypedEvent>(
  store: EventStore,
  catalogue: CommandCatalogue<Event>,
  streamId: string,
  decider: Decider<Command, State, Event>,
  command: Command,
  context: CommandContext,
  load: StreamLoader<State> = wholeStream(store, catalogue, decider),
): Promise<HandleResult<Event>> {
  for (let attempt = 1; ; attempt++) {
    const { state, revision, position } = await load(streamId);
    const decided = decider.decide(command, state);
    if (decided.length === 0) return { nextRevision: revision, position, events: [] };
    const metadata: Omit<EventMetadata, "schemaVersion"> = {
      actor: context.actor,
      occurredAt: context.now.toISOString(),
      ...(context.requestId ? { requestId: context.requestId } : {}),
      ...(context.correlationId ? { correlationId: context.correlationId } : {}),
    };
    const events = decided.map(({ id, ...decidedEvent }) => ({
      ...catalogue.event(decidedEvent),
      id: id ?? randomUUID(),
      metadata: { ...metadata, schemaVersion: catalogue.definition(decidedEvent.type).version },
    }));
    try {
      const result = await store.append(streamId, events, revision === -1 ? "no_stream" : revision);
      return { ...result, events };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevision) || attempt >= MAX_ATTEMPTS) throw error;
    }
    // A random pause, longer after each loss (up to 5, 10, 20, 40 ms), so that writers racing
    // from other processes fall out of step instead of colliding again on every attempt.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** (attempt - 1)));
  }
}
