import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { importFixture } from "../../src/commands/fixtures/import-fixture.js";
import type { DecidedEvent } from "../../src/commands/handle.js";
import { mapMatch } from "../../src/ingest/cricsheet/map.js";
import { cricsheetMatchSchema } from "../../src/ingest/cricsheet/schema.js";
import type { FixtureEvent } from "../../streams/fixture.js";
import { cricsheetFile, type RawMatch } from "../support/cricsheet.js";
import { spec } from "../support/decider.js";

const load = (revise?: (raw: RawMatch) => void) => {
  const raw = JSON.parse(readFileSync(cricsheetFile("t20i/1298152.json"), "utf8"));
  revise?.(raw);
  return mapMatch("1298152", cricsheetMatchSchema.parse(raw)).fixture;
};
const firstImport = (): DecidedEvent<FixtureEvent>[] =>
  importFixture.decide({ content: load() }, importFixture.initialState());

describe("importing a fixture", () => {
  it("writes a new fixture whole: schedule, squads, toss, innings, every delivery, outcome", () => {
    const content = load();
    const types = firstImport().map((e) => e.type);
    expect(types.slice(0, 6)).toEqual([
      "FixtureScheduled",
      "SquadNamed",
      "SquadNamed",
      "TossRecorded",
      "InningsOpened",
      "InningsOpened",
    ]);
    expect(types.filter((t) => t === "DeliveryRecorded")).toHaveLength(content.deliveries.length);
    expect(types.at(-1)).toBe("OutcomeRecorded");
  });

  it("changes nothing for a source revision already imported", () =>
    spec(importFixture).given(firstImport()).when({ content: load() }).thenEmits([]));

  it("changes nothing for an older source revision", () => {
    const second = load((raw) => {
      raw.meta.revision = 2;
    });
    spec(importFixture)
      .given(importFixture.decide({ content: second }, importFixture.initialState()))
      .when({ content: load() })
      .thenEmits([]);
  });

  it("corrects exactly the deliveries a re-issued source changed, with the revision as the reason", () => {
    const revised = load((raw) => {
      raw.meta.revision = 2;
      const ball = raw.innings[1]?.overs?.[0]?.deliveries[1];
      if (ball) ball.runs = { batter: 6, extras: 0, total: 6 };
      raw.info.outcome = { winner: "South Africa", by: { wickets: 5 }, method: "D/L" };
    });
    const changed = revised.deliveries.find(
      (d) => d.overNumber === 0 && d.positionInOver === 1 && d.inningsId === revised.innings[1]?.inningsId,
    );
    const { eventId: _e, sequenceNumber: _s, submissionId: _id, ...state } = changed as NonNullable<typeof changed>;
    spec(importFixture)
      .given(firstImport())
      .when({ content: revised })
      .thenEmits([
        {
          type: "FixtureSourceRevised",
          data: { revision: 2, createdOn: "2022-10-27", dataVersion: revised.scheduled.source.dataVersion },
        },
        {
          type: "DeliveryCorrected",
          data: { eventId: changed?.eventId, revision: 2, reason: "Cricsheet revision 2", delivery: state },
        },
        { type: "OutcomeRecorded", data: revised.outcome },
      ]);
  });
});
