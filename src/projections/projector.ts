import type { Tx } from "../db/database.js";
import type { RecordedEvent } from "../event-store/port.js";

export type EventHandler = (tx: Tx, event: RecordedEvent) => Promise<unknown>;

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
  /** Event types handled; undefined means every event. Others only advance the checkpoint. */
  types: ReadonlySet<string> | undefined;
  handle: EventHandler;
};

type Definition = Omit<Projector, "types" | "handle"> &
  ({ on: Record<string, EventHandler>; onEvery?: never } | { onEvery: EventHandler; on?: never });

const NAME = /^[a-z][a-z0-9_]{0,40}$/;

export function defineProjector(definition: Definition): Projector {
  if (!NAME.test(definition.name)) throw new Error(`projector name ${definition.name} must match ${NAME}`);
  const { on, onEvery, ...rest } = definition;
  if (onEvery) return { ...rest, types: undefined, handle: onEvery };
  const handlers = on ?? {};
  return {
    ...rest,
    types: new Set(Object.keys(handlers)),
    handle: (tx, event) => handlers[event.type]?.(tx, event) ?? Promise.resolve(),
  };
}
