import { type Vocabulary, type VocabularyEvent, VocabularyTermAdded } from "../../../streams/vocabulary.js";
import type { Decider } from "../handle.js";

/** Entities that have one registration and may be met under further names. */
export type NamedKind = "Competition" | "Team" | "Participant" | "Venue";

export type RegisterNamed = { kind: NamedKind; id: string; name: string; registration: Record<string, unknown> };
type NamedState = { registered: boolean; names: Set<string> };

const idField = (kind: NamedKind) => `${kind[0]?.toLowerCase()}${kind.slice(1)}Id`;

/**
 * Requirements: an entity is registered once, under the name it is first met with; a name
 * it is met under for the first time is added to it; meeting it again as known changes
 * nothing. Names never identify: the id does.
 */
export const registerNamed: Decider<RegisterNamed, NamedState> = {
  initialState: () => ({ registered: false, names: new Set() }),
  evolve: (state, event) => {
    const name = (event.data as { name?: string }).name;
    if (event.type.endsWith("Registered")) state.registered = true;
    if (name) state.names.add(name);
    return state;
  },
  decide: ({ kind, id, name, registration }, state) => {
    if (!state.registered) return [{ type: `${kind}Registered`, data: { ...registration, [idField(kind)]: id, name } }];
    if (state.names.has(name)) return [];
    return [{ type: `${kind}NameAdded`, data: { [idField(kind)]: id, name } }];
  },
};

export type RegisterOnce = { type: string; data: Record<string, unknown> };

/** Requirements: the first registration wins; registering again changes nothing (seasons, vocabulary terms). */
export const registerOnce: Decider<RegisterOnce, { registered: boolean }> = {
  initialState: () => ({ registered: false }),
  evolve: () => ({ registered: true }),
  decide: (command, state) => (state.registered ? [] : [{ type: command.type, data: command.data }]),
};

export type AddTerms = { vocabulary: Vocabulary; terms: readonly string[] };

/** Requirements: a vocabulary holds each term once; adding known terms changes nothing. */
export const addTerms: Decider<AddTerms, Set<string>, VocabularyEvent> = {
  initialState: () => new Set(),
  evolve: (terms, event) => terms.add(event.data.term),
  decide: ({ vocabulary, terms }, known) =>
    [...new Set(terms)]
      .filter((term) => !known.has(term))
      .map((term) => ({ type: VocabularyTermAdded.type, data: { vocabulary, term } })),
};
