import type { CatalogueEvent } from "../../streams/index.js";
import type { Tx } from "../db/database.js";
import type { Recorded, RecordedEvent } from "../event-store/port.js";

type EventType = CatalogueEvent["type"];

/** Recorded events of one type, their data typed by its definition: `RecordedOf<"DeliveryRecorded">`. */
export type RecordedOf<Type extends EventType> = Recorded<Extract<CatalogueEvent, { type: Type }>>;

/**
 * Applies a run of consecutive events of one type in log order (an `onEvery` handler: the
 * whole batch, of any types). Handlers get runs rather than single events so they can write
 * many rows in one statement during catch-up.
 */
export type EventHandler<Events extends RecordedEvent | RecordedOf<EventType> = RecordedEvent> = (
  tx: Tx,
  events: readonly Events[],
) => Promise<unknown>;

/** A handler per event type, each given that type's events. */
export type EventHandlers = { [Type in EventType]?: EventHandler<RecordedOf<Type>> };

/**
 * A projector turns events into one read model. Its tables are created by `ddl` with
 * unqualified names inside a schema of the projector's own per generation; `tables` are
 * exposed to readers as views of the same name in `public`. Bumping `version` (a rule or
 * shape change) makes the runtime rebuild it from the start of the log.
 */
export type Projector = {
  name: string;
  version: number;
  description: string;
  ddl: string;
  tables: readonly string[];
  /**
   * Events per batch (transaction) for this projector, when it should differ from the
   * runner's: a projector that recomputes what a batch touched does less work in larger ones.
   */
  batchSize?: number;
  /**
   * How long a live loop rests after a batch before it takes the next, for a projector whose
   * work is per thing touched rather than per event (a fixture's statistics): resting lets
   * more events share one recompute, and leaves the process to the reads that wait.
   */
  restMs?: number;
  /** Event types handled; undefined means every event. Others only advance the checkpoint. */
  types: ReadonlySet<string> | undefined;
  /** Applies a batch: every run of same-type events goes to its handler in one call (`onEvery`: the batch). */
  apply(tx: Tx, events: readonly RecordedEvent[]): Promise<void>;
};

type Definition = Omit<Projector, "types" | "apply"> & {
  /** Runs once per batch after every handler, e.g. to recompute what the batch touched. */
  settle?: (tx: Tx, events: readonly RecordedEvent[]) => Promise<unknown>;
} & (
    | { on: EventHandlers; onEvery?: never }
    | {
        /** Applies every event of a batch, of whatever types, in one call. */
        onEvery: EventHandler;
        on?: never;
      }
  );

const NAME = /^[a-z][a-z0-9_]{0,40}$/;

export function defineProjector(definition: Definition): Projector {
  if (!NAME.test(definition.name)) throw new Error(`projector name ${definition.name} must match ${NAME}`);
  const { on, onEvery, settle, ...rest } = definition;
  const handlers = byType(on ?? {});
  return {
    ...rest,
    types: onEvery ? undefined : new Set(handlers.keys()),
    apply: async (tx, events) => {
      // A statement a batch rather than one a run: a fixture's events change type seven times.
      await (onEvery ? onEvery(tx, events) : runs(tx, events, (type) => handlers.get(type)));
      await settle?.(tx, events);
    },
  };
}

/**
 * The handlers as the runtime calls them, with events as the store holds them. Stored data
 * was validated against its type's definition when appended, and schemas change only
 * compatibly (DESIGN.md §3), so a handler reads its events as its type's without a parse per
 * event (a full import is hundreds of thousands of deliveries). The runtime routes by type,
 * which the compiler cannot follow: this is the one narrowing of stored events.
 */
const byType = (handlers: EventHandlers) => new Map(Object.entries(handlers) as [string, EventHandler][]);

async function runs(tx: Tx, events: readonly RecordedEvent[], handlerFor: (type: string) => EventHandler | undefined) {
  for (let start = 0; start < events.length; ) {
    const type = (events[start] as RecordedEvent).type;
    let end = start + 1;
    while (end < events.length && events[end]?.type === type) end++;
    await handlerFor(type)?.(tx, events.slice(start, end));
    start = end;
  }
}
