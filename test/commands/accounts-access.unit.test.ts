import { describe, it } from "vitest";
import { type AccountCommand, type Actor, accountDecider } from "../../src/commands/accounts/decide.js";
import {
  AccountNotFound,
  InvalidSubmitterAccessTransition,
  NotAllowed,
  UnknownCompetition,
} from "../../src/commands/accounts/errors.js";
import type { AccountEvent } from "../../streams/account.js";
import { spec } from "../support/decider.js";
import { ADMIN, account, histories, USER } from "./accounts-histories.js";

const admin: Actor = { accountId: ADMIN, isAdmin: true };
const notAdmin: Actor = { accountId: "someone-else", isAdmin: false };
const given = (history: AccountEvent[]) => spec(accountDecider).given(history);

const request = (competitionId = "ipl", competitionExists = true): AccountCommand => ({
  type: "RequestSubmitterAccess",
  accountId: USER,
  competitionId,
  competitionExists,
});
const approve = (
  competitionIds?: string[],
  existingCompetitionIds = ["ipl", "bbl", "psl"],
  actor = admin,
): AccountCommand => ({
  type: "DecideSubmitterAccess",
  accountId: USER,
  actor,
  existingCompetitionIds,
  approved: true,
  ...(competitionIds ? { competitionIds } : {}),
});
const revoke = (actor = admin): AccountCommand => ({
  type: "DecideSubmitterAccess",
  accountId: USER,
  actor,
  existingCompetitionIds: [],
  approved: false,
});
const reject = (actor = admin): AccountCommand => ({ type: "RejectSubmitterAccess", accountId: USER, actor });
const changeRole = (role: "viewer" | "submitter" | "admin" = "admin", actor = admin): AccountCommand => ({
  type: "ChangeRole",
  accountId: USER,
  actor,
  role,
});

describe("requesting submitter access", () => {
  it("stores the requested competition: a viewer with no request becomes pending", () =>
    given(histories.viewer)
      .when(request())
      .thenEmits([account.requested("ipl")]));

  it("lets a rejected viewer request again", () =>
    given(histories.rejected)
      .when(request("bbl"))
      .thenEmits([account.requested("bbl")]));

  it.each([
    ["a pending request", histories.pending],
    ["an approved submitter", histories.submitter],
    ["a revoked submitter: a viewer holding the approved decision, like legacy approved", histories.revoked],
    ["an admin", histories.admin],
    ["a disabled account", histories.disabled],
    ["a deleted account", histories.tombstoned],
  ])("is refused for %s", (_, history) => given(history).when(request()).thenThrows(InvalidSubmitterAccessTransition));

  it("is refused for a competition that does not exist (422)", () =>
    given(histories.viewer).when(request("nope", false)).thenThrows(UnknownCompetition));

  it("is refused for an account that does not exist", () => given([]).when(request()).thenThrows(AccountNotFound));
});

describe("approving a pending request", () => {
  it("makes the viewer a submitter with exactly the stored competition", () =>
    given(histories.pending)
      .when(approve())
      .thenEmits([account.approved(["ipl"])]));

  it("accepts the stored competition named in the body", () =>
    given(histories.pending)
      .when(approve(["ipl"]))
      .thenEmits([account.approved(["ipl"])]));

  it("refuses any other scope than the stored competition", () =>
    given(histories.pending)
      .when(approve(["bbl"]))
      .thenThrows(InvalidSubmitterAccessTransition));

  it("refuses a request whose stored competition is no longer valid: it must be rejected", () =>
    given(histories.pending).when(approve(undefined, [])).thenThrows(InvalidSubmitterAccessTransition));

  it.each([
    ["a viewer with no request", histories.viewer],
    ["a rejected viewer", histories.rejected],
    ["a revoked submitter", histories.revoked],
    ["an admin", histories.admin],
    ["an admin with a pending request", histories.promotedWhilePending],
    ["a disabled account", histories.disabled],
    ["a deleted account", histories.tombstoned],
  ])("is refused for %s", (_, history) => given(history).when(approve()).thenThrows(InvalidSubmitterAccessTransition));

  it("is refused to a non-admin (403)", () =>
    given(histories.pending)
      .when(approve(undefined, undefined, notAdmin))
      .thenThrows(NotAllowed));

  it("is refused to an admin acting on their own account", () =>
    given(histories.pending)
      .when(approve(undefined, undefined, { accountId: USER, isAdmin: true }))
      .thenThrows(InvalidSubmitterAccessTransition));

  it("is refused for an account that does not exist (404)", () =>
    given([]).when(approve()).thenThrows(AccountNotFound));
});

describe("rejecting a pending request", () => {
  it("leaves a viewer, rejected, with every scope cleared", () =>
    given(histories.pending).when(reject()).thenEmits([account.rejected()]));

  it.each([
    ["a viewer with no request", histories.viewer],
    ["a rejected viewer", histories.rejected],
    ["an approved submitter", histories.submitter],
    ["a revoked submitter", histories.revoked],
    ["an admin", histories.admin],
    ["a disabled account", histories.disabled],
    ["a deleted account", histories.tombstoned],
  ])("is refused for %s", (_, history) => given(history).when(reject()).thenThrows(InvalidSubmitterAccessTransition));

  it("is refused to a non-admin (403)", () => given(histories.pending).when(reject(notAdmin)).thenThrows(NotAllowed));
});

describe("revoking an approved submitter (approved false)", () => {
  it("removes every scope", () => given(histories.submitter).when(revoke()).thenEmits([account.revoked()]));

  it.each([
    ["a pending request (it is rejected instead)", histories.pending],
    ["a viewer with no request", histories.viewer],
    ["a rejected viewer", histories.rejected],
    ["a submitter already revoked", histories.revoked],
    ["an admin", histories.admin],
    ["a disabled account", histories.disabled],
  ])("is refused for %s", (_, history) => given(history).when(revoke()).thenThrows(InvalidSubmitterAccessTransition));

  it("is refused to a non-admin (403)", () => given(histories.submitter).when(revoke(notAdmin)).thenThrows(NotAllowed));
});

describe("replacing an approved submitter's scope", () => {
  it("replaces it with the given competitions, as a set", () =>
    given(histories.submitter)
      .when(approve(["psl", "bbl", "psl"]))
      .thenEmits([account.scopeReplaced(["bbl", "psl"])]));

  it("changes nothing when the scope is the same", () =>
    given(histories.submitter)
      .when(approve(["ipl"]))
      .thenEmits([]));

  it("needs at least one competition", () =>
    given(histories.submitter).when(approve([])).thenThrows(InvalidSubmitterAccessTransition));

  it("needs competitions to replace with", () =>
    given(histories.submitter).when(approve()).thenThrows(InvalidSubmitterAccessTransition));

  it("refuses competitions that do not exist (422)", () =>
    given(histories.submitter)
      .when(approve(["bbl", "nope"]))
      .thenThrows(UnknownCompetition));

  it("is refused for a revoked submitter", () =>
    given(histories.revoked)
      .when(approve(["bbl"]))
      .thenThrows(InvalidSubmitterAccessTransition));
});

describe("promoting to admin", () => {
  it.each([
    ["a viewer with no request", histories.viewer],
    ["a viewer with a pending request", histories.pending],
    ["a rejected viewer", histories.rejected],
    ["an approved submitter", histories.submitter],
    ["a revoked submitter", histories.revoked],
  ])("promotes %s", (_, history) =>
    given(history)
      .when(changeRole())
      .thenEmits([account.promoted(ADMIN)]),
  );

  it.each([
    ["an admin already", histories.admin, changeRole("admin")],
    ["demoting an admin to viewer", histories.admin, changeRole("viewer")],
    ["demoting an admin to submitter", histories.admin, changeRole("submitter")],
    ["setting viewer directly", histories.submitter, changeRole("viewer")],
    ["setting submitter directly", histories.viewer, changeRole("submitter")],
    ["a disabled target", histories.disabled, changeRole()],
    ["a deleted target", histories.tombstoned, changeRole()],
    ["the acting admin themselves", histories.viewer, changeRole("admin", { accountId: USER, isAdmin: true })],
  ])("is refused for %s", (_, history, command) =>
    given(history).when(command).thenThrows(InvalidSubmitterAccessTransition),
  );

  it("is refused to a non-admin (403)", () =>
    given(histories.viewer).when(changeRole("admin", notAdmin)).thenThrows(NotAllowed));

  it("is refused for an account that does not exist (404)", () =>
    given([]).when(changeRole()).thenThrows(AccountNotFound));
});
