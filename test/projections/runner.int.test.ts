import { spawn } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PostgresEventStore } from "../../src/event-store/postgres.js";
import { findGeneration, listGenerations } from "../../src/projections/generations.js";
import { defineProjector } from "../../src/projections/projector.js";
import { type CatchUpProgress, ProjectionRunner } from "../../src/projections/runner.js";
import { streamVersions } from "../../src/projections/stream-versions.js";
import { countingProjector } from "../support/counting-projector.js";
import { backends, type TestDatabase } from "../support/databases.js";
import { anEvent } from "../support/events.js";

type Totals = { stream_id: string; events: number; total: string }[];

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`projection runtime on ${backend.name}`, () => {
    let db: TestDatabase;
    let store: PostgresEventStore;
    const runners: ProjectionRunner[] = [];
    const runner = (
      ...args: ConstructorParameters<typeof ProjectionRunner> extends [unknown, unknown, ...infer R] ? R : never
    ) => {
      const r = new ProjectionRunner(db.sql, store, ...args);
      runners.push(r);
      return r;
    };

    beforeEach(async () => {
      db = await backend.open();
      store = new PostgresEventStore(db.sql);
    });
    afterEach(async () => {
      await Promise.all(runners.splice(0).map((r) => r.stop()));
      await db.close();
    });

    /** Appends `perStream` events with values 1..n to each of `streams` streams. */
    async function seed(streams: number, perStream: number) {
      for (let s = 0; s < streams; s++) {
        const batch = Array.from({ length: perStream }, (_, i) => anEvent({ data: { value: i + 1 } }));
        await store.append(`test-${s}`, batch, "no_stream");
      }
    }
    const expectedTotals = (streams: number, perStream: number) =>
      Array.from({ length: streams }, (_, s) => ({
        stream_id: `test-${s}`,
        events: perStream,
        total: String((perStream * (perStream + 1)) / 2),
      }));
    const totals = () => db.sql<Totals>`select stream_id, events, total::text from test_count order by stream_id`;

    it("projects every event once and a second catch-up changes nothing", async () => {
      await seed(3, 120);
      const r = runner([countingProjector(), streamVersions], { batchSize: 50 });
      await r.catchUp();
      await r.catchUp();
      expect(await totals()).toEqual(expectedTotals(3, 120));
      const versions = await db.sql`select stream_id, category, revision::int from stream_version order by stream_id`;
      expect(versions).toEqual([0, 1, 2].map((s) => ({ stream_id: `test-${s}`, category: "test", revision: 119 })));
    });

    it("reads each event of the log once in a catch-up, however far apart its projectors' speeds", async () => {
      // More than the tail keeps (10,000): unpaced, the fast projector ran out of the slow
      // one's reach, and the slow one read the rest of the log again itself.
      await seed(3, 4000);
      const read = { events: 0 };
      const counted: PostgresEventStore = Object.create(store);
      counted.readAll = async (after, limit) => {
        const events = await store.readAll(after, limit);
        read.events += events.length;
        return events;
      };
      const slow = defineProjector({
        name: "test_slow",
        version: 1,
        description: "test: 10 ms a batch",
        tables: ["test_slow"],
        ddl: "create table test_slow (id int)",
        onEvery: async (tx) => {
          await tx`select pg_sleep(0.01)`;
        },
      });
      const r = new ProjectionRunner(db.sql, counted, [slow, streamVersions], { batchSize: 50 });
      runners.push(r);
      await r.catchUp();
      expect(read.events).toBe(12_000);
      const versions = await db.sql`select stream_id, revision::int from stream_version order by stream_id`;
      expect(versions).toEqual([0, 1, 2].map((s) => ({ stream_id: `test-${s}`, revision: 3999 })));
    });

    it("ends a paced catch-up with the store's error when a read of the log fails, holding no projector", async () => {
      await seed(2, 100);
      const failing: PostgresEventStore = Object.create(store);
      failing.readAll = () => Promise.reject(new Error("connection reset"));
      const r = new ProjectionRunner(db.sql, failing, [countingProjector(), streamVersions], { batchSize: 50 });
      runners.push(r);
      await expect(r.catchUp(undefined, { timeoutMs: 5000 })).rejects.toThrow("connection reset");
      // Nothing applied, and a catch-up on a store that answers goes on from there.
      expect(await totals()).toEqual([]);
      await runner([countingProjector(), streamVersions], { batchSize: 50 }).catchUp();
      expect(await totals()).toEqual(expectedTotals(2, 100));
    });

    it("applies each event exactly once when several runners share the database", async () => {
      await seed(4, 100);
      await Promise.all([0, 1, 2].map(() => runner([countingProjector()], { batchSize: 30 }).catchUp()));
      expect(await totals()).toEqual(expectedTotals(4, 100));
      const [active] = await listGenerations(db.sql, "test_counts");
      expect(active?.eventsApplied).toBe(400);
    });

    it("resumes after being killed mid-batch and ends equal to a clean replay", async () => {
      await seed(5, 60);
      const child = spawn(process.execPath, ["--import", "tsx", "test/support/run-projector.ts", db.url], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      const exited = new Promise((resolve) => child.once("exit", resolve));
      await new Promise<void>((resolve) => child.stdout.on("data", (d: Buffer) => d.includes("started") && resolve()));
      // Let it commit some batches and be inside another one: 40 events x 2 ms a batch.
      await new Promise((r) => setTimeout(r, 400));
      child.kill("SIGKILL");
      await exited;

      const interrupted = await findGeneration(db.sql, "test_counts", "active");
      const appliedBeforeCrash = interrupted?.eventsApplied ?? 0;
      expect(appliedBeforeCrash).toBeLessThan(300);
      const partial = await totals();
      expect(partial.reduce((n, r) => n + r.events, 0)).toBe(appliedBeforeCrash);

      await runner([countingProjector()], { batchSize: 40 }).catchUp();
      expect(await totals()).toEqual(expectedTotals(5, 60));
    }, 60_000);

    it("rebuilds into fresh tables while the old ones keep serving, then switches", async () => {
      await seed(2, 50);
      const live = runner([countingProjector()]);
      await live.catchUp();
      const before = await findGeneration(db.sql, "test_counts", "active");

      // Version 2 of the rule counts nothing. While it replays, readers (the public views)
      // must still see version 1's answers.
      const seenByReaders: Totals[] = [];
      const v2 = {
        ...countingProjector({ version: 2 }),
        apply: async (tx: Parameters<ReturnType<typeof countingProjector>["apply"]>[0]) => {
          seenByReaders.push(
            await tx<Totals>`select stream_id, events, total::text from public.test_count order by stream_id`,
          );
        },
      };
      const rebuilt = await runner([v2]).rebuild("test_counts");
      expect(rebuilt.generation).toBe((before?.generation ?? 0) + 1);
      expect(rebuilt.version).toBe(2);
      expect(seenByReaders.length).toBeGreaterThan(0);
      for (const seen of seenByReaders) expect(seen).toEqual(expectedTotals(2, 50));
      expect(await totals()).toEqual([]);
      const schemas = await db.sql`select nspname from pg_namespace where nspname like 'rm_test_counts_%'`;
      expect(schemas.map((s) => s.nspname)).toEqual([rebuilt.schemaName]);
    });

    it("rebuilds by itself when the running code has a newer projector version", async () => {
      await seed(1, 10);
      await runner([countingProjector()]).catchUp();
      const r = runner([countingProjector({ version: 3 })], { idlePollMs: 20 });
      r.start();
      await expect
        .poll(async () => (await findGeneration(db.sql, "test_counts", "active"))?.version, { timeout: 10_000 })
        .toBe(3);
      expect(await totals()).toEqual(expectedTotals(1, 10));
    });

    it("catches up a projector whose version the code bumped by replaying it, and leaves a newer one alone", async () => {
      await seed(1, 10);
      await runner([countingProjector()]).catchUp();
      await store.append("test-1", [anEvent({ data: { value: 5 } })], "no_stream");
      await runner([countingProjector({ version: 2 })]).catchUp();
      expect((await findGeneration(db.sql, "test_counts", "active"))?.version).toBe(2);
      expect(await totals()).toEqual([...expectedTotals(1, 10), { stream_id: "test-1", events: 1, total: "5" }]);

      // Older code beside a newer generation applies nothing to it.
      await store.append("test-1", [anEvent({ data: { value: 6 } })], 0);
      await runner([countingProjector({ version: 1 })]).catchUp();
      expect(await totals()).toEqual([...expectedTotals(1, 10), { stream_id: "test-1", events: 1, total: "5" }]);
    });

    it("catches projectors up together, and the first failure stops the others at their next batch", async () => {
      await seed(4, 100);
      const broken = defineProjector({
        name: "test_broken",
        version: 1,
        description: "test: fails on its first batch",
        tables: ["test_broken"],
        ddl: "create table test_broken (id int)",
        onEvery: async () => {
          throw new Error("broken on purpose");
        },
      });
      // 2 ms an event, 10 a batch: the whole log would take the counter most of a second.
      const r = runner([countingProjector({ delayMs: 2 }), broken], { batchSize: 10 });
      await expect(r.catchUp()).rejects.toThrow("broken on purpose");
      const [counting] = await listGenerations(db.sql, "test_counts");
      expect(counting?.eventsApplied).toBeLessThan(100);
      // What it did apply stands, and the next catch-up goes on from there.
      await runner([countingProjector()]).catchUp(["test_counts"]);
      expect(await totals()).toEqual(expectedTotals(4, 100));
    });

    it("follows a live runner's checkpoint instead of racing it for every batch, and steps itself once that runner stops", async () => {
      const applied = async () => (await listGenerations(db.sql, "test_counts"))[0]?.eventsApplied ?? 0;
      const live = runner([countingProjector({ delayMs: 10 })], { batchSize: 10 });
      live.start();
      await seed(2, 60);
      await expect.poll(applied, { timeout: 10_000 }).toBeGreaterThan(0);
      const reports: CatchUpProgress[] = [];
      const catchingUp = runner([countingProjector()], { batchSize: 10, followStallMs: 200 }).catchUp(undefined, {
        onProgress: (progress) => reports.push(progress),
      });
      await expect.poll(applied, { timeout: 10_000 }).toBeGreaterThanOrEqual(60);
      expect(reports.some((r) => r.following)).toBe(true);

      // The live runner stops halfway: the follower finds the checkpoint still and goes on itself.
      await live.stop();
      const stopped = await applied();
      expect(stopped).toBeLessThan(120);
      await catchingUp;
      expect(await totals()).toEqual(expectedTotals(2, 60));
      const last = reports.at(-1);
      expect(last).toMatchObject({ done: last?.total, following: false });
    });

    it("prepares every projector's views before any event, so readers never find them missing", async () => {
      await runner([countingProjector(), streamVersions]).prepare();
      expect(await db.sql`select * from test_count`).toEqual([]);
      expect(await db.sql`select * from stream_version`).toEqual([]);
    });

    it("rests a resting projector only once caught up, and stops without waiting out the rest", async () => {
      await seed(1, 120);
      const resting = { ...countingProjector(), restMs: 60_000 };
      const r = runner([resting], { batchSize: 50 });
      r.start();
      // Full batches of a backlog follow one another: no minute's rest between them.
      const { position } = await store.append("test-1", [anEvent({ data: { value: 3 } })], "no_stream");
      expect(await r.waitFor(["test_counts"], position, 5000)).toBe(true);
      expect(await totals()).toEqual([...expectedTotals(1, 120), { stream_id: "test-1", events: 1, total: "3" }]);
      const stopping = Date.now();
      await r.stop();
      expect(Date.now() - stopping).toBeLessThan(1000);
    });

    it("vacuums and analyses a projector's tables when it reaches the head having handled enough events since it last did", async () => {
      await seed(2, 60);
      const estimate = async () => {
        const active = (await findGeneration(db.sql, "test_counts", "active")) as { schemaName: string };
        const [row] = await db.sql<{ reltuples: number; relallvisible: number }[]>`
          select c.reltuples, c.relallvisible from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = ${active.schemaName} and c.relname = 'test_count'`;
        return row;
      };
      await runner([countingProjector()], { batchSize: 50 }).catchUp();
      // never vacuumed or analysed: 120 events are far below the default
      expect(await estimate()).toEqual({ reltuples: -1, relallvisible: 0 });

      await store.append(
        "test-9",
        Array.from({ length: 60 }, () => anEvent()),
        "no_stream",
      );
      await runner([countingProjector()], { batchSize: 50, vacuumAfter: 50 }).catchUp();
      // Three rows, and their one page marked seen whole by every reader (the vacuum's work).
      expect(await estimate()).toEqual({ reltuples: 3, relallvisible: 1 });
    });

    it("lets a command wait until chosen projectors have reached its append", async () => {
      const r = runner([countingProjector()], { idlePollMs: 1000 });
      r.start();
      const { position } = await store.append("test-0", [anEvent({ data: { value: 7 } })], "no_stream");
      expect(await r.waitFor(["test_counts"], position, 5000)).toBe(true);
      expect(await totals()).toEqual([{ stream_id: "test-0", events: 1, total: "7" }]);

      await r.stop();
      const next = await store.append("test-0", [anEvent()], 0);
      expect(await r.waitFor(["test_counts"], next.position, 200)).toBe(false);
    });
  });
}
