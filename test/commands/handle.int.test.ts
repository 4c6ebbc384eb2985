import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Decider, handleCommand } from "../../src/commands/handle.js";
import { PostgresEventStore } from "../../src/event-store/postgres.js";
import { defineEvent, EventCatalogue } from "../../streams/catalogue.js";
import { openTestDatabase, type TestDatabase } from "../support/databases.js";
import { uniqueStream } from "../support/events.js";

// A toy aggregate: seats are booked one at a time and never beyond capacity.
const catalogue = new EventCatalogue([
  defineEvent({
    type: "SeatBooked",
    category: "fixture",
    version: 1,
    schema: z.strictObject({ seat: z.number().int() }),
  }),
]);
type Book = { capacity: number };
class SoldOut extends Error {}
const seats: Decider<Book, { booked: number }> = {
  initialState: () => ({ booked: 0 }),
  evolve: (state, event) => (event.type === "SeatBooked" ? { booked: state.booked + 1 } : state),
  decide: (command, state) => {
    if (state.booked >= command.capacity) throw new SoldOut();
    return [{ type: "SeatBooked", data: { seat: state.booked + 1 } }];
  },
};
const context = { actor: "test", now: new Date("2026-11-22T10:00:00Z"), requestId: "req-1" };

describe("handling a command: load, fold, decide, append", () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  beforeAll(async () => {
    db = await openTestDatabase();
    store = new PostgresEventStore(db.sql);
  });
  afterAll(async () => db?.close());

  it("appends the decided events with metadata from the context", async () => {
    const stream = uniqueStream("fixture");
    const result = await handleCommand(store, catalogue, stream, seats, { capacity: 2 }, context);
    expect(result.nextRevision).toBe(0);
    const [event] = await store.readStream(stream);
    expect(event).toMatchObject({
      type: "SeatBooked",
      data: { seat: 1 },
      metadata: { actor: "test", requestId: "req-1", occurredAt: "2026-11-22T10:00:00.000Z", schemaVersion: 1 },
    });
  });

  it("re-reads and re-decides when another writer got there first, never deciding on stale state", async () => {
    const stream = uniqueStream("fixture");
    const attempts = await Promise.allSettled(
      Array.from({ length: 5 }, () => handleCommand(store, catalogue, stream, seats, { capacity: 3 }, context)),
    );
    expect(attempts.filter((a) => a.status === "fulfilled")).toHaveLength(3);
    for (const failure of attempts.filter((a) => a.status === "rejected"))
      expect(failure.reason).toBeInstanceOf(SoldOut);
    const seatsBooked = (await store.readStream(stream)).map((e) => (e.data as { seat: number }).seat);
    expect(seatsBooked).toEqual([1, 2, 3]);
  });

  it("refuses event data the catalogue does not accept, writing nothing", async () => {
    const stream = uniqueStream("fixture");
    const broken: typeof seats = { ...seats, decide: () => [{ type: "SeatBooked", data: { seat: "A1" } }] };
    await expect(handleCommand(store, catalogue, stream, broken, { capacity: 1 }, context)).rejects.toThrow();
    expect(await store.readStream(stream)).toEqual([]);
  });
});
