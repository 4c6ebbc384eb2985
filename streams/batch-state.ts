import type { BatchEvent, JudgedItemData, REFERENCE_TYPES, Review } from "./batch.js";
import { unreachable } from "./unreachable.js";

/** What a batch stream says now, as far as its decisions need. */
export type Batch = {
  batchReference: string;
  ownerAccountId: string;
  competitionId: string;
  checksum: string;
  /** The validation under way or done: 0 first, one more after each mapping or resubmission. */
  round: number;
  /** The replacement the sender sent for an item, by its ordinal: the latest stands. */
  replacements: Map<number, Record<string, unknown>>;
  /** The entity each mapped reference names, by its path in the package. */
  mappings: Map<string, { referenceType: (typeof REFERENCE_TYPES)[number]; entityId: string }>;
  /** null until the round's validation begins; then how far it has come, and the status it ended in. */
  validation: {
    itemsTotal: number;
    itemsJudged: number;
    completed: boolean;
    status: "validated" | "staged" | "rejected" | null;
  } | null;
  /** Each judged item's outcome, by ordinal. */
  outcomes: JudgedItemData["outcome"][];
  /** The decision standing on each reviewed item, by ordinal. */
  reviews: Map<number, Review>;
  published: boolean;
};

/** null until the batch is received. */
export type BatchState = Batch | null;

export const initialBatchState = (): BatchState => null;

const notStarted = { itemsTotal: 0, itemsJudged: 0, completed: false, status: null };

/** Folds one batch event into the state; pure. */
export function evolveBatch(state: BatchState, event: BatchEvent): BatchState {
  if (event.type === "BatchReceived") {
    const { batchReference, ownerAccountId, competitionId, checksum } = event.data;
    return {
      batchReference,
      ownerAccountId,
      competitionId,
      checksum,
      round: 0,
      replacements: new Map(),
      mappings: new Map(),
      validation: null,
      outcomes: [],
      reviews: new Map(),
      published: false,
    };
  }
  if (!state) return state;
  switch (event.type) {
    case "BatchValidationStarted":
      return { ...state, validation: { ...notStarted, itemsTotal: event.data.itemsTotal } };
    case "BatchItemsJudged": {
      const validation = state.validation ?? notStarted;
      return {
        ...state,
        validation: { ...validation, itemsJudged: event.data.from + event.data.items.length },
        outcomes: [...state.outcomes.slice(0, event.data.from), ...event.data.items.map((i) => i.outcome)],
      };
    }
    case "BatchValidated": {
      const validation = state.validation ?? notStarted;
      return { ...state, validation: { ...validation, completed: true, status: event.data.status } };
    }
    case "BatchReferencesMapped": {
      const mappings = new Map(state.mappings);
      for (const { referencePath, ...named } of event.data.mappings) mappings.set(referencePath, named);
      return { ...state, mappings, round: state.round + 1, validation: null };
    }
    case "BatchFixtureCreated": {
      const mappings = new Map(state.mappings);
      mappings.set(event.data.referencePath, { referenceType: "fixture", entityId: event.data.fixtureId });
      return { ...state, mappings, round: state.round + 1, validation: null };
    }
    case "BatchItemsResubmitted": {
      const replacements = new Map(state.replacements);
      const reviews = new Map(state.reviews);
      for (const { ordinal, event: replacement } of event.data.items) {
        replacements.set(ordinal, replacement);
        reviews.delete(ordinal);
      }
      return { ...state, replacements, reviews, round: state.round + 1, validation: null };
    }
    case "BatchItemsReviewed": {
      const { ordinals, ...review } = event.data;
      const reviews = new Map(state.reviews);
      for (const ordinal of ordinals) reviews.set(ordinal, review);
      return { ...state, reviews };
    }
    case "BatchPublished":
      return { ...state, published: true };
    default:
      return unreachable(event);
  }
}
