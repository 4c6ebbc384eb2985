import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KurrentDbEventStore } from "../../src/event-store/kurrentdb.js";
import {
  comparePositions,
  type EventStore,
  type Position,
  positionToString,
  type RecordedEvent,
  START,
  WrongExpectedRevision,
} from "../../src/event-store/port.js";
import { PostgresEventStore } from "../../src/event-store/postgres.js";
import { backends } from "../support/databases.js";
import { anEvent, events, uniqueStream } from "../support/events.js";

type Subject = {
  name: string;
  available: boolean;
  open: () => Promise<{ store: EventStore; close: () => Promise<void> }>;
};

const subjects: Subject[] = [
  ...backends().map((backend) => ({
    name: `postgres adapter on ${backend.name}`,
    available: backend.available,
    open: async () => {
      const db = await backend.open();
      const store = new PostgresEventStore(db.sql);
      return { store, close: db.close };
    },
  })),
  {
    name: "kurrentdb adapter (EVENTSTORE_URL)",
    available: Boolean(process.env.EVENTSTORE_URL),
    open: async () => {
      const store = new KurrentDbEventStore(process.env.EVENTSTORE_URL as string);
      return { store, close: () => store.close() };
    },
  },
];

/** Reads the whole log (only the given streams: a KurrentDB server is shared) from a position. */
async function readEverything(store: EventStore, streams: Set<string>, after: Position = START) {
  const seen: RecordedEvent[] = [];
  let checkpoint = after;
  for (;;) {
    const batch = await store.readAll(checkpoint, 200);
    if (batch.length === 0) return { seen, checkpoint };
    for (const e of batch) if (streams.has(e.streamId)) seen.push(e);
    checkpoint = (batch.at(-1) as RecordedEvent).position;
  }
}

for (const subject of subjects) {
  describe.skipIf(!subject.available)(`event store conformance: ${subject.name}`, () => {
    let store: EventStore;
    let close: () => Promise<void>;

    beforeAll(async () => {
      ({ store, close } = await subject.open());
    });
    afterAll(async () => close?.());

    it("appends to a new stream and reads it back in revision order with data and metadata", async () => {
      const stream = uniqueStream();
      const written = events(3, (i) => ({ ball: i }));
      const result = await store.append(stream, written, "no_stream");
      expect(result.nextRevision).toBe(2);

      const read = await store.readStream(stream);
      expect(read.map((e) => [e.id, e.revision, e.type, e.data])).toEqual(
        written.map((e, i) => [e.id, i, e.type, { ball: i }]),
      );
      expect(read[0]?.metadata).toEqual(written[0]?.metadata);
      expect(comparePositions((read.at(-1) as RecordedEvent).position, result.position)).toBe(0);
      expect(await store.readStream(stream, { fromRevision: 2 })).toHaveLength(1);
    });

    it("reads an unknown stream as empty", async () => {
      expect(await store.readStream(uniqueStream())).toEqual([]);
    });

    it("rejects an append whose expected revision is not the stream's, writing nothing", async () => {
      const stream = uniqueStream();
      await store.append(stream, events(2), "no_stream");

      const stale = store.append(stream, [anEvent()], 0);
      await expect(stale).rejects.toBeInstanceOf(WrongExpectedRevision);
      await expect(stale).rejects.toMatchObject({ actual: 1 });
      await expect(store.append(stream, [anEvent()], "no_stream")).rejects.toBeInstanceOf(WrongExpectedRevision);
      await expect(store.append(uniqueStream(), [anEvent()], 4)).rejects.toMatchObject({ actual: -1 });
      expect(await store.readStream(stream)).toHaveLength(2);

      const next = await store.append(stream, [anEvent()], 1);
      expect(next.nextRevision).toBe(2);
    });

    it("lets exactly one of many racing appends at the same expected revision win", async () => {
      const stream = uniqueStream();
      await store.append(stream, [anEvent()], "no_stream");
      const attempts = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => store.append(stream, [anEvent({ data: { racer: i } })], 0)),
      );
      const won = attempts.filter((a) => a.status === "fulfilled");
      const lost = attempts.filter((a) => a.status === "rejected");
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(7);
      for (const failure of lost) expect(failure.reason).toBeInstanceOf(WrongExpectedRevision);
      expect(await store.readStream(stream)).toHaveLength(2);
    });

    it("treats a retried append with the same event ids as done, writing nothing twice", async () => {
      const stream = uniqueStream();
      const batch = events(5);
      const first = await store.append(stream, batch, "no_stream");
      const retry = await store.append(stream, batch, "no_stream");
      expect(retry.nextRevision).toBe(first.nextRevision);
      expect(await store.readStream(stream)).toHaveLength(5);

      const racing = events(3);
      await Promise.all([store.append(stream, racing, 4), store.append(stream, racing, 4)]);
      expect((await store.readStream(stream)).map((e) => e.id)).toEqual([...batch, ...racing].map((e) => e.id));
    });

    it("gives a live catch-up reader every committed event exactly once, in a stable order, under concurrent writers", async () => {
      const writers = 8;
      const appendsPerWriter = 25;
      const streams = new Set<string>();
      const committed = new Set<string>();
      let writing = true;

      const write = async (w: number) => {
        // Writers share some streams, so some appends conflict and retry: positions are
        // taken by transactions that then fail, and commits land out of position order.
        for (let i = 0; i < appendsPerWriter; i++) {
          const stream = `test-shared-${w % 3}-${runId}`;
          streams.add(stream);
          const batch = events(1 + (i % 4), (j) => ({ w, i, j }));
          for (;;) {
            const current = await store.readStream(stream);
            try {
              await store.append(stream, batch, current.length === 0 ? "no_stream" : current.length - 1);
              for (const e of batch) committed.add(e.id);
              break;
            } catch (error) {
              if (!(error instanceof WrongExpectedRevision)) throw error;
            }
          }
        }
      };

      const seen: RecordedEvent[] = [];
      const reader = (async () => {
        let checkpoint = START;
        while (writing || seen.length < committed.size) {
          const batch = await store.readAll(checkpoint, 50);
          for (const e of batch) if (streams.has(e.streamId)) seen.push(e);
          const last = batch.at(-1);
          if (last) {
            expect(comparePositions(last.position, checkpoint)).toBeGreaterThan(0);
            checkpoint = last.position;
          } else await new Promise((r) => setTimeout(r, 5));
        }
      })();

      await Promise.all(Array.from({ length: writers }, (_, w) => write(w)));
      writing = false;
      await reader;

      const ids = seen.map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(new Set(ids)).toEqual(committed);
      const replay = await readEverything(store, streams);
      expect(replay.seen.map((e) => positionToString(e.position))).toEqual(
        seen.map((e) => positionToString(e.position)),
      );
      for (const stream of streams) {
        const revisions = seen.filter((e) => e.streamId === stream).map((e) => e.revision);
        expect(revisions).toEqual(revisions.map((_, i) => i));
      }
    }, 120_000);
  });
}

const runId = Math.random().toString(36).slice(2);
