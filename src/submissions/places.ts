import type { FixtureState } from "../../streams/fixture-state.js";
import type { Problem } from "../commands/errors.js";

/** Where a delivery goes in its innings: its occurrence order and its ball. */
export type Placement = {
  eventId: string;
  inningsId: string;
  sequenceNumber: number;
  overNumber: number;
  positionInOver: number;
};

type Held = Omit<Placement, "inningsId">;

/**
 * Where the live deliveries of a fixture stand. In an innings a sequence number and a ball
 * (over, position in over) each belong to one delivery, and ordering by either gives the same
 * order: gaps may be filled later, but a delivery may not cross one already accepted.
 */
export class LedgerPlaces {
  /** Each innings' live deliveries in sequence order, hence also in ball order. */
  private readonly innings = new Map<string, Held[]>();
  private readonly balls = new Map<string, string>();
  private readonly held = new Set<string>();

  /** `except`: the delivery a correction replaces, whose own place it may keep or leave. */
  constructor(fixture: FixtureState, except?: string) {
    for (const [eventId, { sequenceNumber, state }] of fixture.deliveries) {
      if (eventId === except) continue;
      this.held.add(eventId);
      this.balls.set(ballKey(state.inningsId, state), eventId);
      const held = { eventId, sequenceNumber, overNumber: state.overNumber, positionInOver: state.positionInOver };
      const list = this.innings.get(state.inningsId);
      if (list) list.push(held);
      else this.innings.set(state.inningsId, [held]);
    }
    for (const list of this.innings.values()) list.sort((a, b) => a.sequenceNumber - b.sequenceNumber);
  }

  /** The conflicts of putting a delivery here: a place another holds, or an order it would cross. */
  conflicts(placement: Placement, at: Pick<Problem, "eventIndex">, fields = FIELDS): Problem[] {
    // A delivery sent again is refused for its id alone: its places are its own.
    if (this.held.has(placement.eventId)) return [];
    const list = this.innings.get(placement.inningsId) ?? [];
    const conflict = (field: string, message: string): Problem => ({ code: "EVENT_CONFLICT", message, field, ...at });
    const next = firstAfter(list, placement.sequenceNumber);
    const [before, after] = [list[next - 1], list[next]];
    const sameSequence = before?.sequenceNumber === placement.sequenceNumber ? before : undefined;
    const sameBall = this.balls.get(ballKey(placement.inningsId, placement));
    const taken: Problem[] = [];
    if (sameSequence)
      taken.push(
        conflict(
          fields.sequenceNumber,
          `Sequence number ${placement.sequenceNumber} of this innings is held by accepted event ${sameSequence.eventId}`,
        ),
      );
    if (sameBall)
      taken.push(
        conflict(
          fields.positionInOver,
          `Over ${placement.overNumber} position ${placement.positionInOver} of this innings is held by accepted event ${sameBall}`,
        ),
      );
    if (taken.length > 0) return taken;
    if (before && compareBalls(before, placement) > 0)
      return [conflict(crossedField(before, placement, fields), crossing(placement, before, "after"))];
    if (after && compareBalls(after, placement) < 0)
      return [conflict(crossedField(after, placement, fields), crossing(placement, after, "before"))];
    return [];
  }
}

/** Field names of a placement as the request spells them (a correction nests them under `event.`). */
type Fields = Record<"sequenceNumber" | "overNumber" | "positionInOver", string>;
const FIELDS: Fields = { sequenceNumber: "sequenceNumber", overNumber: "overNumber", positionInOver: "positionInOver" };

const ballKey = (inningsId: string, ball: Pick<Held, "overNumber" | "positionInOver">) =>
  `${inningsId}\u0000${ball.overNumber}\u0000${ball.positionInOver}`;

const compareBalls = (a: Omit<Held, "eventId" | "sequenceNumber">, b: Omit<Held, "eventId" | "sequenceNumber">) =>
  a.overNumber - b.overNumber || a.positionInOver - b.positionInOver;

/** The field that puts the ball on the wrong side: its over, unless the over is the same. */
const crossedField = (held: Held, placement: Placement, fields: Fields) =>
  held.overNumber === placement.overNumber ? fields.positionInOver : fields.overNumber;

const crossing = (placement: Placement, held: Held, side: "after" | "before") =>
  `Sequence number ${placement.sequenceNumber} comes ${side} accepted event ${held.eventId} (sequence ${held.sequenceNumber}), so its ball must too: over ${placement.overNumber} position ${placement.positionInOver} is ${side === "after" ? "before" : "after"} that event's over ${held.overNumber} position ${held.positionInOver}`;

/** The index of the first held delivery with a sequence number above `sequenceNumber`. */
function firstAfter(list: readonly Held[], sequenceNumber: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((list[middle] as Held).sequenceNumber <= sequenceNumber) low = middle + 1;
    else high = middle;
  }
  return low;
}
