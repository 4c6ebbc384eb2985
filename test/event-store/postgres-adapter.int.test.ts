import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DuplicateEventId, type NewEvent, type Position, START } from "../../src/event-store/port.js";
import { PostgresEventStore } from "../../src/event-store/postgres.js";
import { backends, type TestDatabase } from "../support/databases.js";
import { anEvent, events, uniqueStream } from "../support/events.js";

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`postgres adapter specifics on ${backend.name}`, () => {
    let db: TestDatabase;
    let store: PostgresEventStore;
    beforeAll(async () => {
      db = await backend.open();
      store = new PostgresEventStore(db.sql);
    });
    afterAll(async () => db?.close());

    it("refuses an event id already stored in another stream, writing nothing", async () => {
      const event = anEvent();
      await store.append(uniqueStream(), [event], "no_stream");
      const other = uniqueStream();
      await expect(store.append(other, [anEvent(), event], "no_stream")).rejects.toBeInstanceOf(DuplicateEventId);
      expect(await store.readStream(other)).toEqual([]);
    });

    it("refuses an append larger than a commit's span of positions, writing nothing", async () => {
      const stream = uniqueStream();
      // The size is checked before any event is looked at, so the array need not be filled.
      const tooMany = new Array<NewEvent>(1_048_577);
      await expect(store.append(stream, tooMany, "no_stream")).rejects.toThrow(/at most 1048576 events/);
      expect(await store.readStream(stream)).toEqual([]);
    });

    it("keeps an append as one commit: its events at consecutive positions, counted by distance", async () => {
      const [a, b, c] = [uniqueStream(), uniqueStream(), uniqueStream()];
      const appended = [
        await store.append(a, events(2), "no_stream"),
        await store.append(b, events(3), "no_stream"),
        await store.append(c, events(1), "no_stream"),
      ];
      const [first, second, third] = appended.map((r) => r.position) as [Position, Position, Position];
      const inB = (await store.readStream(b)).map((e) => e.position);
      expect(inB.map((p) => p.index - (inB[0] as Position).index)).toEqual([0n, 1n, 2n]);
      expect(inB[2]).toEqual(second);
      expect(await db.sql`select event_count from commits where stream_id in (${a}, ${b}, ${c}) order by 1`).toEqual(
        [1, 2, 3].map((event_count) => ({ event_count })),
      );

      expect(await store.distance(first, third)).toBe(4);
      expect(await store.distance(inB[0] as Position, third)).toBe(3); // from inside a commit
      expect(await store.distance(first, inB[1] as Position)).toBe(2); // to inside one
      expect(await store.distance(third, third)).toBe(0);
      expect(await store.distance(third, first)).toBe(0);
      expect(await store.distance(START, await store.head())).toBe((await store.readAll(START, 1000)).length);
      expect((await store.readAll(inB[0] as Position, 3)).map((e) => e.position)).toEqual([inB[1], inB[2], third]);
    });
  });
}

// Holding one transaction open while another commits needs two real backends: PGlite runs
// transactions one at a time, so it cannot commit out of order at all.
describe.skipIf(!backends()[1]?.available)("postgres adapter: commits out of position order", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await (backends()[1] as { open: () => Promise<TestDatabase> }).open();
  });
  afterAll(async () => db?.close());

  it("does not let a reader pass a lower position whose transaction commits later", async () => {
    const store = new PostgresEventStore(db.sql);
    const slowStream = uniqueStream();
    const fastStream = uniqueStream();
    let releaseSlow: () => void = () => {};
    const slowMayCommit = new Promise<void>((resolve) => {
      releaseSlow = resolve;
    });
    let slowInserted: () => void = () => {};
    const slowHasPosition = new Promise<void>((resolve) => {
      slowInserted = resolve;
    });

    // The slow writer takes the lower global position, then waits before committing.
    const slow = db.sql.begin(async (tx) => {
      const event = anEvent();
      await tx`insert into streams (stream_id, revision) values (${slowStream}, 0)`;
      const events = [{ id: event.id, type: event.type, data: {}, metadata: event.metadata }];
      await tx`insert into commits (stream_id, first_revision, event_count, events)
               values (${slowStream}, 0, 1, ${tx.json(events)})`;
      slowInserted();
      await slowMayCommit;
    });
    await slowHasPosition;
    await store.append(fastStream, [anEvent()], "no_stream");

    const whileSlowOpen = (await store.readAll(START, 100)).map((e) => e.streamId);
    expect(whileSlowOpen).not.toContain(fastStream);

    releaseSlow();
    await slow;
    // Transactions of other suites on the same server may hold the horizon back a moment:
    // that delays readers, it never makes them skip.
    const visible = async () => (await store.readAll(START, 1000)).map((e) => e.streamId);
    await expect.poll(visible, { timeout: 10_000 }).toContain(fastStream);
    const afterCommit = await visible();
    expect(afterCommit.indexOf(slowStream)).toBeGreaterThanOrEqual(0);
    expect(afterCommit.indexOf(slowStream)).toBeLessThan(afterCommit.indexOf(fastStream));
  });
});
