import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { judgeBatch } from "../../src/batches/judge.js";
import { readPackage } from "../../src/ingest/batches/package.js";
import { aPackageWith, batchFactsOf, packageCorrectionOf } from "../support/batch-facts.js";
import { packageEventOf } from "../support/batches.js";
import { aFixture, aSeason, type BuiltDelivery, type FixtureBuilder } from "../support/cricket-builders.js";

/**
 * Corrections in a package, judged alone (hand-built facts, no database): the target first,
 * each wrong one with its own code at `correctsEventId`; then, with the target right, the
 * direct correction's checks, their faults at the package's paths.
 */

const where = "fixtures.0.innings.0.events";

/** A fixture of one innings of 12 published deliveries. */
const aPlayedFixture = (season = aSeason()) => aFixture({ season }).withInnings({ deliveries: 12 });

const delivery = (fixture: FixtureBuilder, n: number) => fixture.deliveries[n] as BuiltDelivery;

function judged(fixture: FixtureBuilder, events: unknown[], published: FixtureBuilder[] = [fixture]) {
  const facts = batchFactsOf(fixture.competition.id, published);
  const { items } = judgeBatch(readPackage(aPackageWith(fixture, events)), facts);
  return items.map((i) => ({ outcome: i.outcome, faults: i.faults.map((f) => [f.code, f.path]) }));
}

describe("a correction in a package", () => {
  it("of a published delivery of its fixture is accepted; identical to the live state it is a duplicate", () => {
    const fixture = aPlayedFixture();
    const four = { runs: { offBat: 4, extras: 0, total: 4 } };
    expect(
      judged(fixture, [
        packageCorrectionOf(fixture, delivery(fixture, 0), four),
        packageCorrectionOf(fixture, delivery(fixture, 1)),
      ]),
    ).toEqual([
      { outcome: "accepted", faults: [] },
      { outcome: "duplicate", faults: [] },
    ]);
  });

  it("names a target no published delivery has: CORRECTION_TARGET_NOT_FOUND", () => {
    const fixture = aPlayedFixture();
    const lost = { ...packageCorrectionOf(fixture, delivery(fixture, 0)), correctsEventId: randomUUID() };
    expect(judged(fixture, [lost])).toEqual([
      { outcome: "rejected", faults: [["CORRECTION_TARGET_NOT_FOUND", `${where}.0.correctsEventId`]] },
    ]);
  });

  it("names a delivery of another fixture of the competition, or of another competition's", () => {
    const fixture = aPlayedFixture();
    const sameCompetition = aPlayedFixture(fixture.season);
    const elsewhere = aPlayedFixture();
    const otherTarget = (other: FixtureBuilder, n: number) => ({
      ...packageCorrectionOf(fixture, delivery(fixture, n)),
      correctsEventId: delivery(other, 0).eventId,
    });
    expect(
      judged(
        fixture,
        [otherTarget(sameCompetition, 0), otherTarget(elsewhere, 1)],
        [fixture, sameCompetition, elsewhere],
      ),
    ).toEqual([
      { outcome: "rejected", faults: [["CORRECTION_TARGET_WRONG_FIXTURE", `${where}.0.correctsEventId`]] },
      { outcome: "rejected", faults: [["CORRECTION_TARGET_WRONG_COMPETITION", `${where}.1.correctsEventId`]] },
    ]);
  });

  it("is ambiguous when another correction names its target, or the package sends a delivery of that id", () => {
    const fixture = aPlayedFixture();
    const [first, second] = [delivery(fixture, 0), delivery(fixture, 1)];
    const resent = packageEventOf(fixture, {
      ...second.state,
      ballNumber: second.state.ballNumber ?? undefined,
      eventId: second.eventId,
      sequenceNumber: second.sequenceNumber,
    });
    const ambiguous = (n: number) => ["CORRECTION_TARGET_AMBIGUOUS", `${where}.${n}.correctsEventId`];
    const repeated = (n: number) => ["DUPLICATE_OCCURRENCE_SEQUENCE", `${where}.${n}.occurrenceSequence`];
    expect(
      judged(fixture, [
        packageCorrectionOf(fixture, first, { runs: { offBat: 6, extras: 0, total: 6 } }),
        packageCorrectionOf(fixture, first, { runs: { offBat: 4, extras: 0, total: 4 } }),
        packageCorrectionOf(fixture, second, { runs: { offBat: 3, extras: 0, total: 3 } }),
        resent,
      ]),
    ).toEqual([
      { outcome: "rejected", faults: [ambiguous(0)] },
      // a correction inherits its target's sequence: a second item of it repeats that too
      { outcome: "rejected", faults: [repeated(1), ambiguous(1)] },
      { outcome: "rejected", faults: [ambiguous(2)] },
      { outcome: "rejected", faults: [repeated(3)] },
    ]);
  });

  it("is judged as a direct correction, its faults at the package's paths", () => {
    const fixture = aPlayedFixture();
    const [first, second, third] = [delivery(fixture, 0), delivery(fixture, 1), delivery(fixture, 2)];
    const moved = packageCorrectionOf(fixture, second, { positionInOver: third.state.positionInOver });
    const unknownKind = packageCorrectionOf(fixture, first, {
      wickets: [{ kind: "obstructed", playerOutId: first.state.strikerId, fielders: [] }],
    });
    expect(
      judged(fixture, [{ ...packageCorrectionOf(fixture, third), occurrenceSequence: 99 }, moved, unknownKind]),
    ).toEqual([
      // the sequence is inherited: the package states the delivery's own, or it is wrong
      { outcome: "rejected", faults: [["INVALID_FIELD", `${where}.0.occurrenceSequence`]] },
      { outcome: "conflicting", faults: [["EVENT_CONFLICT", `${where}.1.positionInOver`]] },
      { outcome: "rejected", faults: [["UNKNOWN_DISMISSAL_KIND", `${where}.2.wickets.0.kind`]] },
    ]);
  });

  it("of a fixture that names none of the competition's is unresolved, its target still judged", () => {
    const fixture = aPlayedFixture();
    const pkg = aPackageWith(fixture, [
      packageCorrectionOf(fixture, delivery(fixture, 0)),
      { ...packageCorrectionOf(fixture, delivery(fixture, 1)), correctsEventId: randomUUID() },
    ]);
    const [packaged] = pkg.fixtures as unknown as Record<string, unknown>[];
    const unknown = { ...pkg, fixtures: [{ ...packaged, sourceId: "cricsheet:fixture:0" }] };
    const { items } = judgeBatch(readPackage(unknown), batchFactsOf(fixture.competition.id, [fixture]));
    expect(items.map((i) => [i.outcome, i.faults.map((f) => f.code), i.requirements.map((r) => r.code)])).toEqual([
      ["unresolved", [], ["UNRESOLVED_REFERENCE"]],
      ["rejected", ["CORRECTION_TARGET_NOT_FOUND"], ["UNRESOLVED_REFERENCE"]],
    ]);
  });
});
