import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { completeness } from "../../src/statistics/completeness.js";
import { CRICSHEET } from "../support/cricsheet.js";
import { fixtureOf } from "../support/scorecards.js";

const check = (
  relative: string,
  drop: (d: { overNumber: number; sequenceNumber: number; inningsId: string }, i: number) => boolean = () => false,
) => {
  const { fixture } = fixtureOf(relative);
  return completeness(
    fixture.innings,
    fixture.deliveries.filter((d, i) => !drop(d, i)),
    fixture.scheduled.ballsPerOver,
    fixture.outcome.result,
  );
};

describe("completeness of a fixture's data", () => {
  const files = readFileSync(`${CRICSHEET}/dev_subset.txt`, "utf8")
    .split("\n")
    .filter((line) => line.endsWith(".json"));

  it.each(files)("%s is complete as Cricsheet publishes it", (file) => {
    expect(check(file)).toEqual({ state: "complete", issues: [] });
  });

  it("reports a gap in the occurrence sequence", () => {
    const result = check("ipl/980901.json", (_, i) => i === 10);
    expect(result.state).toBe("incomplete");
    expect(result.issues.map((i) => i.code)).toContain("SEQUENCE_GAP");
  });

  it("reports a whole missing over, and a short over that is not the last", () => {
    const missingOver = check(
      "ipl/980901.json",
      (d) => d.overNumber === 5 && d.inningsId === fixtureOf("ipl/980901.json").fixture.innings[0]?.inningsId,
    );
    expect(missingOver.issues.map((i) => i.code)).toEqual(expect.arrayContaining(["SEQUENCE_GAP", "MISSING_OVERS"]));
    const { fixture } = fixtureOf("ipl/980901.json");
    const firstOfOverSeven = fixture.deliveries.findIndex((d) => d.overNumber === 7);
    const short = check("ipl/980901.json", (_, i) => i === firstOfOverSeven);
    expect(short.issues.map((i) => i.code)).toEqual(expect.arrayContaining(["SHORT_OVER"]));
  });

  it("reports an innings with no deliveries", () => {
    const first = fixtureOf("ipl/980901.json").fixture.innings[1]?.inningsId;
    expect(check("ipl/980901.json", (d) => d.inningsId === first).issues).toEqual([
      { code: "EMPTY_INNINGS", inningsId: first, message: "innings 1 has no deliveries" },
    ]);
  });
});
