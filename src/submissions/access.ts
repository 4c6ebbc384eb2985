import { type Account, mayWriteIn } from "../../streams/account-state.js";
import { CorrectionForbidden } from "../commands/submissions/errors.js";

/*
 * Who may correct accepted deliveries, and so read how they came to be: an administrator
 * anywhere, a submitter within the granted competitions.
 */

/** Refuses a role that corrects nothing, before anything is looked up: a viewer learns nothing. */
export function mayCorrectAny(account: Account): void {
  if (account.role !== "admin" && account.role !== "submitter")
    throw new CorrectionForbidden(account.accountId, "Only a submitter or an administrator may do this");
}

/** Refuses a submitter outside the competition of the fixture concerned. */
export function mayCorrectInCompetition(account: Account, competitionId: string): void {
  if (!mayWriteIn(account, competitionId))
    throw new CorrectionForbidden(account.accountId, "This fixture's competition is outside your submitter scope");
}
