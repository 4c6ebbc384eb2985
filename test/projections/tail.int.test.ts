import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { EventStore, Position, RecordedEvent } from "../../src/event-store/port.js";
import { PostgresEventStore } from "../../src/event-store/postgres.js";
import { SharedTail } from "../../src/projections/tail.js";
import { openTestDatabase, type TestDatabase } from "../support/databases.js";
import { anEvent, uniqueStream } from "../support/events.js";

/**
 * The shared tail answers as the store does, reading each new stretch of the log once for
 * every projector that asks: given a log, when projectors read it in their own batches,
 * then they get exactly what `readAll` gives, and the store is asked far less.
 */

/** The store, counting its `readAll` calls and the events they return (the real store answers them). */
function counted(store: EventStore) {
  const counter = { reads: 0, events: 0 };
  const wrapped: EventStore = Object.create(store);
  wrapped.readAll = async (after: Position, limit: number) => {
    counter.reads++;
    const events = await store.readAll(after, limit);
    counter.events += events.length;
    return events;
  };
  return { store: wrapped, counter };
}

let db: TestDatabase;
let store: PostgresEventStore;
let start: Position;
beforeAll(async () => {
  db = await openTestDatabase();
  store = new PostgresEventStore(db.sql);
  start = await store.head();
  for (let i = 0; i < 5; i++)
    await store.append(
      uniqueStream(),
      Array.from({ length: 300 }, () => anEvent()),
      "no_stream",
    );
});
afterAll(() => db.close());

/** Every event after `from`, in batches of `batch`, as a projector's loop reads them. */
async function drain(
  read: (after: Position, limit: number) => Promise<{ position: Position; id: string }[]>,
  from: Position,
  batch: number,
) {
  const ids: string[] = [];
  let after = from;
  for (;;) {
    const events = await read(after, batch);
    const last = events.at(-1);
    if (!last) return ids;
    ids.push(...events.map((e) => e.id));
    after = last.position;
  }
}

/** The ids of every event after `start`, straight from the store. */
const wholeLog = () => drain((a, l) => store.readAll(a, l), start, 1000);

describe("the shared tail", () => {
  it("gives each projector exactly what the store gives, in its own batch size", async () => {
    const expected = await wholeLog();
    expect(expected).toHaveLength(1500);
    const tail = new SharedTail(store);
    const batches = [500, 200, 37, 500, 1000, 500, 7, 500];
    const read = await Promise.all(batches.map((batch) => drain((a, l) => tail.readAll(a, l), start, batch)));
    for (const ids of read) expect(ids).toEqual(expected);
  });

  it("reads each stretch of the log once for projectors reading together", async () => {
    const { store: countedStore, counter } = counted(store);
    const tail = new SharedTail(countedStore);
    await Promise.all(Array.from({ length: 8 }, () => drain((a, l) => tail.readAll(a, l), start, 500)));
    // 1,500 events read 1,000 at a time, then the empty read at the end: three reads for eight projectors.
    expect(counter.reads).toBe(3);
  });

  it("sends a projector far behind the kept stretch to the store, and follows the log as it grows", async () => {
    const { store: countedStore, counter } = counted(store);
    const tail = new SharedTail(countedStore);
    const head = await store.head();
    expect(await tail.readAll(head, 500)).toEqual([]);
    const behind = await tail.readAll(start, 10);
    expect(behind.map((e) => e.id)).toEqual((await store.readAll(start, 10)).map((e) => e.id));
    const appended = Array.from({ length: 3 }, () => anEvent());
    await store.append(uniqueStream(), appended, "no_stream");
    expect((await tail.readAll(head, 500)).map((e) => e.id)).toEqual(appended.map((e) => e.id));
    expect(counter.reads).toBe(3);
  });

  it("gives a reader ahead of the others its own batch size", async () => {
    const { store: countedStore, counter } = counted(store);
    const tail = new SharedTail(countedStore);
    expect(await tail.readAll(start, 1500)).toHaveLength(1500);
    expect(counter.reads).toBe(1);
  });

  it("keeps a catch-up's readers together, so the store is read once however their speeds differ", async () => {
    const { store: countedStore, counter } = counted(store);
    // Fills of 100 and 100 kept behind the end, where the log holds over 1,500.
    const tail = new SharedTail(countedStore, 100, 100);
    const expected = await wholeLog();
    const slow = tail.join(start);
    const fast = [tail.join(start), tail.join(start), tail.join(start)];
    const read = await Promise.all([
      drain(
        async (a, l) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          return slow.readAll(a, l);
        },
        start,
        100,
      ),
      ...fast.map((reader) => drain((a, l) => reader.readAll(a, l), start, 10)),
    ]);
    for (const ids of read) expect(ids).toEqual(expected);
    // Unpaced, the fast readers would run out of the kept stretch and read the log themselves.
    expect(counter.events).toBe(expected.length);
    // A read a stretch, and at the head an empty one for each reader that finds nothing there.
    expect(counter.reads).toBeLessThanOrEqual(Math.ceil(expected.length / 100) + 4);
  });

  it("holds a paced reader back until the slowest moves on or leaves", async () => {
    const tail = new SharedTail(store, 100, 100);
    const all = await wholeLog();
    const behind = tail.join(start);
    const ahead = tail.join(start);
    let got = 0;
    const draining = drain(
      async (a, l) => {
        const events = await ahead.readAll(a, l);
        got += events.length;
        return events;
      },
      start,
      50,
    );
    // Twice the fill past the reader behind, which has not read, and no further.
    await vi.waitFor(() => expect(got).toBe(200), { timeout: 5000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(got).toBe(200);
    // Past the events it read once it asks for the next ones; a fill at a time.
    const [first] = await behind.readAll(start, 1);
    await behind.readAll((first as RecordedEvent).position, 100);
    await vi.waitFor(() => expect(got).toBe(300), { timeout: 5000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(got).toBe(300);
    behind.leave();
    // Read after leaving, it does not take its seat again (it would hold the other for good).
    await behind.readAll((first as RecordedEvent).position, 1);
    expect(await draining).toEqual(all);
  });

  it("keeps no more than three fills past the kept events for a paced reader an unpaced one outruns", async () => {
    const { store: countedStore, counter } = counted(store);
    const tail = new SharedTail(countedStore, 100, 100);
    const all = await wholeLog();
    const behind = tail.join(start);
    await behind.readAll(start, 1);
    // A rebuild's reader is not held: it reads the log to its end through the tail.
    expect(await drain((a, l) => tail.readAll(a, l), start, 100)).toEqual(all);
    const read = counter.events;
    // Cut off, the paced reader reads what the tail dropped from the store itself (at
    // least all but the last 400), and after leaving it reads unpaced.
    expect(await drain((a, l) => behind.readAll(a, l), start, 100)).toEqual(all);
    expect(counter.events - read).toBeGreaterThanOrEqual(all.length - 400);
    behind.leave();
    expect(await drain((a, l) => behind.readAll(a, l), start, 100)).toEqual(all);
  });

  it("neither holds back nor waits for a paced reader outside the kept stretch", async () => {
    const tail = new SharedTail(store, 100);
    const all = await wholeLog();
    const head = await store.head();
    const atHead = tail.join(head);
    expect(await atHead.readAll(head, 100)).toEqual([]);
    // The stretch now starts at the head: a reader from the start is served by the store.
    const fromStart = tail.join(start);
    expect(await drain((a, l) => fromStart.readAll(a, l), start, 100)).toEqual(all);
    expect(await atHead.readAll(head, 100)).toEqual([]);
  });

  it("does not hand a failed read to the readers after it", async () => {
    let failing = true;
    const flaky: EventStore = Object.create(store);
    flaky.readAll = (after: Position, limit: number) =>
      failing ? Promise.reject(new Error("connection reset")) : store.readAll(after, limit);
    const tail = new SharedTail(flaky);
    await expect(tail.readAll(start, 500)).rejects.toThrow("connection reset");
    failing = false;
    expect((await tail.readAll(start, 500)).map((e) => e.id)).toEqual(
      (await store.readAll(start, 500)).map((e) => e.id),
    );
  });
});
