import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BatchValidator } from "../../src/batches/validator.js";
import type { Person } from "../support/account-api.js";
import { type ApiBatch, sendBatch } from "../support/batches.js";
import { cricsheetPackage, openWithMatch } from "../support/cricsheet-packages.js";
import type { SubmissionApi } from "../support/submissions.js";

/**
 * Packages built from a real IPL match (1082591: Sunrisers Hyderabad v Royal Challengers
 * Bangalore, 2017, substitutes among the fielders) after its import: every delivery is found
 * by the names the match uses or by Cricsheet register ids, in the real squads, and matches
 * the ledger exactly, so each item is a duplicate (already published) and nothing is a fault.
 */

const MATCH = "ipl/1082591.json";

let api: SubmissionApi;
let submitter: Person;
let validator: BatchValidator;
beforeAll(async () => {
  ({ api, submitter, validator } = await openWithMatch(MATCH));
}, 120_000);
afterAll(() => api?.close());

type Item = { outcome: string; path: string; faults: { code: string; path: string }[]; requirements: unknown[] };

async function judged(body: unknown) {
  const res = await sendBatch(api.api, body, { token: submitter.token });
  expect(res.status, res.text).toBe(202);
  const batch = (res.body as { data: ApiBatch }).data;
  await validator.drain();
  await api.world.catchUp();
  const download = await api.api.get(`${batch.links.report}/download`, { token: submitter.token });
  expect(download.status, download.text).toBe(200);
  return JSON.parse(download.text) as { summary: { status: string; counts: Record<string, number> }; items: Item[] };
}

describe("a package of a real match", () => {
  it.each(["1.0", "1.1"] as const)(
    "in contract %s finds every delivery already published as it is",
    async (version) => {
      const { body } = cricsheetPackage(MATCH, { version });
      const report = await judged(body);
      expect(report.items.length).toBeGreaterThan(200);
      expect(report.items.filter((i) => i.outcome !== "duplicate")).toEqual([]);
      expect(report.summary).toMatchObject({
        status: "validated",
        counts: { accepted: 0, rejected: 0, unresolved: 0, conflicting: 0, duplicate: report.items.length },
      });
    },
  );

  it("finds a delivery whose runs differ from the published one conflicting, and only that one", async () => {
    const { body } = cricsheetPackage(MATCH, { version: "1.0" });
    const events = body.fixtures[0]?.innings[1]?.events as {
      runs: { offBat: number; extras: number; total: number };
    }[];
    const changed = events[40] as (typeof events)[number];
    changed.runs = { ...changed.runs, offBat: changed.runs.offBat + 1, total: changed.runs.total + 1 };
    const report = await judged({ ...body, packageId: "cricsheet-changed" });
    const odd = report.items.filter((i) => i.outcome !== "duplicate");
    expect(odd.map((i) => [i.outcome, i.path])).toEqual([["conflicting", "fixtures.0.innings.1.events.40"]]);
  });
});
