import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureAccount, finaliseDeletion, requestDeletion } from "../../src/commands/accounts/handlers.js";
import type { EventStore } from "../../src/event-store/port.js";
import { PostgresEventStore } from "../../src/event-store/postgres.js";
import { sealExistingEvents } from "../../src/personal-data/existing-events.js";
import { PersonalDataStore } from "../../src/personal-data/store.js";
import { accounts } from "../../src/projections/accounts.js";
import { accountIdForSubject, accountStream } from "../../streams/account.js";
import { CricketWorld } from "../support/cricket-world.js";
import { backends, type TestDatabase } from "../support/databases.js";
import { anEvent } from "../support/events.js";

/**
 * The start-up step that brings events written before sealing existed in line: plain
 * personal fields sealed in place, those of accounts deleted back then set to null, a key a
 * tombstone left behind destroyed; and running it again changes nothing.
 */
const now = { now: new Date("2026-11-22T10:00:00Z") };

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`sealing existing events on ${backend.name}`, () => {
    let db: TestDatabase;
    /** The store as it was before this change: plain text in, plain text out. */
    let plain: EventStore;
    let sealing: EventStore;
    const tag = randomUUID().slice(0, 8);
    const people = {
      kept: { subject: `kept-${tag}`, names: [`Kept Original ${tag}`, `Kept Renamed ${tag}`] },
      deletedBefore: { subject: `deleted-before-${tag}`, names: [`Deleted Before ${tag}`, `Deleted Renamed ${tag}`] },
      interrupted: { subject: `interrupted-${tag}`, names: [`Interrupted Person ${tag}`] },
    };
    const idOf = (person: { subject: string }) => accountIdForSubject(person.subject);
    const secrets = Object.values(people).flatMap((p) => [p.subject, ...p.names]);

    const accountEvents = () =>
      db.sql<{ id: string; data: string }[]>`
        select event_id::text as id, data::text from events where starts_with(stream_id, 'account-')
        order by global_position`;
    const keyed = async () =>
      (await db.sql<{ account_id: string }[]>`select account_id from personal_data_keys order by 1`).map(
        (r) => r.account_id,
      );

    beforeAll(async () => {
      db = await backend.open();
      plain = new PostgresEventStore(db.sql);
      sealing = new PersonalDataStore(plain, db.sql);
      const signIns = (store: EventStore, { subject, names }: { subject: string; names: string[] }) =>
        names.reduce(
          (done, displayName) => done.then(() => ensureAccount(store, { subject, displayName }, now)),
          Promise.resolve() as Promise<unknown>,
        );
      // Before this change: one account kept, one deleted (tombstoned, its names still in the log).
      // The kept account's two names in one append, so one of them is not its commit's first event.
      await plain.append(
        accountStream(idOf(people.kept)),
        [
          anEvent({
            type: "AccountCreated",
            data: { accountId: idOf(people.kept), subject: people.kept.subject, displayName: people.kept.names[0] },
          }),
          anEvent({ type: "AccountProfileSynced", data: { displayName: people.kept.names[1] } }),
        ],
        "no_stream",
      );
      await signIns(plain, people.deletedBefore);
      await requestDeletion(plain, idOf(people.deletedBefore), now);
      await finaliseDeletion(plain, idOf(people.deletedBefore), now);
      // After it, a deletion whose key destruction never ran (the process stopped after the append).
      await signIns(sealing, people.interrupted);
      await requestDeletion(sealing, idOf(people.interrupted), now);
      const [left] = await db.sql`select * from personal_data_keys where account_id = ${idOf(people.interrupted)}`;
      await finaliseDeletion(sealing, idOf(people.interrupted), now);
      await db.sql`insert into personal_data_keys ${db.sql(left as Record<string, unknown>)}`;
    });
    afterAll(() => db?.close());

    it("starts from plain names in the log and a key the tombstone left", async () => {
      const text = (await accountEvents()).map((e) => e.data).join("\n");
      for (const secret of [people.kept, people.deletedBefore].flatMap((p) => [p.subject, ...p.names]))
        expect(text).toContain(secret);
      expect(await keyed()).toEqual([idOf(people.interrupted)]);
    });

    it("seals the kept account, nulls the deleted ones, destroys the left key; again, it changes nothing", async () => {
      expect(await sealExistingEvents(db.sql)).toEqual({ sealed: 2, erased: 2, keysDestroyed: 1 });

      const after = await accountEvents();
      const text = after.map((e) => e.data).join("\n");
      for (const secret of secrets) expect(text).not.toContain(secret);
      expect(await keyed()).toEqual([idOf(people.kept)]);

      expect(await sealExistingEvents(db.sql)).toEqual({ sealed: 0, erased: 0, keysDestroyed: 0 });
      expect(await accountEvents()).toEqual(after);
    });

    it("reads the kept account's names back, and the deleted ones' as null", async () => {
      const read = async (person: { subject: string }) =>
        (await sealing.readStream(accountStream(idOf(person)))).map((e) => e.data);
      expect((await read(people.kept)).slice(0, 2)).toEqual([
        { accountId: idOf(people.kept), subject: people.kept.subject, displayName: people.kept.names[0] },
        { displayName: people.kept.names[1] },
      ]);
      expect((await read(people.deletedBefore)).slice(0, 2)).toEqual([
        { accountId: idOf(people.deletedBefore), subject: null, displayName: null },
        { displayName: null },
      ]);
      expect((await read(people.interrupted))[0]).toEqual({
        accountId: idOf(people.interrupted),
        subject: null,
        displayName: null,
      });
    });

    it("rebuilds the accounts read model with the kept names and the tombstones, nothing more", async () => {
      const world = new CricketWorld(db.sql, [accounts]);
      await world.runner.rebuild("accounts");
      await world.catchUp(await world.store.head());
      const rows = await db.sql<{ account_id: string; subject: string | null; display_name: string }[]>`
        select account_id, subject, display_name from account`;
      expect(new Map(rows.map((r) => [r.account_id, [r.subject, r.display_name]]))).toEqual(
        new Map([
          [idOf(people.kept), [people.kept.subject, people.kept.names[1]]],
          [idOf(people.deletedBefore), [null, "Deleted account"]],
          [idOf(people.interrupted), [null, "Deleted account"]],
        ]),
      );
    });
  });
}
