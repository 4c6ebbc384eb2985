import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../src/db/migrations.js";
import { DuplicateEventId, type Position, type RecordedEvent, START } from "../../src/event-store/port.js";
import { PostgresEventStore } from "../../src/event-store/postgres.js";
import { backends, type TestDatabase } from "../support/databases.js";

const metadata = { actor: "test", occurredAt: "2026-11-27T12:00:00.000Z", schemaVersion: 1 };

type OldRow = {
  global_position: string;
  transaction_id: string;
  stream_id: string;
  stream_revision: string;
  event_id: string;
  event_type: string;
  data: unknown;
};

/** What a reader of the old table got, in the old order, as the store answers it now. */
const asBefore = (rows: OldRow[]) =>
  rows.map((r) => ({
    position: { commit: BigInt(r.transaction_id), index: BigInt(r.global_position) },
    streamId: r.stream_id,
    revision: Number(r.stream_revision),
    id: r.event_id,
    type: r.event_type,
    data: r.data,
  }));

const seen = (events: RecordedEvent[]) =>
  events.map(({ position, streamId, revision, id, type, data }) => ({ position, streamId, revision, id, type, data }));

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`moving the events into commits on ${backend.name}`, () => {
    let db: TestDatabase;
    let before: ReturnType<typeof asBefore>;
    const [first, second, lone] = [randomUUID(), randomUUID(), randomUUID()].map((id) => `fixture-${id}`) as [
      string,
      string,
      string,
    ];
    const ids = Array.from({ length: 7 }, () => randomUUID());

    beforeAll(async () => {
      db = await backend.open({ through: "006-dataset-releases.sql" });
      type Sql = TestDatabase["sql"];
      const insert = (sql: Sql, streamId: string, revision: number, n: number) =>
        sql`insert into events (stream_id, stream_revision, event_id, event_type, data, metadata)
            values (${streamId}, ${revision}, ${ids[n] as string}::uuid, 'DeliveryRecorded', ${sql.json({ n })},
                    ${sql.json(metadata)})`;
      await db.sql`insert into streams values (${first}, 2), (${second}, 1), (${lone}, 0)`;
      // Two appends whose transactions overlapped took turns at positions: here one
      // transaction writes both streams alternately, so neither stream's events are consecutive.
      await db.sql.begin(async (tx) => {
        const sql = tx as unknown as Sql;
        await insert(sql, first, 0, 0);
        await insert(sql, second, 0, 1);
        await insert(sql, first, 1, 2);
        await insert(sql, first, 2, 3);
        await insert(sql, second, 1, 4);
      });
      await insert(db.sql, lone, 0, 5);
      before = asBefore(
        await db.sql<OldRow[]>`
          select global_position::text, transaction_id::text, stream_id, stream_revision::text, event_id::text,
                 event_type, data
          from events order by transaction_id, global_position`,
      );
      expect(await migrate(db.sql, { through: "007-event-commits.sql" })).toEqual(["007-event-commits.sql"]);
    });

    afterAll(async () => {
      await db?.close();
    });

    it("keeps every event at its position, in the same order, each stream's in revision order", async () => {
      const store = new PostgresEventStore(db.sql);
      expect(seen(await store.readAll(START, 100))).toEqual(before);
      expect(seen(await store.readStream(first))).toEqual(before.filter((e) => e.streamId === first));
      expect(seen(await store.readStream(first, { fromRevision: 2 }))).toEqual(
        before.filter((e) => e.streamId === first && e.revision === 2),
      );
      // A checkpoint taken before the move reads on from where it was, also mid-stream.
      const third = (before[2] as { position: Position }).position;
      expect(seen(await store.readAll(third, 2))).toEqual(before.slice(3, 5));
      expect(await store.distance(START, await store.head())).toBe(before.length);
      expect(await store.distance(third, await store.head())).toBe(before.length - 3);
    });

    it("answers a retry of an old append as the first time, refuses its ids elsewhere, and appends after it", async () => {
      const store = new PostgresEventStore(db.sql);
      const old = before.at(-1) as (typeof before)[number];
      const retry = await store.append(lone, [{ id: old.id, type: old.type, data: old.data, metadata }], -1);
      expect(retry).toEqual({ nextRevision: 0, position: old.position });
      await expect(
        store.append(second, [{ id: ids[0] as string, type: "DeliveryRecorded", data: {}, metadata }], "any"),
      ).rejects.toBeInstanceOf(DuplicateEventId);

      const next = await store.append(
        lone,
        [{ id: ids[6] as string, type: "DeliveryRecorded", data: {}, metadata }],
        0,
      );
      expect(next.nextRevision).toBe(1);
      expect(next.position.index).toBeGreaterThan(old.position.index);
      const all = await store.readAll(START, 100);
      expect(seen(all.slice(0, before.length))).toEqual(before);
      expect(all.at(-1)).toMatchObject({ id: ids[6], streamId: lone, revision: 1, position: next.position });
    });

    it("shows every event in the events view as the table had it", async () => {
      const rows = await db.sql<OldRow[]>`
        select global_position::text, transaction_id::text, stream_id, stream_revision::text, event_id::text,
               event_type, data
        from events where event_id = any(${ids.slice(0, 6)}::uuid[]) order by transaction_id, global_position`;
      expect(asBefore(rows)).toEqual(before);
    });
  });
}
