import type { DeliveryState } from "../../../streams/fixture.js";
import type { FixtureState } from "../../../streams/fixture-state.js";
import type { Problem } from "../errors.js";

/**
 * Where live deliveries stand: in each innings a sequence number and a ball position
 * (over, position in over) belong to one delivery at a time.
 */
export class Occupancy {
  private readonly holders = new Map<string, string>();

  constructor(state: FixtureState) {
    for (const [eventId, { sequenceNumber, state: delivery }] of state.deliveries)
      this.take(eventId, sequenceNumber, delivery);
  }

  /** The problems of placing `eventId` here (its own places do not count), then takes them. */
  place(eventId: string, sequenceNumber: number, delivery: DeliveryState, at: Pick<Problem, "eventIndex">) {
    const problems: Problem[] = [];
    const bySequence = this.holders.get(sequenceKey(delivery.inningsId, sequenceNumber));
    if (bySequence !== undefined && bySequence !== eventId)
      problems.push({
        code: "EVENT_CONFLICT",
        message: `Sequence number ${sequenceNumber} of this innings is held by accepted event ${bySequence}`,
        field: "sequenceNumber",
        ...at,
      });
    const byPosition = this.holders.get(positionKey(delivery));
    if (byPosition !== undefined && byPosition !== eventId)
      problems.push({
        code: "EVENT_CONFLICT",
        message: `Over ${delivery.overNumber} position ${delivery.positionInOver} of this innings is held by accepted event ${byPosition}`,
        field: "positionInOver",
        ...at,
      });
    this.take(eventId, sequenceNumber, delivery);
    return problems;
  }

  private take(eventId: string, sequenceNumber: number, delivery: DeliveryState) {
    this.holders.set(sequenceKey(delivery.inningsId, sequenceNumber), eventId);
    this.holders.set(positionKey(delivery), eventId);
  }
}

const sequenceKey = (inningsId: string, sequenceNumber: number) => `s\u0000${inningsId}\u0000${sequenceNumber}`;
const positionKey = (d: DeliveryState) => `p\u0000${d.inningsId}\u0000${d.overNumber}\u0000${d.positionInOver}`;
