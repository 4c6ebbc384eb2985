import { EventEmitter } from "node:events";
import {
  type AllStreamResolvedEvent,
  ANY,
  type AppendStreamState,
  BACKWARDS,
  END,
  excludeSystemEvents,
  FORWARDS,
  jsonEvent,
  START as KURRENT_START,
  KurrentDBClient,
  NO_STREAM,
  type ReadPosition,
  type ResolvedEvent,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from "@kurrent/kurrentdb-client";
import type { EventMetadata } from "../../streams/envelope.js";
import {
  type AppendResult,
  comparePositions,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type RecordedEvent,
  START,
  WrongExpectedRevision,
} from "./port.js";

type RecordedKurrentEvent = NonNullable<ResolvedEvent["event"]>;

/**
 * Event store on KurrentDB (formerly EventStoreDB). Positions are (commit, prepare) of the
 * transaction file. KurrentDB checks idempotency per stream: a retried append with the same
 * ids and the same expected revision is acknowledged without writing again.
 *
 * Verified only where a KurrentDB server is given (EVENTSTORE_URL); see docs/event-store.md.
 */
export class KurrentDbEventStore implements EventStore {
  readonly adapter = "kurrentdb";
  private readonly appended = new EventEmitter();
  private readonly client: KurrentDBClient;

  constructor(connectionString: string) {
    this.client = KurrentDBClient.connectionString`${connectionString}`;
    this.appended.setMaxListeners(0);
  }

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new RangeError("append needs at least one event");
    try {
      const result = await this.client.appendToStream(
        streamId,
        events.map((e) =>
          jsonEvent({ id: e.id, type: e.type, data: e.data as Record<string, unknown>, metadata: e.metadata }),
        ),
        { streamState: toStreamState(expected) },
      );
      this.appended.emit("append");
      const position = result.position;
      return {
        nextRevision: Number(result.nextExpectedRevision),
        position: position ? { commit: position.commit, index: position.prepare } : START,
      };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = typeof error.actualState === "bigint" ? Number(error.actualState) : -1;
        throw new WrongExpectedRevision(streamId, expected, actual);
      }
      throw error;
    }
  }

  async readStream(streamId: string, options: { fromRevision?: number } = {}): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamId, {
        fromRevision: BigInt(options.fromRevision ?? 0),
        direction: FORWARDS,
      })) {
        if (resolved.event) events.push(toRecorded(resolved.event));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  async readAll(after: Position, limit: number): Promise<RecordedEvent[]> {
    const from: ReadPosition =
      comparePositions(after, START) === 0 ? KURRENT_START : { commit: after.commit, prepare: after.index };
    const events: RecordedEvent[] = [];
    // The read starts at `after` inclusive, so ask for one more and drop the event we already had.
    for await (const resolved of this.client.readAll({
      fromPosition: from,
      maxCount: limit + 1,
      direction: FORWARDS,
      filter: excludeSystemEvents(),
    }) as AsyncIterable<AllStreamResolvedEvent>) {
      const event = resolved.event;
      if (!event) continue;
      const recorded = toRecorded(event);
      if (comparePositions(recorded.position, after) > 0 && events.length < limit) events.push(recorded);
    }
    return events;
  }

  async head(): Promise<Position> {
    for await (const resolved of this.client.readAll({
      fromPosition: END,
      direction: BACKWARDS,
      maxCount: 1,
      filter: excludeSystemEvents(),
    }) as AsyncIterable<AllStreamResolvedEvent>) {
      if (resolved.event) return toRecorded(resolved.event).position;
    }
    return START;
  }

  async distance(after: Position, upTo: Position): Promise<number> {
    return Math.max(0, Number(upTo.index - after.index));
  }

  onAppend(listener: () => void): () => void {
    this.appended.on("append", listener);
    return () => this.appended.off("append", listener);
  }

  async close(): Promise<void> {
    this.appended.removeAllListeners();
    await this.client.dispose();
  }
}

function toStreamState(expected: ExpectedRevision): AppendStreamState {
  if (expected === "any") return ANY;
  if (expected === "no_stream" || expected === -1) return NO_STREAM;
  return BigInt(expected);
}

function toRecorded(event: RecordedKurrentEvent): RecordedEvent {
  return {
    id: event.id,
    type: event.type,
    data: event.data,
    metadata: event.metadata as EventMetadata,
    streamId: event.streamId,
    revision: Number(event.revision),
    position: event.position ? { commit: event.position.commit, index: event.position.prepare } : START,
    recordedAt: event.created,
  };
}
