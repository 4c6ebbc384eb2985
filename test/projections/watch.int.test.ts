import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PostgresEventStore } from "../../src/event-store/postgres.js";
import { defineProjector } from "../../src/projections/projector.js";
import { ProjectionRunner } from "../../src/projections/runner.js";
import { ReadModelWatch } from "../../src/projections/watch.js";
import { countingProjector } from "../support/counting-projector.js";
import { backends, type TestDatabase } from "../support/databases.js";
import { anEvent } from "../support/events.js";

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`read model watch on ${backend.name}`, () => {
    let db: TestDatabase;
    let store: PostgresEventStore;
    let watch: ReadModelWatch;

    beforeEach(async () => {
      db = await backend.open();
      store = new PostgresEventStore(db.sql);
    });
    afterEach(async () => {
      watch.close();
      await db.close();
    });

    const total = async () => {
      const [row] = await db.sql<{ total: string }[]>`select coalesce(sum(total), 0)::text as total from test_count`;
      return Number(row?.total);
    };
    /** The total through the watch, and how many times it was actually read. */
    const reads = { count: 0 };
    const watchedTotal = () =>
      watch.value("total", () => {
        reads.count++;
        return total();
      });
    const append = (value: number) => store.append("test-1", [anEvent({ data: { value } })], "any");

    it("memoises until its own runner commits a batch, then reads the new value at once", async () => {
      const runner = new ProjectionRunner(db.sql, store, [countingProjector()]);
      await append(5);
      await runner.catchUp();
      watch = new ReadModelWatch(db.sql, { pollMs: 60_000 }); // only the runner can tell it
      watch.follow(runner);
      await watch.start();
      reads.count = 0;

      expect(await watchedTotal()).toBe(5);
      expect(await watchedTotal()).toBe(5);
      expect(reads.count).toBe(1);

      await append(7);
      await runner.catchUp();
      expect(await watchedTotal()).toBe(12);
      expect(reads.count).toBe(2);
    });

    it("counts its own runner's batch once: the poll after it keeps what was read since", async () => {
      const runner = new ProjectionRunner(db.sql, store, [countingProjector()]);
      await runner.prepare();
      watch = new ReadModelWatch(db.sql, { pollMs: 20 });
      watch.follow(runner);
      await watch.start();
      await append(5);
      await runner.catchUp();
      reads.count = 0;
      expect(await watchedTotal()).toBe(5);
      await new Promise((resolve) => setTimeout(resolve, 100)); // several polls see the batch's stamp
      expect(await watchedTotal()).toBe(5);
      expect(reads.count).toBe(1);
    });

    it("keeps a value read from one read model while only others change, here or in another process", async () => {
      const competitions = competitionsProjector();
      const runner = new ProjectionRunner(db.sql, store, [countingProjector(), competitions]);
      const elsewhere = new ProjectionRunner(db.sql, store, [countingProjector(), competitions]);
      await runner.prepare();
      watch = new ReadModelWatch(db.sql, { pollMs: 20 });
      watch.follow(runner);
      await watch.start();
      let computed = 0;
      const named = () => watch.value("competitions", async () => ++computed, [competitions.name]);
      expect(await named()).toBe(1);
      const standing = watch.version([competitions.name]);

      await append(5); // only test_counts handles it
      await runner.catchUp();
      await append(6);
      await elsewhere.catchUp();
      await new Promise((resolve) => setTimeout(resolve, 100)); // several polls
      expect(await named()).toBe(1);
      expect(watch.version([competitions.name])).toBe(standing);

      await store.append(
        "competition-c1",
        [anEvent({ type: "CompetitionRegistered", data: { competitionId: "c1" } })],
        "any",
      );
      await elsewhere.catchUp(); // another process's batch: the poll tells
      await vi.waitFor(async () => expect(await named()).toBe(2), { timeout: 2000, interval: 10 });
    });

    it("notices batches committed by another process's runner within the poll interval", async () => {
      const elsewhere = new ProjectionRunner(db.sql, store, [countingProjector()]);
      await append(1);
      await elsewhere.catchUp();
      watch = new ReadModelWatch(db.sql, { pollMs: 20 });
      await watch.start();
      expect(await watchedTotal()).toBe(1);

      await append(2);
      await elsewhere.catchUp();
      await vi.waitFor(async () => expect(await watchedTotal()).toBe(3), { timeout: 2000, interval: 10 });
    });

    it("does not keep a value read while a batch committed", async () => {
      const runner = new ProjectionRunner(db.sql, store, [countingProjector()]);
      await append(1);
      await runner.catchUp();
      watch = new ReadModelWatch(db.sql, { pollMs: 60_000 });
      watch.follow(runner);
      await watch.start();
      reads.count = 0;

      await append(2);
      const stale = await watch.value("total", async () => {
        reads.count++;
        const value = await total(); // read before the batch commits...
        await runner.catchUp(); // ...which commits before the value is kept
        return value;
      });
      expect(stale).toBe(1);
      expect(await watchedTotal()).toBe(3);
      expect(reads.count).toBe(2);
    });

    it("stops answering from the memo once no poll has succeeded for maxStaleMs (a poll that hangs)", async () => {
      const runner = new ProjectionRunner(db.sql, store, [countingProjector()]);
      await runner.prepare();
      // The next poll is a minute away: as good as one that never returns.
      watch = new ReadModelWatch(db.sql, { pollMs: 60_000, maxStaleMs: 300 });
      await watch.start();
      reads.count = 0;
      await watchedTotal();
      await watchedTotal();
      expect(reads.count).toBe(1);

      await new Promise((resolve) => setTimeout(resolve, 350));
      await watchedTotal();
      await watchedTotal();
      expect(reads.count).toBe(3); // read every time, and nothing kept
    });

    it("memoises nothing before it has read the checkpoints, or once they cannot be read", async () => {
      watch = new ReadModelWatch(db.sql, { pollMs: 20 });
      reads.count = 0;
      await watchedTotal().catch(() => 0);
      await watchedTotal().catch(() => 0);
      expect(reads.count).toBe(2); // not started: every call reads

      const runner = new ProjectionRunner(db.sql, store, [countingProjector()]);
      await runner.prepare();
      await watch.start();
      await watchedTotal();
      await watchedTotal();
      expect(reads.count).toBe(3);

      await db.sql`alter table projector_generations rename to projector_generations_away`;
      try {
        await vi.waitFor(
          async () => {
            const before = reads.count;
            await watchedTotal();
            expect(reads.count).toBe(before + 1);
          },
          { timeout: 2000, interval: 30 },
        );
        const before = reads.count;
        await watchedTotal();
        expect(reads.count).toBe(before + 1); // still untrusted
      } finally {
        await db.sql`alter table projector_generations_away rename to projector_generations`;
      }
      await vi.waitFor(
        async () => {
          await watchedTotal();
          const before = reads.count;
          await watchedTotal();
          expect(reads.count).toBe(before);
        },
        { timeout: 2000, interval: 30 },
      );
    });
  });
}

/** A read model only CompetitionRegistered changes. */
const competitionsProjector = () =>
  defineProjector({
    name: "test_competitions",
    version: 1,
    description: "test: competition ids",
    tables: ["test_competition"],
    ddl: "create table test_competition (competition_id text primary key)",
    on: {
      CompetitionRegistered: (tx, events) =>
        tx`insert into test_competition ${tx(events.map((e) => ({ competition_id: e.data.competitionId })))}`,
    },
  });
