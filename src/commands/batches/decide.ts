import type { BatchEvent, ReceivedFile } from "../../../streams/batch.js";
import { type BatchState, evolveBatch, initialBatchState } from "../../../streams/batch-state.js";
import type { Decider } from "../handle.js";
import { IdempotencyKeyReused } from "./errors.js";

/** A package as intake read it: its competition already resolved, its bytes as they came. */
export type ReceiveBatch = {
  type: "ReceiveBatch";
  batchReference: string;
  ownerAccountId: string;
  idempotencyKey: string;
  checksum: string;
  contractVersion: "1.0" | "1.1";
  packageId: string;
  competitionId: string;
  files: ReceivedFile[];
};

export type BatchCommand = ReceiveBatch;

/**
 * Requirements (the specification's "Batch ingestion", docs/batches.md):
 * - a package received under a new idempotency key is stored as it came;
 * - the same key with the same content (checksum) receives nothing new: the original
 *   receipt stands, however often it is sent, and from however many requests at once;
 * - the same key with other content is refused, and the first batch stays as it was.
 */
export const batchDecider: Decider<BatchCommand, BatchState, BatchEvent> = {
  initialState: initialBatchState,
  evolve: evolveBatch,
  decide: (command, state) => {
    if (state) {
      if (state.checksum !== command.checksum) throw new IdempotencyKeyReused(state.batchReference);
      return [];
    }
    const { type: _, ...data } = command;
    return [{ type: "BatchReceived", data }];
  },
};
