import { accountCatalogue } from "../../streams/account.js";

/** Account events for decider specs, each checked against the catalogue, and the histories that reach each state. */
export const USER = "user-1";
export const ADMIN = "admin-1";

const event = (type: string, data: unknown) => accountCatalogue.event({ type, data });

export const account = {
  created: (displayName = "Ada Lovelace", accountId = USER) =>
    event("AccountCreated", { accountId, subject: `sub-${accountId}`, displayName }),
  profileSynced: (displayName: string) => event("AccountProfileSynced", { displayName }),
  requested: (competitionId = "ipl") => event("SubmitterAccessRequested", { competitionId }),
  approved: (competitionIds = ["ipl"], decidedBy = ADMIN) =>
    event("SubmitterAccessApproved", { competitionIds, decidedBy }),
  rejected: (decidedBy = ADMIN) => event("SubmitterAccessRejected", { decidedBy }),
  revoked: (decidedBy = ADMIN) => event("SubmitterAccessRevoked", { decidedBy }),
  scopeReplaced: (competitionIds: string[], decidedBy = ADMIN) =>
    event("SubmitterScopeReplaced", { competitionIds, decidedBy }),
  promoted: (decidedBy = ADMIN) => event("AccountPromoted", { role: "admin", decidedBy }),
  disabled: () => event("AccountDisabled", { reason: "deletion-requested" }),
  tombstoned: () => event("AccountTombstoned", {}),
};

const viewer = [account.created()];
const pending = [...viewer, account.requested("ipl")];
const submitter = [...pending, account.approved(["ipl"])];

export const histories = {
  viewer,
  pending,
  rejected: [...pending, account.rejected()],
  submitter,
  revoked: [...submitter, account.revoked()],
  admin: [...viewer, account.promoted()],
  promotedWhilePending: [...pending, account.promoted()],
  disabled: [...submitter, account.disabled()],
  tombstoned: [...submitter, account.disabled(), account.tombstoned()],
};
