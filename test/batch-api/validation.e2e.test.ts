import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BatchValidator } from "../../src/batches/validator.js";
import { batchDecider } from "../../src/commands/batches/decide.js";
import { handleCommand } from "../../src/commands/handle.js";
import { createLogger } from "../../src/http/logging.js";
import { batchCatalogue, batchStream } from "../../streams/batch.js";
import type { Person } from "../support/account-api.js";
import {
  type ApiBatch,
  aManifest,
  aPackageOf,
  type Part,
  packageEventOf,
  sendBatch,
  sendParts,
} from "../support/batches.js";
import type { ApiResponse } from "../support/contract.js";
import type { FixtureBuilder } from "../support/cricket-builders.js";
import {
  openSubmissionApi,
  type SubmissionApi,
  type SubmittedEvent,
  submission,
  validEvents,
} from "../support/submissions.js";

/**
 * Batch validation: the validator judges every item of a received package against the
 * read models and the fixture's ledger, through the direct submissions' checks, and the
 * batch's status, counts and report show it; it resumes where it stopped and judges each
 * item once, however many validators run.
 */

type Item = {
  ordinal: number;
  path: string;
  file?: string;
  eventId: string | null;
  outcome: string;
  context: Record<string, unknown>;
  faults: { code: string; path: string }[];
  requirements: { code: string; referencePath: string; candidates: unknown[] }[];
};
type Report = {
  data: Item[];
  pagination: { nextCursor: string | null };
  summary: {
    status: string;
    counts: Record<string, number>;
    rules: { code: string; count: number }[];
    faults: unknown[];
  };
};

let api: SubmissionApi;
let submitter: Person;
let validator: BatchValidator;
beforeAll(async () => {
  api = await openSubmissionApi();
  validator = new BatchValidator({ sql: api.db.sql, store: api.world.store, logger: createLogger("silent") });
}, 60_000);
afterAll(() => api?.close());

async function aFixtureWithSubmitter(): Promise<FixtureBuilder> {
  const fixture = await api.aFixtureToSubmitTo();
  submitter = await api.aSubmitter(api.admin, fixture.season.competition.id);
  return fixture;
}

/** Sends a package and lets the validator judge it; the batch as its status then shows it. */
async function validated(body: unknown): Promise<ApiBatch & { progress: { itemsDone: number; itemsTotal: number } }> {
  const res = await sendBatch(api.api, body, { token: submitter.token });
  expect(res.status, res.text).toBe(202);
  const { batchReference } = (res.body as { data: ApiBatch }).data;
  await validator.drain();
  await api.world.catchUp();
  const read = await api.api.get(`/api/v1/batches/${batchReference}`, { token: submitter.token });
  expect(read.status, read.text).toBe(200);
  return (read.body as { data: ApiBatch & { progress: { itemsDone: number; itemsTotal: number } } }).data;
}

const reportOf = async (batch: ApiBatch, query = ""): Promise<Report> => {
  const res: ApiResponse = await api.api.get(`${batch.links.report}${query}`, { token: submitter.token });
  expect(res.status, res.text).toBe(200);
  return res.body as Report;
};

describe("validating a package", () => {
  it("accepts valid deliveries of a fixture found by its teams and date, people by their names in the squads", async () => {
    const fixture = await aFixtureWithSubmitter();
    const batch = await validated(aPackageOf(fixture, validEvents(fixture, 12)));
    expect(batch).toMatchObject({
      status: "validated",
      progress: { itemsDone: 12, itemsTotal: 12 },
      counts: { accepted: 12, rejected: 0, unresolved: 0, duplicate: 0, conflicting: 0 },
    });
    const report = await reportOf(batch);
    expect(report.data.map((i) => i.outcome)).toEqual(Array(12).fill("accepted"));
    expect(report.data[6]?.context).toMatchObject({ innings: 0, over: 1, ball: "1.1" });
    expect(report.summary.rules).toEqual([]);
    // Nothing is published before review: the ledger holds none of them.
    expect(await api.publicEvents(fixture.id)).toEqual([]);
  });

  it("judges every item in one pass: unresolved people, broken rules, repeats, conflicts and duplicates", async () => {
    const fixture = await aFixtureWithSubmitter();
    const published = validEvents(fixture, 4);
    expect((await api.submit(submission(fixture, published))).status).toBe(201);
    const fresh = validEvents(fixture, 6, { from: 5 });
    const pkg = aPackageOf(fixture, [...published.slice(0, 2), ...fresh]);
    const events =
      (pkg.fixtures[0] as unknown as { innings: { events: Record<string, unknown>[] }[] }).innings[0]?.events ?? [];
    // 0: already published as it is (duplicate); 1: published, but other runs now (conflicting)
    events[1] = { ...events[1], runs: { offBat: 3, extras: 0, total: 3 } };
    // 2: a striker nobody in the batting squad is called
    events[2] = { ...events[2], striker: { context: { name: "Nobody Atall" } } };
    // 3: its ball label's over is not its over
    events[3] = { ...events[3], ballLabel: "9.1" };
    // 4: the event id of item 5 again
    events[4] = { ...events[4], eventId: events[5]?.eventId };
    // 6: the place (sequence and ball) of an accepted delivery, under a new event id
    events[6] = packageEventOf(fixture, { ...(published[2] as SubmittedEvent), eventId: randomUUID() });
    const batch = await validated(pkg);
    const report = await reportOf(batch);
    const outcomes = report.data.map((i) => i.outcome);
    expect(outcomes).toEqual([
      "duplicate",
      "conflicting",
      "unresolved",
      "rejected",
      // the first of two items with one event id stands; the repeat is the fault
      "accepted",
      "rejected",
      "conflicting",
      "accepted",
    ]);
    const at = (n: number) => report.data[n] as Item;
    const where = "fixtures.0.innings.0.events";
    expect(at(2).requirements).toEqual([
      expect.objectContaining({ code: "UNRESOLVED_REFERENCE", referencePath: `${where}.2.striker`, candidates: [] }),
    ]);
    expect(at(3).faults).toEqual([expect.objectContaining({ code: "INVALID_FIELD", path: `${where}.3.ballLabel` })]);
    expect(at(5).faults).toEqual([expect.objectContaining({ code: "DUPLICATE_EVENT_ID", path: `${where}.5.eventId` })]);
    expect(at(6).faults.map((f) => f.code)).toContain("EVENT_CONFLICT");
    expect(batch).toMatchObject({
      status: "staged",
      counts: { accepted: 2, rejected: 2, unresolved: 1, duplicate: 1, conflicting: 2 },
    });
    expect(report.summary.rules).toEqual(
      expect.arrayContaining([
        { code: "UNRESOLVED_REFERENCE", count: 1 },
        { code: "INVALID_FIELD", count: 1 },
      ]),
    );
    const rejected = await reportOf(batch, "?outcome=rejected");
    expect(rejected.data.map((i) => i.ordinal)).toEqual([3, 5]);
    const byCode = await reportOf(batch, "?code=UNRESOLVED_REFERENCE");
    expect(byCode.data.map((i) => i.ordinal)).toEqual([2]);
  });

  it("rejects every item of a 1.1 package's fixture that lacks its source id, and says why once", async () => {
    const fixture = await aFixtureWithSubmitter();
    const pkg = aPackageOf(fixture, validEvents(fixture, 3));
    const { sourceId: _, ...withoutSource } = pkg.fixtures[0] as unknown as Record<string, unknown>;
    const batch = await validated({ ...pkg, fixtures: [withoutSource] });
    expect(batch.status).toBe("rejected");
    const report = await reportOf(batch);
    expect(report.summary.faults).toEqual([
      expect.objectContaining({ code: "FIXTURE_SOURCE_ID_REQUIRED", path: "fixtures.0.sourceId" }),
    ]);
    expect(report.data.map((i) => i.faults.map((f) => f.code))).toEqual(Array(3).fill(["FIXTURE_INVALID"]));
  });

  it("stays staged while the fixture names none the competition has", async () => {
    const fixture = await aFixtureWithSubmitter();
    const pkg = aPackageOf(fixture, validEvents(fixture, 2));
    const batch = await validated({
      ...pkg,
      fixtures: [{ ...(pkg.fixtures[0] as unknown as object), sourceId: "cricsheet:fixture:999999" }],
    });
    expect(batch.status).toBe("staged");
    const report = await reportOf(batch);
    expect(report.data.map((i) => i.requirements.map((r) => [r.code, r.referencePath]))).toEqual(
      Array(2).fill([["UNRESOLVED_REFERENCE", "fixtures.0"]]),
    );
  });

  it("pages the report, and downloads it whole", async () => {
    const fixture = await aFixtureWithSubmitter();
    const batch = await validated(aPackageOf(fixture, validEvents(fixture, 7)));
    const first = await reportOf(batch, "?limit=5");
    const second = await reportOf(batch, `?limit=5&cursor=${first.pagination.nextCursor}`);
    expect([...first.data, ...second.data].map((i) => i.ordinal)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(second.pagination.nextCursor).toBeNull();
    const download = await api.api.get(`${batch.links.report}/download`, { token: submitter.token });
    expect(download.status, download.text).toBe(200);
    expect(download.headers.get("content-disposition")).toBe(
      `attachment; filename="batch-${batch.batchReference}-report.json"`,
    );
    const file = JSON.parse(download.text) as { batchReference: string; items: Item[]; summary: Report["summary"] };
    expect(file.batchReference).toBe(batch.batchReference);
    expect(file.items).toEqual([...first.data, ...second.data]);
    expect(file.summary.counts).toMatchObject({ accepted: 7 });
    // A cursor of other filters, a filter of no outcome, a parameter it does not take: 400 naming each.
    for (const [query, field] of [
      [`?outcome=rejected&cursor=${first.pagination.nextCursor}`, "cursor"],
      ["?cursor=not-a-cursor", "cursor"],
      ["?outcome=maybe", "outcome"],
      ["?limit=0", "limit"],
      ["?code=", "code"],
      ["?owner=me", "owner"],
    ]) {
      const res = await api.api.get(`${batch.links.report}${query}`, { token: submitter.token });
      expect(res.status, `${query}: ${res.text}`).toBe(400);
      expect((res.body as { error: { details: { field: string }[] } }).error.details.map((d) => d.field)).toEqual([
        field,
      ]);
    }
    const other = await api.signIn();
    expect((await api.api.get(`${batch.links.report}/download`, { token: other.token })).status).toBe(403);
    expect((await api.api.get(batch.links.report, { token: other.token })).status).toBe(403);
  });
});

describe("validating a package of several files", () => {
  it("judges the fixtures of every file, each item and fault located in its own file", async () => {
    const fixture = await aFixtureWithSubmitter();
    const { fixtures, ...head } = aPackageOf(fixture, validEvents(fixture, 4));
    const events =
      (fixtures[0] as unknown as { innings: { events: Record<string, unknown>[] }[] }).innings[0]?.events ?? [];
    events[3] = { ...events[3], ballLabel: "7.1" };
    const parts: Part[] = [
      { path: "a.json", content: JSON.stringify({ fixtures: [] }) },
      { path: "weeks/b.json", content: JSON.stringify({ fixtures }) },
    ];
    const res = await sendParts(api.api, aManifest(head, parts), parts, { token: submitter.token });
    expect(res.status, res.text).toBe(202);
    const { batchReference, links } = (res.body as { data: ApiBatch }).data;
    await validator.drain();
    await api.world.catchUp();
    const report = await reportOf({ links } as ApiBatch);
    expect(report.summary).toMatchObject({ status: "validated", counts: { accepted: 3, rejected: 1 } });
    expect(report.data.map((i) => [i.file, i.path, i.outcome])).toEqual([
      ["weeks/b.json", "fixtures.0.innings.0.events.0", "accepted"],
      ["weeks/b.json", "fixtures.0.innings.0.events.1", "accepted"],
      ["weeks/b.json", "fixtures.0.innings.0.events.2", "accepted"],
      ["weeks/b.json", "fixtures.0.innings.0.events.3", "rejected"],
    ]);
    expect(report.data[3]?.faults).toEqual([
      expect.objectContaining({ code: "INVALID_FIELD", path: "fixtures.0.innings.0.events.3.ballLabel" }),
    ]);
    expect(batchReference).toBeTruthy();
  });
});

describe("validation runs once per batch", () => {
  it("resumes where it stopped, judging no item twice", async () => {
    const fixture = await aFixtureWithSubmitter();
    const res = await sendBatch(api.api, aPackageOf(fixture, validEvents(fixture, 9)), { token: submitter.token });
    const { batchReference } = (res.body as { data: ApiBatch }).data;
    // A validator that stopped after judging the first three items.
    const stream = batchStream(batchReference);
    const step = (command: Parameters<typeof batchDecider.decide>[0]) =>
      handleCommand(api.world.store, batchCatalogue, stream, batchDecider, command, { actor: "test", now: new Date() });
    await step({ type: "StartValidation", round: 0, itemsTotal: 9 });
    const item = (ordinal: number) => ({
      ordinal,
      path: `fixtures.0.innings.0.events.${ordinal}`,
      eventId: randomUUID(),
      outcome: "accepted" as const,
      context: { fixture: null, innings: 0, over: 0, ball: null },
      faults: [],
      requirements: [],
    });
    await step({ type: "JudgeItems", round: 0, from: 0, items: [item(0), item(1), item(2)] });

    expect(await validator.validate(batchReference)).toBe(true);
    expect(await validator.validate(batchReference)).toBe(false);
    const types = (await api.world.store.readStream(stream)).map((e) => e.type);
    expect(types).toEqual([
      "BatchReceived",
      "BatchValidationStarted",
      "BatchItemsJudged",
      "BatchItemsJudged",
      "BatchValidated",
    ]);
    await api.world.catchUp();
    const report = await reportOf({ links: { report: `/api/v1/batches/${batchReference}/report` } } as ApiBatch);
    expect(report.data.map((i) => i.ordinal)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("validates by itself once started, woken when the batch is projected", async () => {
    const fixture = await aFixtureWithSubmitter();
    // A poll far longer than the test: only the projectors' progress can wake it in time.
    const running = new BatchValidator(
      { sql: api.db.sql, store: api.world.store, logger: createLogger("silent") },
      { idlePollMs: 60_000 },
    );
    running.start(api.world.runner);
    try {
      await new Promise((resolve) => setTimeout(resolve, 100)); // its first look finds nothing
      const res = await sendBatch(api.api, aPackageOf(fixture, validEvents(fixture, 3)), { token: submitter.token });
      const { links } = (res.body as { data: ApiBatch }).data;
      const deadline = Date.now() + 10_000;
      let status = "received";
      while (status !== "validated" && Date.now() < deadline) {
        await api.world.catchUp();
        status = ((await api.api.get(links.status, { token: submitter.token })).body as { data: ApiBatch }).data.status;
        if (status !== "validated") await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(status).toBe("validated");
    } finally {
      await running.stop();
    }
  });

  it("appends one outcome when validators race for the same batch", async () => {
    const fixture = await aFixtureWithSubmitter();
    const res = await sendBatch(api.api, aPackageOf(fixture, validEvents(fixture, 5)), { token: submitter.token });
    const { batchReference } = (res.body as { data: ApiBatch }).data;
    const others = [1, 2, 3].map(
      () => new BatchValidator({ sql: api.db.sql, store: api.world.store, logger: createLogger("silent") }),
    );
    await Promise.all(others.map((v) => v.validate(batchReference)));
    const types = (await api.world.store.readStream(batchStream(batchReference))).map((e) => e.type);
    expect(types).toEqual(["BatchReceived", "BatchValidationStarted", "BatchItemsJudged", "BatchValidated"]);
  });
});
