import { streamEntityId } from "../../streams/envelope.js";
import { catalogue } from "../../streams/index.js";

/*
 * Which stored fields are personal, whose they are and where each is sealed, as the event
 * definitions declare it (`personal`, `erasesPersonalData` in streams/).
 */

const definitions = catalogue.definitions();
for (const { type, category, personal } of definitions) {
  // The key a personal field is sealed under is the account's whose stream holds the event.
  if (personal && category !== "account") throw new Error(`${type}: only account events may hold personal data`);
}

/** The personal fields of each event type that has any. */
export const PERSONAL_FIELDS: ReadonlyMap<string, readonly string[]> = new Map(
  definitions.flatMap(({ type, personal }) => (personal ? [[type, personal] as const] : [])),
);

/** The event types whose append erases the personal data of their stream's account. */
export const ERASING_TYPES: readonly string[] = definitions.filter((d) => d.erasesPersonalData).map((d) => d.type);

/** The account whose personal data an event of its stream holds. */
export const ownerOf = (streamId: string) => streamEntityId(streamId);

/** The place a value is sealed for: its event and field. */
export const placeOf = (eventId: string, field: string) => `${eventId}/${field}`;

/**
 * The data with each personal field that holds a value replaced by `change(value, field)`;
 * data of an event type without personal fields is returned as it is.
 */
export function mapPersonal(type: string, data: unknown, change: (value: unknown, field: string) => unknown): unknown {
  const fields = PERSONAL_FIELDS.get(type);
  if (!fields) return data;
  const changed = { ...(data as Record<string, unknown>) };
  for (const field of fields) {
    const value = changed[field];
    if (value !== undefined && value !== null) changed[field] = change(value, field);
  }
  return changed;
}
