import type { BatchEvent } from "./batch.js";
import { unreachable } from "./unreachable.js";

/** What a batch stream says now, as far as its decisions need. */
export type Batch = {
  batchReference: string;
  ownerAccountId: string;
  competitionId: string;
  checksum: string;
};

/** null until the batch is received. */
export type BatchState = Batch | null;

export const initialBatchState = (): BatchState => null;

/** Folds one batch event into the state; pure. */
export function evolveBatch(_state: BatchState, event: BatchEvent): BatchState {
  switch (event.type) {
    case "BatchReceived": {
      const { batchReference, ownerAccountId, competitionId, checksum } = event.data;
      return { batchReference, ownerAccountId, competitionId, checksum };
    }
    default:
      return unreachable(event.type);
  }
}
