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
 * A package's fixture checked against the fixture it names, through HTTP: a real IPL 2017
 * match (1082591, Sunrisers Hyderabad v Royal Challengers Bangalore, already published, so
 * every delivery of a right package is a duplicate) and one of IPL 2008 (335982: Cricsheet
 * labels its season "2007/08"), so the competition has two seasons.
 */

const MATCH = "ipl/1082591.json";
const EARLIER = "ipl/335982.json";

type Report = {
  summary: { status: string; faults: { code: string; path: string }[] };
  items: {
    path: string;
    outcome: string;
    faults: { code: string }[];
    requirements: { code: string; referencePath: string }[];
  }[];
};
type Reference = { sourceId?: string; context?: { name: string } };
type PackagedFixture = Record<string, unknown> & {
  season?: Reference;
  context: { teams: Reference[] };
  innings: { context: { battingTeam: Reference } }[];
};

let api: SubmissionApi;
let submitter: Person;
let validator: BatchValidator;
beforeAll(async () => {
  api = await openSubmissionApi();
  const summary = await importCricsheet(api.world.store, [cricsheetFile(MATCH), cricsheetFile(EARLIER)]);
  expect(summary.failed).toEqual([]);
  await api.world.catchUp();
  submitter = await api.aSubmitter(api.admin, cricsheetPackage(MATCH).competitionId);
  validator = new BatchValidator({ sql: api.db.sql, store: api.world.store, logger: createLogger("silent") });
}, 180_000);
afterAll(() => api?.close());

/** The match's package, its fixture changed by `change`. */
function aPackage(change: (fixture: PackagedFixture) => void) {
  const { body } = cricsheetPackage(MATCH);
  change(body.fixtures[0] as unknown as PackagedFixture);
  return { ...body, packageId: `checks-${randomUUID()}` };
}

async function judged(body: unknown): Promise<Report> {
  const res = await sendBatch(api.api, body, { token: submitter.token });
  expect(res.status, res.text).toBe(202);
  const batch = (res.body as { data: ApiBatch }).data;
  await validator.drain();
  await api.world.catchUp();
  const download = await api.api.get(`${batch.links.report}/download`, { token: submitter.token });
  expect(download.status, download.text).toBe(200);
  return JSON.parse(download.text) as Report;
}

const named = (name: string) => ({ context: { name } });
const outcomes = (report: Report) => new Set(report.items.map((i) => i.outcome));
const faultCodes = (report: Report) => new Set(report.items.flatMap((i) => i.faults.map((f) => f.code)));

describe("a fixture's season", () => {
  it("of its own is found among the competition's by name", async () => {
    const report = await judged(aPackage((f) => (f.season = named("2017"))));
    expect(report.summary).toMatchObject({ status: "validated", faults: [] });
    expect(outcomes(report)).toEqual(new Set(["duplicate"]));
  });

  it("that is another season of the competition rejects the fixture's deliveries, at the season's path", async () => {
    // "2008" and Cricsheet's "2007/08" name one season: the name derived from its fixtures, and its label.
    for (const name of ["2008", "2007/08"]) {
      const report = await judged(aPackage((f) => (f.season = named(name))));
      expect(report.summary).toMatchObject({
        status: "rejected",
        faults: [expect.objectContaining({ code: "FIXTURE_SEASON_MISMATCH", path: "fixtures.0.season" })],
      });
      expect(faultCodes(report)).toEqual(new Set(["FIXTURE_INVALID"]));
    }
  });

  it("by source id alone is refused; by a name the competition has no season of, it is to resolve", async () => {
    const sourceOnly = await judged(aPackage((f) => (f.season = { sourceId: "cricsheet:season:2017" })));
    expect(sourceOnly.summary.faults).toEqual([
      expect.objectContaining({ code: "SOURCE_ONLY_REFERENCE", path: "fixtures.0.season.context" }),
    ]);
    const unknown = await judged(aPackage((f) => (f.season = named("1999"))));
    expect(unknown.summary.status).toBe("staged");
    expect(new Set(unknown.items.flatMap((i) => i.requirements.map((r) => `${r.code} ${r.referencePath}`)))).toEqual(
      new Set(["UNRESOLVED_REFERENCE fixtures.0.season"]),
    );
  });
});

describe("the package's season", () => {
  it("is the season of each fixture that names none of its own", async () => {
    const mismatched = await judged({ ...aPackage(() => {}), season: named("2008") });
    expect(mismatched.summary).toMatchObject({
      status: "rejected",
      faults: [expect.objectContaining({ code: "FIXTURE_SEASON_MISMATCH", path: "season" })],
    });
    const overridden = await judged({ ...aPackage((f) => (f.season = named("2017"))), season: named("2008") });
    expect(overridden.summary).toMatchObject({ status: "validated", faults: [] });
  });
});

describe("a fixture's teams", () => {
  it("bat in the innings the fixture says: another batting team rejects that innings' deliveries only", async () => {
    const report = await judged(
      aPackage((f) => {
        const [first, second] = f.innings;
        if (first && second) second.context.battingTeam = first.context.battingTeam;
      }),
    );
    expect(report.summary.faults).toEqual([
      expect.objectContaining({ code: "BATTING_TEAM_MISMATCH", path: "fixtures.0.innings.1.context.battingTeam" }),
    ]);
    const judgedIn = (innings: number) =>
      new Set(
        report.items
          .filter((i) => i.path.startsWith(`fixtures.0.innings.${innings}.`))
          .map((i) => [i.outcome, ...i.faults.map((f) => f.code)].join(" ")),
      );
    expect(judgedIn(0)).toEqual(new Set(["duplicate DUPLICATE_EVENT_ID"]));
    expect(judgedIn(1)).toEqual(new Set(["rejected FIXTURE_INVALID"]));
  });

  it("are two different teams", async () => {
    const report = await judged(
      aPackage((f) => {
        const [home] = f.context.teams;
        if (home) f.context.teams = [home, home];
      }),
    );
    expect(report.summary.faults).toEqual([
      expect.objectContaining({ code: "DUPLICATE_TEAM", path: "fixtures.0.context.teams.1" }),
    ]);
    expect(outcomes(report)).toEqual(new Set(["rejected"]));
  });
});
