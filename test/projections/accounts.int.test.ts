import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findAccount, findAccountBySubject, listActiveAccounts } from "../../src/accounts/queries.js";
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
import { accounts } from "../../src/projections/accounts.js";
import { referenceData } from "../../src/projections/reference-data.js";
import { accountIdForSubject } from "../../streams/account.js";
import { aCompetition } from "../support/cricket-builders.js";
import { CricketWorld } from "../support/cricket-world.js";
import { backends, type TestDatabase } from "../support/databases.js";
import { replayWholeLog, snapshot } from "../support/read-models.js";

const at = (minute: number) => ({ now: new Date(Date.UTC(2026, 10, 22, 10, minute)) });
const time = (minute: number) => at(minute).now;

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`accounts read model on ${backend.name}`, () => {
    let db: TestDatabase;
    let world: CricketWorld;
    const ipl = aCompetition({ name: "Indian Premier League" });
    const bbl = aCompetition({ name: "Big Bash League" });
    const id = accountIdForSubject;

    beforeAll(async () => {
      db = await backend.open();
      world = new CricketWorld(db.sql, [referenceData, accounts]);
      await world.given(ipl, bbl);
      const { store } = world;
      const admin = (await bootstrapAdmin(store, "root", at(0))).account.accountId;
      const signIn = (subject: string, displayName: string, minute: number) =>
        ensureAccount(store, { subject, displayName }, at(minute));
      const decide = (
        subject: string,
        decision: { approved: true; competitionIds?: string[] } | { approved: false },
        minute: number,
      ) => decideSubmitterAccess(store, { actorId: admin, accountId: id(subject), decision }, at(minute));

      // ada: requests, is approved, renames herself, gets a wider scope
      await signIn("ada", "Ada Lovelace", 1);
      await requestSubmitterAccess(store, { accountId: id("ada"), competitionId: ipl.id }, at(2));
      await decide("ada", { approved: true }, 3);
      await signIn("ada", "Ada King", 4);
      await decide("ada", { approved: true, competitionIds: [ipl.id, bbl.id] }, 5);
      // bob: requests and is rejected
      await signIn("bob", "Bob", 6);
      await requestSubmitterAccess(store, { accountId: id("bob"), competitionId: bbl.id }, at(7));
      await rejectSubmitterAccess(store, { actorId: admin, accountId: id("bob") }, at(8));
      // cy: approved, then revoked
      await signIn("cy", "Cy", 9);
      await requestSubmitterAccess(store, { accountId: id("cy"), competitionId: ipl.id }, at(10));
      await decide("cy", { approved: true }, 11);
      await decide("cy", { approved: false }, 12);
      // dee: deleted; eve: promoted
      await signIn("dee", "Dee", 13);
      await requestDeletion(store, id("dee"), at(14));
      await finaliseDeletion(store, id("dee"), at(15));
      await signIn("eve", "Eve", 16);
      await changeRole(store, { actorId: admin, accountId: id("eve"), role: "admin" }, at(17));
      await world.catchUp(await store.head());
    });
    afterAll(() => db?.close());

    it("keeps each account's role, request, scope and latest decision", async () => {
      const rows = await db.sql`
        select account_id, subject, display_name, role, approval_state, requested_competition_id, competition_ids,
               disabled, tombstoned, created_at, updated_at, decided_by, decided_at
        from account order by created_at`;
      const admin = id("root");
      expect(rows).toEqual([
        {
          ...row("root", "root", time(0)),
          role: "admin",
          decided_by: "cli",
          decided_at: time(0),
        },
        {
          ...row("ada", "Ada King", time(1), time(5)),
          role: "submitter",
          approval_state: "approved",
          requested_competition_id: ipl.id,
          competition_ids: [ipl.id, bbl.id].sort(),
          decided_by: admin,
          decided_at: time(5),
        },
        {
          ...row("bob", "Bob", time(6), time(8)),
          approval_state: "rejected",
          requested_competition_id: bbl.id,
          decided_by: admin,
          decided_at: time(8),
        },
        {
          ...row("cy", "Cy", time(9), time(12)),
          approval_state: "approved",
          requested_competition_id: ipl.id,
          decided_by: admin,
          decided_at: time(12),
        },
        {
          ...row("dee", "Deleted account", time(13), time(15)),
          subject: null,
          disabled: true,
          tombstoned: true,
        },
        { ...row("eve", "Eve", time(16), time(17)), role: "admin", decided_by: admin, decided_at: time(17) },
      ]);
    });

    it("finds an account by id or subject, with its requested competition's name", async () => {
      const ada = await findAccount(db.sql, id("ada"));
      expect(ada).toMatchObject({
        accountId: id("ada"),
        subject: "ada",
        displayName: "Ada King",
        role: "submitter",
        approvalState: "approved",
        requestedCompetition: { competitionId: ipl.id, name: "Indian Premier League" },
        competitionIds: [ipl.id, bbl.id].sort(),
      });
      expect(await findAccountBySubject(db.sql, "ada")).toEqual(ada);
      expect(await findAccount(db.sql, id("eve"))).toMatchObject({ approvalState: null, requestedCompetition: null });
      expect(await findAccountBySubject(db.sql, "dee")).toBeUndefined();
      expect(await findAccount(db.sql, id("dee"))).toMatchObject({ subject: null, tombstoned: true });
      expect(await findAccount(db.sql, "nobody")).toBeUndefined();
    });

    it("lists active accounts oldest first, page by page", async () => {
      const all = await listActiveAccounts(db.sql, { take: 100 });
      expect(all.map((a) => a.subject)).toEqual(["root", "ada", "bob", "cy", "eve"]);
      const first = await listActiveAccounts(db.sql, { take: 2 });
      const last = first.at(-1);
      if (!last) throw new Error("empty page");
      const next = await listActiveAccounts(db.sql, {
        take: 10,
        after: [last.createdAt.toISOString(), last.accountId],
      });
      expect([...first, ...next].map((a) => a.subject)).toEqual(["root", "ada", "bob", "cy", "eve"]);
    });

    it("changes nothing when the whole log is applied again", async () => {
      const before = await snapshot(db.sql, accounts.tables);
      await replayWholeLog(db.sql, world.store, accounts);
      expect(await snapshot(db.sql, accounts.tables)).toEqual(before);
    });
  });
}

/** The row of a viewer that never asked for anything. */
function row(subject: string, displayName: string, createdAt: Date, updatedAt = createdAt) {
  return {
    account_id: accountIdForSubject(subject),
    subject,
    display_name: displayName,
    role: "viewer",
    approval_state: null,
    requested_competition_id: null,
    competition_ids: [],
    disabled: false,
    tombstoned: false,
    created_at: createdAt,
    updated_at: updatedAt,
    decided_by: null,
    decided_at: null,
  };
}
