import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureAccount, finaliseDeletion, loadAccount, requestDeletion } from "../../src/commands/accounts/handlers.js";
import type { EventStore } from "../../src/event-store/port.js";
import { START } from "../../src/event-store/port.js";
import { PostgresEventStore } from "../../src/event-store/postgres.js";
import { SealBroken } from "../../src/personal-data/cipher.js";
import { provideKeys } from "../../src/personal-data/keys.js";
import { PersonalDataStore } from "../../src/personal-data/store.js";
import { accountIdForSubject, accountStream } from "../../streams/account.js";
import { competitionStream } from "../../streams/competition.js";
import { backends, type TestDatabase } from "../support/databases.js";
import { anEvent } from "../support/events.js";

/**
 * The event store with personal data sealed: what reaches the events table, what readers
 * get back, and what they get once the account is tombstoned and its key destroyed.
 */
const now = { now: new Date("2026-11-22T10:00:00Z") };

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`personal data in the event store on ${backend.name}`, () => {
    let db: TestDatabase;
    let store: EventStore;

    beforeAll(async () => {
      db = await backend.open();
      store = new PersonalDataStore(new PostgresEventStore(db.sql), db.sql);
    });
    afterAll(() => db?.close());

    /** The stored data of a stream's events, as the table holds it. */
    const stored = async (streamId: string) =>
      (
        await db.sql<{ data: Record<string, unknown> }[]>`
          select data from events where stream_id = ${streamId} order by stream_revision`
      ).map((r) => r.data);
    const keyCount = async (accountId: string) =>
      (await db.sql`select 1 from personal_data_keys where account_id = ${accountId}`).length;
    const sealed = { $enc: expect.stringMatching(/^v1:[A-Za-z0-9_-]+$/) };

    /** An account signed in as `name`, then as `renamed`: AccountCreated and AccountProfileSynced. */
    async function anAccount(name: string, renamed: string) {
      const subject = `subject-${randomUUID()}`;
      await ensureAccount(store, { subject, displayName: name }, now);
      await ensureAccount(store, { subject, displayName: renamed }, now);
      return { subject, accountId: accountIdForSubject(subject) };
    }

    it("stores the subject and display names sealed, and reads them back in plain text", async () => {
      const { subject, accountId } = await anAccount("Asha Rao", "Asha R.");
      expect(await stored(accountStream(accountId))).toEqual([
        { accountId, subject: sealed, displayName: sealed },
        { displayName: sealed },
      ]);
      const raw = JSON.stringify(await stored(accountStream(accountId)));
      for (const secret of [subject, "Asha"]) expect(raw).not.toContain(secret);

      expect((await store.readStream(accountStream(accountId))).map((e) => e.data)).toEqual([
        { accountId, subject, displayName: "Asha Rao" },
        { displayName: "Asha R." },
      ]);
      // Catch-up reads wait for every older transaction on the server, so poll.
      await expect
        .poll(async () =>
          (await store.readAll(START, 10_000))
            .filter((e) => e.streamId === accountStream(accountId))
            .map((e) => e.data),
        )
        .toEqual([{ accountId, subject, displayName: "Asha Rao" }, { displayName: "Asha R." }]);
      expect(await keyCount(accountId)).toBe(1);
    });

    it("leaves events without personal fields as they are, and makes no key for them", async () => {
      const competitionId = `comp-${randomUUID()}`;
      const data = { competitionId, name: "Indian Premier League", sourceIds: [] };
      await store.append(competitionStream(competitionId), [anEvent({ type: "CompetitionRegistered", data })], -1);
      expect(await stored(competitionStream(competitionId))).toEqual([data]);
      expect(await keyCount(competitionId)).toBe(0);
    });

    it("destroys the key with the tombstone: the personal fields read as null, the account as deleted", async () => {
      const { accountId } = await anAccount("Ben Stokes-Leaving", "Ben S.");
      await requestDeletion(store, accountId, now);
      const before = await stored(accountStream(accountId));
      await finaliseDeletion(store, accountId, now);

      expect(await keyCount(accountId)).toBe(0);
      // Nothing was rewritten: the envelopes are there, only nothing opens them any more.
      expect((await stored(accountStream(accountId))).slice(0, before.length)).toEqual(before);
      expect((await store.readStream(accountStream(accountId))).map((e) => [e.type, e.data])).toEqual([
        ["AccountCreated", { accountId, subject: null, displayName: null }],
        ["AccountProfileSynced", { displayName: null }],
        ["AccountDisabled", { reason: "deletion-requested" }],
        ["AccountTombstoned", {}],
      ]);
      expect(await loadAccount(store, accountId)).toMatchObject({
        accountId,
        subject: null,
        displayName: "Deleted account",
        tombstoned: true,
      });
    });

    it("keeps other accounts readable when one is erased", async () => {
      const kept = await anAccount("Kept Person", "Kept P.");
      const gone = await anAccount("Gone Person", "Gone P.");
      await requestDeletion(store, gone.accountId, now);
      await finaliseDeletion(store, gone.accountId, now);
      expect(await loadAccount(store, kept.accountId)).toMatchObject({ subject: kept.subject, displayName: "Kept P." });
    });

    it("fails loudly on an envelope that does not open, instead of reading it as erased", async () => {
      const { accountId } = await anAccount("Tamper Target", "Tamper T.");
      await db.sql`
        update commits c set events = jsonb_set(c.events, array[(e.ordinality - 1)::text, 'data', 'displayName'],
                                                '{"$enc": "v1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}')
        from commits o cross join lateral jsonb_array_elements(o.events) with ordinality as e (event, ordinality)
        where c.first_position = o.first_position and o.stream_id = ${accountStream(accountId)}
          and e.event ->> 'type' = 'AccountProfileSynced'`;
      await expect(store.readStream(accountStream(accountId))).rejects.toThrow(SealBroken);
    });

    it("gives racing first appends of one account one key", async () => {
      const accountId = randomUUID();
      const keys = await Promise.all(Array.from({ length: 8 }, () => provideKeys(db.sql, [accountId])));
      expect(new Set(keys.map((k) => k.get(accountId)?.toString("hex"))).size).toBe(1);
      expect(await keyCount(accountId)).toBe(1);
    });
  });
}
