import type { SubmittedEvent } from "./submission-events.js";

/* What the submission tests expect of a 422's details, and how they break one event. */

/** Where a detail points: its code, field and event. */
export type Where = { code: string; field: string; eventIndex?: number };

export const invalid = (field: string, eventIndex?: number): Where => ({
  code: "INVALID_FIELD",
  field,
  ...(eventIndex === undefined ? {} : { eventIndex }),
});

export const participant = (field: string, eventIndex: number): Where => ({
  code: "INVALID_PARTICIPANT",
  field,
  eventIndex,
});

/** In the order the API reports details: by eventIndex (top-level first), then code, then field. */
export const sortedAs = (details: Where[]) =>
  [...details].sort(
    (a, b) =>
      (a.eventIndex ?? -1) - (b.eventIndex ?? -1) || a.code.localeCompare(b.code) || a.field.localeCompare(b.field),
  );

/** A copy of `events` with event `index` changed by `change`. */
export function withEvent(
  events: SubmittedEvent[],
  index: number,
  change: (e: Record<string, unknown>) => void,
): unknown[] {
  return events.map((e, i) => {
    if (i !== index) return e;
    const copy = structuredClone(e) as unknown as Record<string, unknown>;
    change(copy);
    return copy;
  });
}
