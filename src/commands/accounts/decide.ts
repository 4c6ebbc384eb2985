import type { AccountEvent, Role } from "../../../streams/account.js";
import {
  type Account,
  type AccountState,
  evolveAccount,
  initialAccountState,
  scope,
} from "../../../streams/account-state.js";
import { fitName } from "../../../streams/shared.js";
import type { Decider } from "../handle.js";
import { AccountNotFound, InvalidSubmitterAccessTransition, NotAllowed, UnknownCompetition } from "./errors.js";

/** Who acts, resolved by the handler from the actor's own stream: an admin only when active. */
export type Actor = { accountId: string; isAdmin: boolean };

/** Every command names the account it is about; facts from outside the stream come resolved. */
export type EnsureAccount = { type: "EnsureAccount"; accountId: string; subject: string; displayName: string };
export type RequestSubmitterAccess = {
  type: "RequestSubmitterAccess";
  accountId: string;
  competitionId: string;
  competitionExists: boolean;
};
/** PATCH submitter-access: approve a pending request, replace an approved scope, or revoke. */
export type DecideSubmitterAccess = {
  type: "DecideSubmitterAccess";
  accountId: string;
  actor: Actor;
  /** Which of the body's competitions and the stored requested one exist. */
  existingCompetitionIds: readonly string[];
} & ({ approved: true; competitionIds?: readonly string[] | undefined } | { approved: false });
export type RejectSubmitterAccess = { type: "RejectSubmitterAccess"; accountId: string; actor: Actor };
export type ChangeRole = { type: "ChangeRole"; accountId: string; actor: Actor; role: Role };
/** `cricket admin promote`: the operator's way to the first admin. */
export type BootstrapAdmin = { type: "BootstrapAdmin"; accountId: string; subject: string };
export type RequestDeletion = { type: "RequestDeletion"; accountId: string };
export type FinaliseDeletion = { type: "FinaliseDeletion"; accountId: string };

export type AccountCommand =
  | EnsureAccount
  | RequestSubmitterAccess
  | DecideSubmitterAccess
  | RejectSubmitterAccess
  | ChangeRole
  | BootstrapAdmin
  | RequestDeletion
  | FinaliseDeletion;

/**
 * Requirements (the spec's "Account role and submitter-access request" and "Account deletion"):
 * - first sight creates a viewer with no request; a later sign-in only syncs the display name;
 *   signing in never promotes, approves or grants scope;
 * - a viewer with no request, or a rejected one, may request access to an existing competition;
 *   pending, approved (legacy or revoked), submitter, admin and disabled accounts may not;
 * - an admin approves a pending request with exactly its stored, still valid competition;
 *   rejects a pending request (scope cleared, may request again); revokes an approved
 *   submitter (back to viewer, every scope removed, the approved decision kept); replaces an
 *   approved submitter's scope with at least one existing competition;
 * - an admin promotes an active non-admin other than themselves to admin; no other role is
 *   set through the role endpoint, and admins are never demoted;
 * - deletion disables an active account (role, request and scope revoked), then tombstones
 *   it; each step repeated changes nothing;
 * - anything else is INVALID_SUBMITTER_ACCESS_TRANSITION and writes nothing.
 */
export const accountDecider: Decider<AccountCommand, AccountState, AccountEvent> = {
  initialState: initialAccountState,
  evolve: evolveAccount,
  decide: (command, state) => {
    switch (command.type) {
      case "EnsureAccount":
        return ensure(command, state);
      case "RequestSubmitterAccess":
        return request(command, found(command.accountId, state));
      case "DecideSubmitterAccess":
        return decideAccess(command, target(command, state, "change its submitter access"));
      case "RejectSubmitterAccess":
        return reject(command, target(command, state, "reject its request"));
      case "ChangeRole":
        return changeRole(command, target(command, state, "change its role"));
      case "BootstrapAdmin":
        return bootstrap(command, state);
      case "RequestDeletion":
        return found(command.accountId, state).disabled ? [] : [disabled];
      case "FinaliseDeletion":
        return finalise(found(command.accountId, state));
      default: {
        const unknown: never = command;
        throw new Error(`unknown account command ${JSON.stringify(unknown)}`);
      }
    }
  },
};

const disabled: AccountEvent = { type: "AccountDisabled", data: { reason: "deletion-requested" } };
const promoted = (decidedBy: string): AccountEvent => ({ type: "AccountPromoted", data: { role: "admin", decidedBy } });

const refused = (account: Account, message: string) =>
  new InvalidSubmitterAccessTransition(account.accountId, `User ${account.accountId} ${message}`);

function found(accountId: string, state: AccountState): Account {
  if (!state) throw new AccountNotFound(accountId);
  return state;
}

function refuseInactive(account: Account, action: string) {
  if (account.tombstoned) throw refused(account, `is deleted; cannot ${action}`);
  if (account.disabled) throw refused(account, `is disabled (deletion requested); cannot ${action}`);
}

/** The target of an admin decision: the actor is an active admin, the target another active account. */
function target(command: { accountId: string; actor: Actor }, state: AccountState, action: string): Account {
  if (!command.actor.isAdmin) throw new NotAllowed(command.actor.accountId);
  const account = found(command.accountId, state);
  if (command.actor.accountId === account.accountId)
    throw refused(account, "is the acting administrator; administrators cannot manage their own account");
  refuseInactive(account, action);
  return account;
}

function ensure(command: EnsureAccount, state: AccountState): AccountEvent[] {
  const { accountId, subject, displayName } = command;
  if (!state) return [{ type: "AccountCreated", data: { accountId, subject, displayName } }];
  if (state.disabled || state.displayName === displayName.trim()) return [];
  return [{ type: "AccountProfileSynced", data: { displayName } }];
}

function request(command: RequestSubmitterAccess, account: Account): AccountEvent[] {
  refuseInactive(account, "request submitter access");
  if (account.role !== "viewer") throw refused(account, `is already ${account.role}; only a viewer can request access`);
  if (account.approvalState === "pending") throw refused(account, "already has a pending submitter access request");
  if (account.approvalState === "approved")
    throw refused(account, "holds an approved submitter access decision (revoked or legacy); it cannot request again");
  if (!command.competitionExists)
    throw new UnknownCompetition(account.accountId, [{ field: "competitionId", competitionId: command.competitionId }]);
  return [{ type: "SubmitterAccessRequested", data: { competitionId: command.competitionId } }];
}

function decideAccess(command: DecideSubmitterAccess, account: Account): AccountEvent[] {
  const decidedBy = command.actor.accountId;
  const pending = account.role === "viewer" && account.approvalState === "pending";
  const approved = account.role === "submitter" && account.approvalState === "approved";
  if (!command.approved) {
    if (approved) return [{ type: "SubmitterAccessRevoked", data: { decidedBy } }];
    throw refused(
      account,
      pending
        ? "has a pending request, not approved access; reject the request instead"
        : "has no approved submitter access to revoke",
    );
  }
  if (pending) {
    const stored = account.requestedCompetitionId;
    if (!stored || !command.existingCompetitionIds.includes(stored))
      throw refused(account, "has a pending request without a valid stored competition; it can only be rejected");
    if (command.competitionIds && !sameScope(command.competitionIds, [stored]))
      throw refused(
        account,
        `requested competition ${stored}; approval grants exactly it, and the scope can be replaced once approved`,
      );
    return [{ type: "SubmitterAccessApproved", data: { competitionIds: [stored], decidedBy } }];
  }
  if (!approved) throw refused(account, `is ${describe(account)}; there is no request to approve or scope to replace`);
  if (!command.competitionIds)
    throw refused(account, "already has approved submitter access; give competitionIds to replace its scope");
  if (command.competitionIds.length === 0)
    throw refused(account, "needs at least one competition in scope; revoke with approved false instead");
  const unknown = command.competitionIds
    .map((competitionId, index) => ({ field: `competitionIds.${index}`, competitionId }))
    .filter(({ competitionId }) => !command.existingCompetitionIds.includes(competitionId));
  if (unknown.length > 0) throw new UnknownCompetition(account.accountId, unknown);
  if (sameScope(command.competitionIds, account.competitionIds)) return [];
  return [{ type: "SubmitterScopeReplaced", data: { competitionIds: scope(command.competitionIds), decidedBy } }];
}

function reject(command: RejectSubmitterAccess, account: Account): AccountEvent[] {
  if (account.role === "viewer" && account.approvalState === "pending")
    return [{ type: "SubmitterAccessRejected", data: { decidedBy: command.actor.accountId } }];
  throw refused(account, `is ${describe(account)}; there is no pending request to reject`);
}

function changeRole(command: ChangeRole, account: Account): AccountEvent[] {
  if (account.role === "admin")
    throw refused(
      account,
      command.role === "admin"
        ? "is already an administrator"
        : "is an administrator; administrators are never demoted",
    );
  if (command.role !== "admin")
    throw refused(account, `cannot be made ${command.role} directly; only promotion to admin is allowed here`);
  return [promoted(command.actor.accountId)];
}

function bootstrap(command: BootstrapAdmin, state: AccountState): AccountEvent[] {
  const { accountId, subject } = command;
  if (!state) {
    const created = { accountId, subject, displayName: fitName(subject) };
    return [{ type: "AccountCreated", data: created }, promoted("cli")];
  }
  refuseInactive(state, "promote it");
  return state.role === "admin" ? [] : [promoted("cli")];
}

function finalise(account: Account): AccountEvent[] {
  if (account.tombstoned) return [];
  if (!account.disabled)
    throw refused(account, "has not asked for deletion; an account is disabled before it is deleted");
  return [{ type: "AccountTombstoned", data: {} }];
}

const sameScope = (a: readonly string[], b: readonly string[]) => scope(a).join("\u0000") === scope(b).join("\u0000");

const describe = (account: Account) =>
  account.approvalState ? `${account.role} with ${account.approvalState} access` : `${account.role} without a request`;
