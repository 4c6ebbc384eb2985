import type { Account } from "../../streams/account-state.js";
import { BatchForbidden } from "../commands/batches/errors.js";
import type { BatchView } from "./queries.js";

/**
 * Who sees a batch: its sender and administrators. To anyone else it is the same refusal as
 * a reference no batch has (the specification's rule for batches).
 */
export function visibleTo<Batch extends BatchView>(account: Account, batch: Batch | undefined): Batch {
  if (!batch || (batch.ownerAccountId !== account.accountId && account.role !== "admin"))
    throw new BatchForbidden("No batch of yours has this reference");
  return batch;
}
