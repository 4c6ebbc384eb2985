import { z } from "zod";
import { defineEvent, EventCatalogue, type EventOf } from "./catalogue.js";
import { streamId } from "./envelope.js";

/** Lookup vocabularies are data, not code: terms are added as they are met. */
export const VOCABULARIES = ["dismissal_kind"] as const;
export type Vocabulary = (typeof VOCABULARIES)[number];

export const vocabularyStream = (vocabulary: Vocabulary) => streamId("vocabulary", vocabulary);

export const VocabularyTermAdded = defineEvent({
  type: "VocabularyTermAdded",
  category: "vocabulary",
  version: 1,
  schema: z.strictObject({ vocabulary: z.enum(VOCABULARIES), term: z.string().trim().min(1).max(60) }),
});

export const vocabularyEvents = [VocabularyTermAdded] as const;
export type VocabularyEvent = EventOf<(typeof vocabularyEvents)[number]>;
export const vocabularyCatalogue = new EventCatalogue(vocabularyEvents);
