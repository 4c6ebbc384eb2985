import type { BatchEvent, BatchValidated, JudgedItemData, ReceivedFile } from "../../../streams/batch.js";
import { type Batch, type BatchState, evolveBatch, initialBatchState } from "../../../streams/batch-state.js";
import type { EventData } from "../../../streams/types.js";
import type { Decider } from "../handle.js";
import { IdempotencyKeyReused } from "./errors.js";
import {
  type MapReferences,
  mapReferences,
  type RecordCanonicalFixture,
  type ResubmitItems,
  recordCanonicalFixture,
  resubmitItems,
} from "./resolution.js";
import { type RecordPublication, type ReviewItems, recordPublication, review } from "./review.js";

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

/** Validation, step by step, in a round (the batch's `round` it was judged for): it counted the items, judged the next ones, or finished. */
export type StartValidation = { type: "StartValidation"; round: number; itemsTotal: number };
export type JudgeItems = { type: "JudgeItems"; round: number; from: number; items: JudgedItemData[] };
export type CompleteValidation = { type: "CompleteValidation"; round: number } & Omit<
  EventData<typeof BatchValidated>,
  "round"
>;

export type BatchCommand =
  | ReceiveBatch
  | StartValidation
  | JudgeItems
  | CompleteValidation
  | MapReferences
  | RecordCanonicalFixture
  | ResubmitItems
  | ReviewItems
  | RecordPublication;

/**
 * Requirements (the specification's "Batch ingestion", docs/batches.md):
 * - a package received under a new idempotency key is stored as it came;
 * - the same key with the same content (checksum) receives nothing new: the original
 *   receipt stands, however often it is sent, and from however many requests at once;
 * - the same key with other content is refused, and the first batch stays as it was;
 * - validation has one outcome per batch, whoever validates and however often it is
 *   interrupted: a step already taken is taken again as nothing (so a validator resuming
 *   after a restart, or racing another process, appends no item twice), and items are judged
 *   in reading order without a gap;
 * - a step of another round than the batch's is stale (its validator judged without the
 *   mappings since) and is taken as nothing;
 * - mappings as ./resolution.ts says; review and publication as ./review.ts says.
 */
export const batchDecider: Decider<BatchCommand, BatchState, BatchEvent> = {
  initialState: initialBatchState,
  evolve: evolveBatch,
  decide: (command, state) => {
    switch (command.type) {
      case "ReceiveBatch":
        return receive(command, state);
      case "StartValidation": {
        const batch = received(state);
        return batch.validation || command.round !== batch.round
          ? []
          : [{ type: "BatchValidationStarted", data: { itemsTotal: command.itemsTotal, ...roundOf(command) } }];
      }
      case "JudgeItems":
        return judge(command, received(state));
      case "CompleteValidation": {
        const batch = received(state);
        const { type: _, round: __, ...data } = command;
        return batch.validation?.completed || command.round !== batch.round
          ? []
          : [{ type: "BatchValidated", data: { ...data, ...roundOf(command) } }];
      }
      case "MapReferences":
        return mapReferences(command, received(state));
      case "RecordCanonicalFixture":
        return recordCanonicalFixture(command, received(state));
      case "ResubmitItems":
        return resubmitItems(command, received(state));
      case "ReviewItems":
        return review(command, received(state));
      case "RecordPublication":
        return recordPublication(command, received(state));
      default: {
        const unknown: never = command;
        throw new Error(`unknown batch command ${JSON.stringify(unknown)}`);
      }
    }
  },
};

function receive(command: ReceiveBatch, state: BatchState): BatchEvent[] {
  if (state) {
    if (state.checksum !== command.checksum) throw new IdempotencyKeyReused(state.batchReference);
    return [];
  }
  const { type: _, ...data } = command;
  return [{ type: "BatchReceived", data }];
}

/** Validation steps come only after the batch exists: anything else is the validator's bug. */
function received(state: BatchState): Batch {
  if (!state) throw new Error("validation of a batch that was never received");
  return state;
}

/** The first round is recorded as it always was, without one. */
const roundOf = ({ round }: { round: number }) => (round === 0 ? {} : { round });

function judge(command: JudgeItems, batch: Batch): BatchEvent[] {
  if (command.round !== batch.round) return [];
  const validation = batch.validation;
  if (!validation) throw new Error("items judged before validation started");
  if (validation.completed || command.from < validation.itemsJudged) return [];
  if (command.from > validation.itemsJudged)
    throw new Error(`items from ${command.from} judged before those from ${validation.itemsJudged}`);
  return [{ type: "BatchItemsJudged", data: { from: command.from, items: command.items, ...roundOf(command) } }];
}
