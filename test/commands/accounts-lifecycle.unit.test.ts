import { describe, expect, it } from "vitest";
import { type AccountCommand, accountDecider } from "../../src/commands/accounts/decide.js";
import { AccountNotFound, InvalidSubmitterAccessTransition } from "../../src/commands/accounts/errors.js";
import type { AccountEvent } from "../../streams/account.js";
import { evolveAccount, initialAccountState } from "../../streams/account-state.js";
import { spec } from "../support/decider.js";
import { ADMIN, account, histories, USER } from "./accounts-histories.js";

const given = (history: AccountEvent[]) => spec(accountDecider).given(history);
const fold = (history: AccountEvent[]) => history.reduce(evolveAccount, initialAccountState());

const signIn = (displayName = "Ada Lovelace"): AccountCommand => ({
  type: "EnsureAccount",
  accountId: USER,
  subject: `sub-${USER}`,
  displayName,
});
const bootstrap: AccountCommand = { type: "BootstrapAdmin", accountId: USER, subject: "sub-user-1" };
const requestDeletion: AccountCommand = { type: "RequestDeletion", accountId: USER };
const finaliseDeletion: AccountCommand = { type: "FinaliseDeletion", accountId: USER };

describe("signing in", () => {
  it("creates a viewer with no request on first sight", () => given([]).when(signIn()).thenEmits([account.created()]));

  it("changes nothing when the display name is the same", () => given(histories.viewer).when(signIn()).thenEmits([]));

  it("syncs a changed display name", () =>
    given(histories.viewer)
      .when(signIn("Ada King"))
      .thenEmits([account.profileSynced("Ada King")]));

  it.each([
    ["pending", histories.pending],
    ["rejected", histories.rejected],
    ["revoked", histories.revoked],
  ])("never promotes, approves or grants scope (%s)", (_, history) => given(history).when(signIn()).thenEmits([]));

  it.each([
    ["a disabled account", histories.disabled],
    ["a deleted account", histories.tombstoned],
  ])("leaves %s alone, whatever the name", (_, history) => given(history).when(signIn("Someone Else")).thenEmits([]));

  it("folds a new account to a viewer with no request, no scope and no decision", () =>
    expect(fold(histories.viewer)).toEqual({
      accountId: USER,
      subject: `sub-${USER}`,
      displayName: "Ada Lovelace",
      role: "viewer",
      approvalState: null,
      requestedCompetitionId: null,
      competitionIds: [],
      disabled: false,
      tombstoned: false,
      decidedBy: null,
    }));
});

describe("what each decision leaves", () => {
  it("approval: submitter, approved, scope the stored competition", () =>
    expect(fold(histories.submitter)).toMatchObject({
      role: "submitter",
      approvalState: "approved",
      requestedCompetitionId: "ipl",
      competitionIds: ["ipl"],
      decidedBy: ADMIN,
    }));

  it("rejection: viewer, rejected, no scope", () =>
    expect(fold(histories.rejected)).toMatchObject({ role: "viewer", approvalState: "rejected", competitionIds: [] }));

  it("revocation: viewer, no scope, the approved decision kept", () =>
    expect(fold(histories.revoked)).toMatchObject({ role: "viewer", approvalState: "approved", competitionIds: [] }));

  it("scope replacement: the new scope, sorted", () =>
    expect(fold([...histories.submitter, account.scopeReplaced(["psl", "bbl"], "admin-2")])).toMatchObject({
      role: "submitter",
      competitionIds: ["bbl", "psl"],
      decidedBy: "admin-2",
    }));

  it("promotion: admin, the rest as it was", () =>
    expect(fold([...histories.submitter, account.promoted("cli")])).toMatchObject({
      role: "admin",
      approvalState: "approved",
      competitionIds: ["ipl"],
      decidedBy: "cli",
    }));
});

describe("bootstrapping an admin from the command line", () => {
  it("creates an unknown account, named after its subject, and promotes it", () =>
    given([])
      .when(bootstrap)
      .thenEmits([
        { type: "AccountCreated", data: { accountId: USER, subject: "sub-user-1", displayName: "sub-user-1" } },
        account.promoted("cli"),
      ]));

  it("promotes an existing account", () =>
    given(histories.pending)
      .when(bootstrap)
      .thenEmits([account.promoted("cli")]));

  it("changes nothing for an admin", () => given(histories.admin).when(bootstrap).thenEmits([]));

  it.each([
    ["a disabled account", histories.disabled],
    ["a deleted account", histories.tombstoned],
  ])("refuses %s", (_, history) => given(history).when(bootstrap).thenThrows(InvalidSubmitterAccessTransition));

  it("says why it refuses", () =>
    expect(() => accountDecider.decide(bootstrap, fold(histories.disabled))).toThrow(/disabled/));
});

describe("deleting an account", () => {
  it.each([
    ["viewer", histories.viewer],
    ["pending", histories.pending],
    ["submitter", histories.submitter],
    ["admin", histories.admin],
  ])("disables an active %s account", (_, history) =>
    given(history).when(requestDeletion).thenEmits([account.disabled()]),
  );

  it("revokes role, request and scope when disabling", () =>
    expect(fold(histories.disabled)).toMatchObject({
      disabled: true,
      role: "viewer",
      approvalState: null,
      requestedCompetitionId: null,
      competitionIds: [],
    }));

  it("changes nothing when asked again (a retry)", () => given(histories.disabled).when(requestDeletion).thenEmits([]));

  it("changes nothing on a deleted account", () => given(histories.tombstoned).when(requestDeletion).thenEmits([]));

  it("tombstones a disabled account", () =>
    given(histories.disabled).when(finaliseDeletion).thenEmits([account.tombstoned()]));

  it("replaces the identity fields with a tombstone", () =>
    expect(fold(histories.tombstoned)).toMatchObject({
      accountId: USER,
      subject: null,
      displayName: "Deleted account",
      disabled: true,
      tombstoned: true,
    }));

  it("finalises idempotently: a tombstoned account stays as it is", () =>
    given(histories.tombstoned).when(finaliseDeletion).thenEmits([]));

  it("does not tombstone an account whose deletion was not asked for", () =>
    given(histories.submitter).when(finaliseDeletion).thenThrows(InvalidSubmitterAccessTransition));

  it.each([requestDeletion, finaliseDeletion])("refuses an account that does not exist (%o)", (command) =>
    given([]).when(command).thenThrows(AccountNotFound),
  );
});
