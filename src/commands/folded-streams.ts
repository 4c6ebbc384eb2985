import type { UntypedEvent } from "../../streams/catalogue.js";
import { Lru } from "../cache/lru.js";
import { type EventStore, START } from "../event-store/port.js";
import type { CommandCatalogue, Fold, StreamLoader, StreamState } from "./handle.js";

/**
 * A process's folds of the streams it reads often (a caller's account, on every request),
 * each kept with the revision it was folded to. A load reads only the events after that
 * revision, one indexed query that finds none when nothing changed, and folds them on. So
 * the state is always the stream's state when the load began, whichever process appended
 * to it: a fold kept here is never trusted without asking the store what came since.
 *
 * The log is append-only and a stream's revisions have no gaps (an append claims the next
 * revisions atomically), so the events after the kept revision are all that can differ.
 * Folds are kept per store: revisions of one log say nothing about another's.
 */
export class FoldedStreams<State, Event extends UntypedEvent> {
  private readonly folds: Lru<StreamState<State>>;

  constructor(
    private readonly store: EventStore,
    private readonly catalogue: CommandCatalogue<Event>,
    private readonly fold: Fold<State, Event>,
    maxStreams: number,
  ) {
    this.folds = new Lru(maxStreams);
  }

  /** The stream's current state; a StreamLoader for handleCommand. */
  readonly load: StreamLoader<State> = async (streamId) => {
    const known = this.folds.get(streamId) ?? { state: this.fold.initialState(), revision: -1, position: START };
    const newer = await this.store.readStream(streamId, { fromRevision: known.revision + 1 });
    const last = newer.at(-1);
    if (!last) return known;
    const state = newer.reduce((s, e) => this.fold.evolve(s, this.catalogue.event(e)), known.state);
    const current = { state, revision: last.revision, position: last.position };
    this.folds.set(streamId, current);
    return current;
  };
}

/** One FoldedStreams per store, made on first use and gone with the store. */
export function foldsPerStore<State, Event extends UntypedEvent>(
  make: (store: EventStore) => FoldedStreams<State, Event>,
): (store: EventStore) => FoldedStreams<State, Event> {
  const perStore = new WeakMap<EventStore, FoldedStreams<State, Event>>();
  return (store) => {
    const folds = perStore.get(store) ?? make(store);
    perStore.set(store, folds);
    return folds;
  };
}
