import type { BatchEvent } from "./batch.js";
import { unreachable } from "./unreachable.js";

/** What a batch stream says now, as far as its decisions need. */
export type Batch = {
  batchReference: string;
  ownerAccountId: string;
  competitionId: string;
  checksum: string;
  /** null until validation begins; then how far it has come. */
  validation: { itemsTotal: number; itemsJudged: number; completed: boolean } | null;
};

/** null until the batch is received. */
export type BatchState = Batch | null;

export const initialBatchState = (): BatchState => null;

/** Folds one batch event into the state; pure. */
export function evolveBatch(state: BatchState, event: BatchEvent): BatchState {
  if (event.type === "BatchReceived") {
    const { batchReference, ownerAccountId, competitionId, checksum } = event.data;
    return { batchReference, ownerAccountId, competitionId, checksum, validation: null };
  }
  if (!state) return state;
  switch (event.type) {
    case "BatchValidationStarted":
      return { ...state, validation: { itemsTotal: event.data.itemsTotal, itemsJudged: 0, completed: false } };
    case "BatchItemsJudged": {
      const validation = state.validation ?? { itemsTotal: 0, itemsJudged: 0, completed: false };
      return { ...state, validation: { ...validation, itemsJudged: event.data.from + event.data.items.length } };
    }
    case "BatchValidated": {
      const validation = state.validation ?? { itemsTotal: 0, itemsJudged: 0, completed: false };
      return { ...state, validation: { ...validation, completed: true } };
    }
    default:
      return unreachable(event);
  }
}
