import type { Account } from "../../streams/account-state.js";
import { BatchForbidden } from "../commands/batches/errors.js";
import type { Sql } from "../db/database.js";
import { type BatchView, findBatch } from "./queries.js";

/**
 * Who sees a batch: its sender and administrators. To anyone else it is the same refusal as
 * a reference no batch has (the specification's rule for batches).
 */
export async function visibleBatch(sql: Sql, account: Account, batchReference: string): Promise<BatchView> {
  const batch = await findBatch(sql, batchReference);
  if (!batch || (batch.ownerAccountId !== account.accountId && account.role !== "admin"))
    throw new BatchForbidden("No batch of yours has this reference");
  return batch;
}
