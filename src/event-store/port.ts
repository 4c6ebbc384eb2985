import type { UntypedEvent } from "../../streams/catalogue.js";
import type { EventMetadata } from "../../streams/envelope.js";

/**
 * The event store port. Adapters: postgres (default, also embedded PGlite) and kurrentdb.
 *
 * A position is a pair compared lexicographically. For postgres it is (writing transaction
 * id, global position); for KurrentDB (commit, prepare). Both order the whole log stably.
 */
export type Position = { readonly commit: bigint; readonly index: bigint };
export const START: Position = { commit: 0n, index: 0n };

export const comparePositions = (a: Position, b: Position): number =>
  a.commit === b.commit ? Number(a.index - b.index) || 0 : a.commit < b.commit ? -1 : 1;

export const positionToString = (p: Position) => `${p.commit}:${p.index}`;

/** The position `positionToString` wrote. */
export function positionFromString(text: string): Position {
  const match = /^(\d+):(\d+)$/.exec(text);
  if (!match) throw new Error(`not a position: ${text}`);
  return { commit: BigInt(match[1] as string), index: BigInt(match[2] as string) };
}

/** -1 (or "no_stream") expects the stream not to exist; "any" skips the check. */
export type ExpectedRevision = number | "no_stream" | "any";

export type NewEvent = {
  id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
};

export type RecordedEvent = NewEvent & {
  streamId: string;
  revision: number;
  position: Position;
  recordedAt: Date;
};

/** A recorded event typed as one of a union (`Recorded<FixtureEvent>`): its type narrows its data. */
export type Recorded<Event extends UntypedEvent> = Omit<RecordedEvent, "type" | "data"> & Event;

export type AppendResult = { nextRevision: number; position: Position };

export interface EventStore {
  readonly adapter: "postgres" | "kurrentdb";
  /** Appends atomically. Retrying with the same event ids writes nothing twice and returns the original result. */
  append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /** Every event of a stream in revision order; empty when the stream does not exist. */
  readStream(streamId: string, options?: { fromRevision?: number }): Promise<RecordedEvent[]>;
  /** Up to `limit` events strictly after `after`, in log order, only ever returning a stable prefix of the log. */
  readAll(after: Position, limit: number): Promise<RecordedEvent[]>;
  /** Position of the last event committed so far (START when the log is empty): where "caught up" is. */
  head(): Promise<Position>;
  /**
   * How far `upTo` is past `after`, for progress: the events in between (postgres), or the
   * distance in the log's own units where they cannot be counted cheaply (KurrentDB's bytes).
   */
  distance(after: Position, upTo: Position): Promise<number>;
  /** Subscribes to hints that new events may be readable (local appends); polling covers other writers. */
  onAppend(listener: () => void): () => void;
  close(): Promise<void>;
}

export class WrongExpectedRevision extends Error {
  override readonly name = "WrongExpectedRevision";
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number,
  ) {
    super(`stream ${streamId} is at revision ${actual}, expected ${expected}`);
  }
}

/** An event id already stored as part of a different append. */
export class DuplicateEventId extends Error {
  override readonly name = "DuplicateEventId";
  constructor(readonly eventIds: string[]) {
    super(`event ids already stored: ${eventIds.join(", ")}`);
  }
}

export const expectedAsNumber = (expected: ExpectedRevision): number | undefined =>
  expected === "any" ? undefined : expected === "no_stream" ? -1 : expected;
