import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AccountNotFound,
  InvalidSubmitterAccessTransition,
  NotAllowed,
  UnknownCompetition,
} from "../../src/commands/accounts/errors.js";
import {
  bootstrapAdmin,
  changeRole,
  decideSubmitterAccess,
  ensureAccount,
  finaliseDeletion,
  rejectSubmitterAccess,
  requestDeletion,
  requestSubmitterAccess,
} from "../../src/commands/accounts/handlers.js";
import { PostgresEventStore } from "../../src/event-store/postgres.js";
import { accountIdForSubject, accountStream } from "../../streams/account.js";
import { competitionStream } from "../../streams/competition.js";
import { backends, type TestDatabase } from "../support/databases.js";
import { anEvent } from "../support/events.js";

const at = (minute: number) => ({ now: new Date(Date.UTC(2026, 10, 22, 10, minute)) });

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`account commands on ${backend.name}`, () => {
    let db: TestDatabase;
    let store: PostgresEventStore;
    let adminId: string;
    const competition = async () => {
      const competitionId = `comp-${randomUUID()}`;
      await store.append(
        competitionStream(competitionId),
        [anEvent({ type: "CompetitionRegistered", data: { competitionId, name: "IPL", sourceIds: [] } })],
        "no_stream",
      );
      return competitionId;
    };
    const types = async (accountId: string) => (await store.readStream(accountStream(accountId))).map((e) => e.type);
    const newUser = async () =>
      (await ensureAccount(store, { subject: randomUUID(), displayName: "Ada" }, at(0))).account;

    beforeAll(async () => {
      db = await backend.open();
      store = new PostgresEventStore(db.sql);
      adminId = (await bootstrapAdmin(store, `admin-${randomUUID()}`, at(0))).account.accountId;
    });
    afterAll(() => db?.close());

    it("creates one account when a new subject signs in on several requests at once", async () => {
      const subject = `sub-${randomUUID()}`;
      const outcomes = await Promise.all(
        Array.from({ length: 6 }, () => ensureAccount(store, { subject, displayName: "Ada" }, at(1))),
      );
      const accountId = accountIdForSubject(subject);
      expect(new Set(outcomes.map((o) => o.account.accountId))).toEqual(new Set([accountId]));
      expect(outcomes.filter((o) => o.events.length > 0)).toHaveLength(1);
      expect(await types(accountId)).toEqual(["AccountCreated"]);
      const [created] = await store.readStream(accountStream(accountId));
      expect(created?.metadata).toMatchObject({ actor: accountId, occurredAt: "2026-11-22T10:01:00.000Z" });
      expect(outcomes[0]?.account).toMatchObject({ subject, role: "viewer", approvalState: null, competitionIds: [] });
    });

    it("takes a request, an approval, a scope change and a revocation, each by its actor", async () => {
      const [ipl, bbl] = [await competition(), await competition()];
      const user = await newUser();
      const requested = await requestSubmitterAccess(store, { accountId: user.accountId, competitionId: ipl }, at(2));
      expect(requested.account).toMatchObject({ approvalState: "pending", requestedCompetitionId: ipl });

      const decide = (decision: Parameters<typeof decideSubmitterAccess>[1]["decision"]) =>
        decideSubmitterAccess(store, { actorId: adminId, accountId: user.accountId, decision }, at(3));
      expect((await decide({ approved: true })).account).toMatchObject({ role: "submitter", competitionIds: [ipl] });
      expect((await decide({ approved: true, competitionIds: [bbl, ipl] })).account.competitionIds).toEqual(
        [bbl, ipl].sort(),
      );
      const revoked = await decide({ approved: false });
      expect(revoked.account).toMatchObject({ role: "viewer", approvalState: "approved", competitionIds: [] });

      const events = await store.readStream(accountStream(user.accountId));
      expect(events.map((e) => [e.type, e.metadata.actor])).toEqual([
        ["AccountCreated", user.accountId],
        ["SubmitterAccessRequested", user.accountId],
        ["SubmitterAccessApproved", adminId],
        ["SubmitterScopeReplaced", adminId],
        ["SubmitterAccessRevoked", adminId],
      ]);
    });

    it("writes nothing when a transition is refused", async () => {
      const ipl = await competition();
      const user = await newUser();
      await requestSubmitterAccess(store, { accountId: user.accountId, competitionId: ipl }, at(4));
      const before = await store.readStream(accountStream(user.accountId));
      await expect(
        requestSubmitterAccess(store, { accountId: user.accountId, competitionId: ipl }, at(5)),
      ).rejects.toBeInstanceOf(InvalidSubmitterAccessTransition);
      await expect(
        decideSubmitterAccess(
          store,
          { actorId: adminId, accountId: user.accountId, decision: { approved: false } },
          at(5),
        ),
      ).rejects.toBeInstanceOf(InvalidSubmitterAccessTransition);
      await expect(
        changeRole(store, { actorId: adminId, accountId: adminId, role: "admin" }, at(5)),
      ).rejects.toBeInstanceOf(InvalidSubmitterAccessTransition);
      expect(await store.readStream(accountStream(user.accountId))).toEqual(before);
      expect(await types(adminId)).toEqual(["AccountCreated", "AccountPromoted"]);
    });

    it("looks up the competitions a decision needs in the event store", async () => {
      const user = await newUser();
      await expect(
        requestSubmitterAccess(store, { accountId: user.accountId, competitionId: "no-such-competition" }, at(6)),
      ).rejects.toMatchObject({
        code: "VALIDATION_FAILED",
        details: [{ code: "COMPETITION_NOT_FOUND", field: "competitionId", message: expect.any(String) }],
      });
      const ipl = await competition();
      await requestSubmitterAccess(store, { accountId: user.accountId, competitionId: ipl }, at(6));
      await decideSubmitterAccess(
        store,
        { actorId: adminId, accountId: user.accountId, decision: { approved: true } },
        at(7),
      );
      await expect(
        decideSubmitterAccess(
          store,
          { actorId: adminId, accountId: user.accountId, decision: { approved: true, competitionIds: [ipl, "nope"] } },
          at(7),
        ),
      ).rejects.toBeInstanceOf(UnknownCompetition);
    });

    it("lets only an active admin decide", async () => {
      const ipl = await competition();
      const [user, other] = [await newUser(), await newUser()];
      await requestSubmitterAccess(store, { accountId: user.accountId, competitionId: ipl }, at(8));
      await expect(
        rejectSubmitterAccess(store, { actorId: other.accountId, accountId: user.accountId }, at(8)),
      ).rejects.toBeInstanceOf(NotAllowed);

      const formerAdmin = await newUser();
      await changeRole(store, { actorId: adminId, accountId: formerAdmin.accountId, role: "admin" }, at(8));
      await requestDeletion(store, formerAdmin.accountId, at(9));
      await expect(
        changeRole(store, { actorId: formerAdmin.accountId, accountId: user.accountId, role: "admin" }, at(9)),
      ).rejects.toBeInstanceOf(NotAllowed);

      const rejected = await rejectSubmitterAccess(store, { actorId: adminId, accountId: user.accountId }, at(9));
      expect(rejected.account).toMatchObject({ role: "viewer", approvalState: "rejected", decidedBy: adminId });
      await expect(
        changeRole(store, { actorId: adminId, accountId: randomUUID(), role: "admin" }, at(9)),
      ).rejects.toBeInstanceOf(AccountNotFound);
    });

    it("deletes in two steps, each idempotent on retry, and never revives a deleted account", async () => {
      const subject = `sub-${randomUUID()}`;
      const { account } = await ensureAccount(store, { subject, displayName: "Ada" }, at(10));
      const disabled = await Promise.all([
        requestDeletion(store, account.accountId, at(11)),
        requestDeletion(store, account.accountId, at(11)),
      ]);
      expect(disabled.map((d) => d.account.disabled)).toEqual([true, true]);
      expect((await requestDeletion(store, account.accountId, at(12))).events).toEqual([]);
      const tombstoned = await finaliseDeletion(store, account.accountId, at(13));
      expect(tombstoned.account).toMatchObject({ subject: null, displayName: "Deleted account", tombstoned: true });
      expect((await finaliseDeletion(store, account.accountId, at(14))).events).toEqual([]);
      expect((await requestDeletion(store, account.accountId, at(14))).events).toEqual([]);

      const again = await ensureAccount(store, { subject, displayName: "Ada Again" }, at(15));
      expect(again.events).toEqual([]);
      expect(again.account).toMatchObject({ tombstoned: true, disabled: true });
      await expect(bootstrapAdmin(store, subject, at(15))).rejects.toThrow(/is deleted/);
      expect(await types(account.accountId)).toEqual(["AccountCreated", "AccountDisabled", "AccountTombstoned"]);
    });
  });
}
