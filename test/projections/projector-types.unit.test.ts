import { describe, expectTypeOf, it } from "vitest";
import { defineProjector } from "../../src/projections/projector.js";

const definition = { name: "typed", version: 1, description: "types only", ddl: "", tables: [] };

describe("a projector's handlers", () => {
  it("get the events of their type, data typed by its definition", () => {
    defineProjector({
      ...definition,
      on: {
        DeliveryRecorded: async (_tx, events) => {
          expectTypeOf(events[0]?.data.sequenceNumber).toEqualTypeOf<number | undefined>();
          expectTypeOf(events[0]?.type).toEqualTypeOf<"DeliveryRecorded" | undefined>();
          // @ts-expect-error a DeliveryRecorded carries no competitorId
          return events.map((e) => e.data.competitorId);
        },
      },
    });
  });

  it("are keyed by the catalogue's event types only", () => {
    defineProjector({
      ...definition,
      on: {
        // @ts-expect-error no event type of the catalogue
        DeliveryBowled: async () => {},
      },
    });
  });
});
