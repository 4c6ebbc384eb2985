import { type AccountEvent, type ApprovalState, type Role, TOMBSTONE } from "./account.js";
import { unreachable } from "./unreachable.js";

/** What an account stream says now: folded from its events, shared by the deciders. */
export type Account = {
  accountId: string;
  /** null once tombstoned. */
  subject: string | null;
  displayName: string;
  role: Role;
  /** null: never requested (the spec leaves a new viewer's request state unshown). */
  approvalState: ApprovalState | null;
  /** The competition of the latest request, kept after the decision on it. */
  requestedCompetitionId: string | null;
  /** The granted scope, sorted. */
  competitionIds: string[];
  disabled: boolean;
  tombstoned: boolean;
  /** Who took the latest access or role decision (an account id, or `cli`); when is in the event's metadata. */
  decidedBy: string | null;
};

/** null until the account is created. */
export type AccountState = Account | null;

export const initialAccountState = (): AccountState => null;

/** Folds one account event into the state; pure, so a decider spec can fold the same history twice. */
export function evolveAccount(state: AccountState, event: AccountEvent): AccountState {
  if (event.type === "AccountCreated") {
    const created = event.data;
    return {
      accountId: created.accountId,
      subject: created.subject,
      displayName: shownName(created.displayName),
      role: "viewer",
      approvalState: null,
      requestedCompetitionId: null,
      competitionIds: [],
      disabled: false,
      tombstoned: false,
      decidedBy: null,
    };
  }
  if (!state) return state;
  const decidedBy = "decidedBy" in event.data ? event.data.decidedBy : state.decidedBy;
  switch (event.type) {
    case "AccountProfileSynced":
      return { ...state, displayName: shownName(event.data.displayName) };
    case "SubmitterAccessRequested": {
      const { competitionId } = event.data;
      return { ...state, approvalState: "pending", requestedCompetitionId: competitionId };
    }
    case "SubmitterAccessApproved": {
      const { competitionIds } = event.data;
      return {
        ...state,
        role: "submitter",
        approvalState: "approved",
        competitionIds: scope(competitionIds),
        decidedBy,
      };
    }
    case "SubmitterAccessRejected":
      return { ...state, approvalState: "rejected", competitionIds: [], decidedBy };
    case "SubmitterAccessRevoked":
      return { ...state, role: "viewer", competitionIds: [], decidedBy };
    case "SubmitterScopeReplaced":
      return {
        ...state,
        competitionIds: scope(event.data.competitionIds),
        decidedBy,
      };
    case "AccountPromoted":
      return { ...state, role: "admin", decidedBy };
    case "AccountDisabled":
      return {
        ...state,
        disabled: true,
        role: "viewer",
        approvalState: null,
        requestedCompetitionId: null,
        competitionIds: [],
      };
    case "AccountTombstoned":
      return { ...state, ...TOMBSTONE, disabled: true, tombstoned: true };
    default:
      return unreachable(event);
  }
}

/** A display name as an account shows it: the tombstone's once erased (null). */
export const shownName = (displayName: string | null) => displayName ?? TOMBSTONE.displayName;

/** A competition scope as a set: each id once, sorted. */
export const scope = (competitionIds: readonly string[]) => [...new Set(competitionIds)].sort();

/** Corrections, their history and batches: an admin anywhere, a submitter within the granted competitions. */
export const mayWriteIn = (account: Account, competitionId: string) =>
  !account.disabled &&
  (account.role === "admin" || (account.role === "submitter" && account.competitionIds.includes(competitionId)));
