import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BatchValidator } from "../../src/batches/validator.js";
import { createLogger } from "../../src/http/logging.js";
import { importCricsheet } from "../../src/ingest/cricsheet/import.js";
import type { Person } from "../support/account-api.js";
import { type ApiBatch, sendBatch } from "../support/batches.js";
import { cricsheetFile } from "../support/cricsheet.js";
import { cricsheetPackage } from "../support/cricsheet-packages.js";
import { openSubmissionApi, type SubmissionApi } from "../support/submissions.js";

/**
 * Corrections in a package, through HTTP: real IPL 2017 matches (1082591 Sunrisers Hyderabad
 * v Royal Challengers Bangalore, the package's; 1082592, another fixture of the competition)
 * and a WPL match (1358929, another competition) are published first. Each wrong target is
 * reported at its item's `correctsEventId` with its own code; a right one is judged as a
 * direct correction: accepted, or a duplicate when identical to the live state.
 */

const MATCH = "ipl/1082591.json";
const SAME_COMPETITION = "ipl/1082592.json";
const OTHER_COMPETITION = "wpl/1358929.json";

type Fault = { code: string; path: string };
type Item = { outcome: string; path: string; faults: Fault[]; requirements: unknown[] };
type Report = {
  data: Item[];
  summary: { status: string; counts: Record<string, number>; rules: { code: string; count: number }[] };
};
type PackageEvent = Record<string, unknown> & {
  eventId: string;
  occurrenceSequence: number;
  runs: { offBat: number; extras: number; total: number };
  wickets: unknown[];
};

let api: SubmissionApi;
let submitter: Person;
let validator: BatchValidator;
beforeAll(async () => {
  api = await openSubmissionApi();
  const files = [MATCH, SAME_COMPETITION, OTHER_COMPETITION].map((m) => cricsheetFile(m));
  const summary = await importCricsheet(api.world.store, files);
  expect(summary.failed).toEqual([]);
  await api.world.catchUp();
  submitter = await api.aSubmitter(api.admin, cricsheetPackage(MATCH).competitionId);
  validator = new BatchValidator({ sql: api.db.sql, store: api.world.store, logger: createLogger("silent") });
}, 180_000);
afterAll(() => api?.close());

/** The first innings' deliveries of a match, as a package names them (the published event ids). */
const published = (match: string) =>
  (cricsheetPackage(match).body.fixtures[0]?.innings[0]?.events ?? []) as unknown as PackageEvent[];

/** A package of the match whose first innings holds only `events`. */
function aPackageOf(events: unknown[]) {
  const { body } = cricsheetPackage(MATCH);
  const [fixture] = body.fixtures;
  const [innings] = fixture?.innings ?? [];
  return {
    ...body,
    packageId: `corrections-${randomUUID()}`,
    fixtures: [{ ...fixture, innings: [{ ...innings, events }] }],
  };
}

/** `event` as a correction of the delivery `targetId` names, under an item id of its own. */
const correction = (event: PackageEvent, changes: Partial<PackageEvent> = {}, targetId = event.eventId) => ({
  ...event,
  ...changes,
  eventId: randomUUID(),
  operation: "correction",
  correctsEventId: targetId,
});

/** Sends a package, lets the validator judge it, and reads the report. */
async function reportOf(body: unknown, query = ""): Promise<Report> {
  const res = await sendBatch(api.api, body, { token: submitter.token });
  expect(res.status, res.text).toBe(202);
  const batch = (res.body as { data: ApiBatch }).data;
  await validator.drain();
  await api.world.catchUp();
  const report = await api.api.get(`${batch.links.report}${query}`, { token: submitter.token });
  expect(report.status, report.text).toBe(200);
  return report.body as Report;
}

const faultsOf = (report: Report) => report.data.map((i) => [i.outcome, ...i.faults.map((f) => `${f.code} ${f.path}`)]);
const where = "fixtures.0.innings.0.events";

describe("a correction in a package", () => {
  it("of a published delivery of its fixture is accepted; one identical to the live state is a duplicate", async () => {
    const [first, second, third] = published(MATCH).filter((e) => e.runs.extras === 0 && e.wickets.length === 0);
    if (!first || !second || !third) throw new Error("the match has plain deliveries");
    const report = await reportOf(
      aPackageOf([
        correction(first, { runs: { offBat: first.runs.offBat + 1, extras: 0, total: first.runs.total + 1 } }),
        correction(second),
        // the sequence is inherited: any other is the correction's fault
        correction(third, { occurrenceSequence: 9_999 }),
      ]),
    );
    expect(faultsOf(report)).toEqual([
      ["accepted"],
      ["duplicate"],
      ["rejected", `INVALID_FIELD ${where}.2.occurrenceSequence`],
    ]);
    expect(report.summary).toMatchObject({ status: "validated", counts: { accepted: 1, duplicate: 1, rejected: 1 } });
  });

  it("naming a wrong target is rejected, each kind with its own code at correctsEventId", async () => {
    const events = published(MATCH);
    const [other] = published(SAME_COMPETITION);
    const [women] = published(OTHER_COMPETITION);
    const at = (n: number) => events[n] as PackageEvent;
    const report = await reportOf(
      aPackageOf([
        correction(at(0), {}, randomUUID()),
        correction(at(1), {}, other?.eventId),
        correction(at(2), {}, women?.eventId),
        // two corrections of one delivery: which stands, nothing says
        correction(at(3)),
        correction(at(3)),
        // a correction of a delivery the package also sends
        correction(at(5)),
        at(5),
      ]),
    );
    const target = (code: string, n: number) => `CORRECTION_TARGET_${code} ${where}.${n}.correctsEventId`;
    const repeated = (n: number) => `DUPLICATE_OCCURRENCE_SEQUENCE ${where}.${n}.occurrenceSequence`;
    expect(faultsOf(report)).toEqual([
      ["rejected", target("NOT_FOUND", 0)],
      ["rejected", target("WRONG_FIXTURE", 1)],
      ["rejected", target("WRONG_COMPETITION", 2)],
      ["rejected", target("AMBIGUOUS", 3)],
      ["rejected", repeated(4), target("AMBIGUOUS", 4)],
      ["rejected", target("AMBIGUOUS", 5)],
      ["rejected", repeated(6)],
    ]);
    expect(report.summary.status).toBe("rejected");
    expect(report.summary.rules).toEqual(
      expect.arrayContaining([
        { code: "CORRECTION_TARGET_AMBIGUOUS", count: 3 },
        { code: "CORRECTION_TARGET_NOT_FOUND", count: 1 },
        { code: "CORRECTION_TARGET_WRONG_FIXTURE", count: 1 },
        { code: "CORRECTION_TARGET_WRONG_COMPETITION", count: 1 },
      ]),
    );
  });
});
