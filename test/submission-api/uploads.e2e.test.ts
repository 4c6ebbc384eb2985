import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { stringify } from "csv-stringify/sync";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CSV_COLUMNS } from "../../src/submissions/csv.js";
import { expectError, expectUnauthorized, type Person } from "../support/account-api.js";
import type { FixtureBuilder } from "../support/cricket-builders.js";
import {
  details,
  openSubmissionApi,
  type SubmissionApi,
  type SubmittedEvent,
  submission,
  validEvents,
} from "../support/submissions.js";

/**
 * POST /api/v1/submissions/uploads end to end: one file in the multipart field `file`, a
 * .json (application/json) direct submission or a .csv (text/csv) of one event per row.
 */

type Column = (typeof CSV_COLUMNS)[number];
type Cells = Partial<Record<Column, string | number | boolean>>;

const MB = 1024 * 1024;
const hex = (bytes: string | Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const byteLength = (content: string | Uint8Array) =>
  typeof content === "string" ? Buffer.byteLength(content) : content.byteLength;

/** An event as a CSV row: its cells in header order, blank where the event has no value, then `overrides`. */
function row(fixture: FixtureBuilder, e: SubmittedEvent, overrides: Cells = {}): (string | number | boolean)[] {
  const cells: Record<Column, string | number | boolean> = {
    fixtureId: fixture.id,
    schemaVersion: "1.0",
    eventId: e.eventId,
    inningsId: e.inningsId,
    sequenceNumber: e.sequenceNumber,
    overNumber: e.overNumber,
    positionInOver: e.positionInOver,
    ballNumber: e.ballNumber ?? "",
    strikerId: e.strikerId,
    nonStrikerId: e.nonStrikerId,
    bowlerId: e.bowlerId,
    runsOffBat: e.runs.offBat,
    runsExtras: e.runs.extras,
    runsTotal: e.runs.total,
    runsNonBoundary: e.runs.nonBoundary ?? "",
    extraWides: e.extras.wides ?? "",
    extraNoBalls: e.extras.noBalls ?? "",
    extraByes: e.extras.byes ?? "",
    extraLegByes: e.extras.legByes ?? "",
    extraPenalty: e.extras.penalty ?? "",
    wickets: e.wickets.length > 0 ? JSON.stringify(e.wickets) : "",
    ...overrides,
  };
  return CSV_COLUMNS.map((column) => cells[column]);
}

/** CSV text (csv-stringify quotes cells holding commas or quotes) with `header` first. */
const csv = (rows: unknown[][], { header = [...CSV_COLUMNS] as string[], crlf = false } = {}) =>
  stringify([header, ...rows], { record_delimiter: crlf ? "windows" : "unix" });

const csvOf = (fixture: FixtureBuilder, events: SubmittedEvent[]) => csv(events.map((e) => row(fixture, e)));

describe("submission uploads", () => {
  let api: SubmissionApi;
  /** A fresh admin per test: every upload counts against its account's budget of 30 a minute. */
  let admin: Person;
  beforeAll(async () => {
    api = await openSubmissionApi();
  }, 60_000);
  beforeEach(async () => {
    admin = await api.anAdmin();
  });
  afterAll(() => api?.close());

  const upload = (content: string | Uint8Array, filename: string, type: string) =>
    api.upload(content, filename, type, admin.token);

  /** The SubmissionAccepted records of a fixture's ledger. */
  async function acceptances(fixtureId: string) {
    const stream = await api.world.store.readStream(`fixture-${fixtureId}`);
    return stream.filter((e) => e.type === "SubmissionAccepted").map((e) => e.data as Record<string, unknown>);
  }

  /** Nothing of a refused upload was kept: no deliveries in the public reads, no submission record. */
  async function expectNothingStored(...fixtures: FixtureBuilder[]) {
    for (const fixture of fixtures) {
      expect(await api.publicEvents(fixture.id)).toEqual([]);
      expect(await acceptances(fixture.id)).toEqual([]);
    }
  }

  const detailOf = (found: { field: string; eventIndex?: number }[], field: string, eventIndex?: number) =>
    found.filter((d) => d.field === field && d.eventIndex === eventIndex);

  describe("CSV", () => {
    it("stores the rows in order and keeps the file's name, media type, length and SHA-256", async () => {
      const fixture = await api.aFixtureToSubmitTo();
      // Ten balls: the tenth is caught, so its wickets cell is quoted JSON full of commas.
      const events = validEvents(fixture, 10);
      const text = csvOf(fixture, events);
      expect(text).toContain('"[{""kind"":""caught""');

      const res = await upload(text, "over-one.csv", "text/csv");
      expect(res.status, res.text).toBe(201);
      const result = (res.body as { data: Record<string, unknown> }).data;
      expect(result).toMatchObject({
        fixtureId: fixture.id,
        submitterId: admin.id,
        status: "accepted",
        schemaVersion: "1.0",
        eventCount: 10,
      });

      const seen = await api.publicEvents(fixture.id);
      expect(seen.map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));
      // The public reads add the players' names to the ids.
      expect(seen[9]?.wickets).toMatchObject(events[9]?.wickets ?? []);
      expect(seen.slice(0, 9).map((e) => e.wickets)).toEqual(Array(9).fill([]));
      expect(seen[2]?.runs).toEqual({ offBat: 4, extras: 0, total: 4 });

      const [record, ...others] = await acceptances(fixture.id);
      expect(others).toEqual([]);
      expect(record).toMatchObject({
        submissionId: result.submissionId,
        submitterId: admin.id,
        receivedAt: result.receivedAt,
        schemaVersion: "1.0",
        eventIds: events.map((e) => e.eventId),
        upload: { filename: "over-one.csv", mediaType: "text/csv", byteLength: byteLength(text), sha256: hex(text) },
      });
      expect(record?.payloadSha256).toMatch(/^[0-9a-f]{64}$/);
    });

    it("reads blank cells as absent values, a wide and a non-boundary flag", async () => {
      const fixture = await api.aFixtureToSubmitTo();
      const [dot, wide, legal, run] = validEvents(fixture, 4) as [
        SubmittedEvent,
        SubmittedEvent,
        SubmittedEvent,
        SubmittedEvent,
      ];
      const rows = [
        row(fixture, dot),
        // A wide: one extra run and no ball of the over used up.
        row(fixture, wide, { runsOffBat: 0, runsExtras: 1, runsTotal: 1, extraWides: 1 }),
        // The ball after it (0.2 again, were it labelled): no ball number at all.
        row(fixture, legal, { ballNumber: "" }),
        row(fixture, run, { runsOffBat: 4, runsTotal: 4, runsNonBoundary: "true" }),
      ];
      const res = await upload(csv(rows), "blanks.csv", "text/csv");
      expect(res.status, res.text).toBe(201);

      const [first, second, third, fourth] = await api.publicEvents(fixture.id);
      expect(first).toMatchObject({ runs: { offBat: 0, extras: 0, total: 0 }, extras: {}, wickets: [] });
      expect(first?.runs).not.toHaveProperty("nonBoundary");
      expect(second).toMatchObject({ runs: { offBat: 0, extras: 1, total: 1 }, extras: { wides: 1 }, wickets: [] });
      expect(second?.extras).toEqual({ wides: 1 });
      expect(third?.ballNumber ?? null).toBeNull();
      expect(fourth?.runs).toEqual({ offBat: 4, extras: 0, total: 4, nonBoundary: true });
    });

    it("accepts CRLF line endings, a UTF-8 byte order mark and a quoted cell over several lines", async () => {
      const fixture = await api.aFixtureToSubmitTo();
      const events = validEvents(fixture, 10);
      const rows = events.map((e) =>
        e.wickets.length > 0 ? row(fixture, e, { wickets: JSON.stringify(e.wickets, null, 2) }) : row(fixture, e),
      );
      const text = `\uFEFF${csv(rows, { crlf: true })}`;
      expect(text).toContain("\r\n");
      expect(text).toContain('"[\n  {\n    ""kind"": ""caught""');

      const res = await upload(text, "windows.csv", "text/csv");
      expect(res.status, res.text).toBe(201);
      expect((await api.publicEvents(fixture.id)).map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));
      expect((await api.publicEvents(fixture.id))[9]?.wickets).toMatchObject(events[9]?.wickets ?? []);
      const [record] = await acceptances(fixture.id);
      expect(record?.upload).toEqual({
        filename: "windows.csv",
        mediaType: "text/csv",
        byteLength: byteLength(text),
        sha256: hex(text),
      });
    });

    it("names the CSV column and the data row of each problem", async () => {
      const fixture = await api.aFixtureToSubmitTo();
      const events = validEvents(fixture, 4);
      const wicket = { kind: "hit the ball twice", playerOutId: events[3]?.strikerId, fielders: [] };
      const rows = [
        row(fixture, events[0] as SubmittedEvent, { runsOffBat: "four" }),
        // A quoted cell with a comma in it is one cell: the id is read whole, and is nobody.
        row(fixture, events[1] as SubmittedEvent, { strikerId: "player, unknown", extraWides: -1 }),
        row(fixture, events[2] as SubmittedEvent, { runsNonBoundary: "maybe" }),
        row(fixture, events[3] as SubmittedEvent, { wickets: JSON.stringify([wicket]) }),
      ];
      const text = csv(rows);
      expect(text).toContain('"player, unknown"');

      const found = details(await upload(text, "problems.csv", "text/csv"));
      expect(detailOf(found, "runsOffBat", 0)).toEqual([expect.objectContaining({ code: "INVALID_FIELD" })]);
      expect(detailOf(found, "strikerId", 1)).toEqual([expect.objectContaining({ code: "INVALID_PARTICIPANT" })]);
      expect(detailOf(found, "extraWides", 1)).toEqual([expect.objectContaining({ code: "INVALID_FIELD" })]);
      expect(detailOf(found, "runsNonBoundary", 2)).toEqual([expect.objectContaining({ code: "INVALID_FIELD" })]);
      expect(detailOf(found, "wickets.0.kind", 3)).toEqual([
        expect.objectContaining({ code: "UNKNOWN_DISMISSAL_KIND" }),
      ]);
      // No detail names a JSON path the uploader never saw.
      expect(found.map((d) => d.field).filter((f) => /^(runs|extras)\./.test(f))).toEqual([]);
      await expectNothingStored(fixture);
    });

    it("reports a wickets cell that is not JSON together with the other rows' problems, in one pass", async () => {
      const fixture = await api.aFixtureToSubmitTo();
      const events = validEvents(fixture, 4);
      const rows = [
        row(fixture, events[0] as SubmittedEvent),
        row(fixture, events[1] as SubmittedEvent, { bowlerId: "player-nobody" }),
        row(fixture, events[2] as SubmittedEvent),
        row(fixture, events[3] as SubmittedEvent, { wickets: '[{"kind":"bowled",' }),
      ];
      const found = details(await upload(csv(rows), "wickets.csv", "text/csv"));
      expect(detailOf(found, "wickets", 3)).toEqual([expect.objectContaining({ code: "INVALID_FIELD" })]);
      expect(detailOf(found, "bowlerId", 1)).toEqual([expect.objectContaining({ code: "INVALID_PARTICIPANT" })]);
      expect(found).toHaveLength(2);
      await expectNothingStored(fixture);
    });

    it("refuses rows of another fixture or schema version, with the row's other problems", async () => {
      const fixture = await api.aFixtureToSubmitTo();
      const other = await api.aFixtureToSubmitTo();
      const events = validEvents(fixture, 4);
      const rows = [
        row(fixture, events[0] as SubmittedEvent),
        row(fixture, events[1] as SubmittedEvent, { fixtureId: other.id }),
        row(fixture, events[2] as SubmittedEvent, { schemaVersion: "1.1" }),
        row(fixture, events[3] as SubmittedEvent, { nonStrikerId: "player-nobody" }),
      ];
      const found = details(await upload(csv(rows), "mixed.csv", "text/csv"));
      expect(detailOf(found, "fixtureId", 1)).toEqual([expect.objectContaining({ code: "INVALID_FIELD" })]);
      expect(detailOf(found, "schemaVersion", 2)).toEqual([expect.objectContaining({ code: "INVALID_FIELD" })]);
      expect(detailOf(found, "nonStrikerId", 3)).toEqual([expect.objectContaining({ code: "INVALID_PARTICIPANT" })]);
      await expectNothingStored(fixture, other);
    });

    it.each([
      ["too few", (cells: unknown[]) => cells.slice(0, -2)],
      ["too many", (cells: unknown[]) => [...cells, "extra"]],
    ])("refuses a row with %s cells, naming the row", async (_, change) => {
      const fixture = await api.aFixtureToSubmitTo();
      const events = validEvents(fixture, 3);
      const rows = events.map((e, i) => (i === 1 ? change(row(fixture, e)) : row(fixture, e)));
      const found = details(await upload(csv(rows), "short.csv", "text/csv"));
      expect(found.filter((d) => d.eventIndex === 1 && d.field === "row")).toHaveLength(1);
      expect(found.filter((d) => d.eventIndex !== 1)).toEqual([]);
      await expectNothingStored(fixture);
    });

    it.each([
      ["in another order", () => [...CSV_COLUMNS.slice(0, 8), "nonStrikerId", "strikerId", ...CSV_COLUMNS.slice(10)]],
      ["missing a column", () => CSV_COLUMNS.filter((c) => c !== "runsNonBoundary")],
      ["with an extra column", () => [...CSV_COLUMNS, "notes"]],
      ["with a renamed column", () => CSV_COLUMNS.map((c) => (c === "extraWides" ? "wides" : c))],
    ])("refuses a header %s, storing nothing", async (_, header) => {
      const fixture = await api.aFixtureToSubmitTo();
      const events = validEvents(fixture, 3);
      const columns: string[] = header();
      // Each row still has the cells its header names, so only the header can be at fault.
      const rows = events.map((e) => {
        const cells = Object.fromEntries(CSV_COLUMNS.map((c, i) => [c, row(fixture, e)[i]]));
        return columns.map((c) => cells[c] ?? "");
      });
      const found = details(await upload(csv(rows, { header: columns }), "header.csv", "text/csv"));
      expect(found).toEqual([expect.objectContaining({ code: "INVALID_FIELD", field: "header" })]);
      expect(found[0]?.eventIndex).toBeUndefined();
      await expectNothingStored(fixture);
    });

    it("refuses event ids repeated within the file or already accepted, storing nothing more", async () => {
      const fixture = await api.aFixtureToSubmitTo();
      const events = validEvents(fixture, 3);
      const first = csvOf(fixture, events);
      expect((await upload(first, "first.csv", "text/csv")).status).toBe(201);

      const more = validEvents(fixture, 3, { from: 4 });
      const again = [...events, ...more].map((e) => row(fixture, e));
      // The last row repeats the id of the row before it.
      again[5] = row(fixture, { ...(more[2] as SubmittedEvent), eventId: (more[1] as SubmittedEvent).eventId });
      const found = details(await upload(csv(again), "again.csv", "text/csv"));
      const duplicates = found.filter((d) => d.code === "DUPLICATE_EVENT_ID");
      expect(duplicates.map((d) => [d.field, d.eventIndex])).toEqual([
        ["eventId", 0],
        ["eventId", 1],
        ["eventId", 2],
        ["eventId", 5],
      ]);
      expect((await api.publicEvents(fixture.id)).map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));
      expect(await acceptances(fixture.id)).toHaveLength(1);
    });

    it("refuses a file that is not CSV (an unclosed quote) with a detail on the file", async () => {
      const fixture = await api.aFixtureToSubmitTo();
      const text = `${csvOf(fixture, validEvents(fixture, 3))}${fixture.id},"1.0\n`;
      const found = details(await upload(text, "broken.csv", "text/csv"));
      expect(found).toEqual([expect.objectContaining({ code: "INVALID_FIELD", field: "file" })]);
      await expectNothingStored(fixture);
    });

    it("refuses an empty file and a header without rows", async () => {
      const empty = details(await upload("", "empty.csv", "text/csv"));
      expect(empty.map((d) => d.field)).toEqual(["header"]);
      // Only that: no rows means no fixtureId or schemaVersion cells to report as missing.
      const headerOnly = details(await upload(csv([]), "no-rows.csv", "text/csv"));
      expect(headerOnly.map((d) => d.field)).toEqual(["events"]);
    });

    it("refuses 1,001 rows, as a JSON submission of 1,001 events is refused", async () => {
      const fixture = await api.aFixtureToSubmitTo();
      const events = validEvents(fixture, 1001);
      const text = csvOf(fixture, events);
      expect(byteLength(text)).toBeLessThan(MB);
      const found = details(await upload(text, "long.csv", "text/csv"));
      expect(found.map((d) => d.field)).toContain("events");
      // Only the count is reported, not a thousand rows' worth of details.
      expect(found.length).toBeLessThan(5);
      await expectNothingStored(fixture);
    });

    it("answers more rows than a submission holds with one detail, not one per faulty row", async () => {
      const found = details(await upload(`${csv([])}${"x\n".repeat(5000)}`, "short-rows.csv", "text/csv"));
      expect(found).toEqual([expect.objectContaining({ code: "INVALID_FIELD", field: "events" })]);
      expect(found[0]?.message).toContain("5000 event rows");
    });

    it("refuses NUL characters in cells, naming their columns and rows, before anything is looked up", async () => {
      const fixture = await api.aFixtureToSubmitTo();
      const [first, second] = validEvents(fixture, 2) as [SubmittedEvent, SubmittedEvent];
      // The first row's fixture id is the submission's: reported once, without a row.
      const text = csv([
        row(fixture, first, { fixtureId: `${fixture.id}\u0000` }),
        row(fixture, second, { fixtureId: `${fixture.id}\u0000`, bowlerId: "\u0000", runsExtras: "\u0000" }),
      ]);
      const found = details(await upload(text, "nul.csv", "text/csv"));
      expect(found.map(({ field, eventIndex }) => ({ field, eventIndex }))).toEqual([
        { field: "fixtureId", eventIndex: undefined },
        { field: "bowlerId", eventIndex: 1 },
        { field: "runsExtras", eventIndex: 1 },
      ]);
      await expectNothingStored(fixture);
    });
  });

  describe("JSON", () => {
    it("stores a .json file holding a direct submission and keeps the bytes' own SHA-256", async () => {
      const fixture = await api.aFixtureToSubmitTo();
      const events = validEvents(fixture, 10);
      const body = submission(fixture, events);
      // Pretty-printed: the file's bytes differ from the canonical JSON the payload hash is over.
      const text = JSON.stringify(body, null, 2);

      const res = await upload(text, "Innings One.json", "application/json");
      expect(res.status, res.text).toBe(201);
      expect((await api.publicEvents(fixture.id)).map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));

      const [record] = await acceptances(fixture.id);
      expect(record).toMatchObject({
        submitterId: admin.id,
        eventIds: events.map((e) => e.eventId),
        upload: {
          filename: "Innings One.json",
          mediaType: "application/json",
          byteLength: byteLength(text),
          sha256: hex(text),
        },
      });
      expect(record?.payloadSha256).toMatch(/^[0-9a-f]{64}$/);
      expect(record?.payloadSha256).not.toBe(hex(text));
      // Deterministic: the SHA-256 of the submission in canonical JSON (RFC 8785), whatever the layout.
      expect(record?.payloadSha256).toBe(hex(canonicalize(body) as string));
    });

    it("reports a .json file's problems with JSON field paths", async () => {
      const fixture = await api.aFixtureToSubmitTo();
      const events = validEvents(fixture, 2);
      const broken = [events[0], { ...events[1], runs: { offBat: "four", extras: 0, total: 4 } }];
      const found = details(await upload(JSON.stringify(submission(fixture, broken)), "s.json", "application/json"));
      expect(found).toEqual([expect.objectContaining({ field: "runs.offBat", eventIndex: 1 })]);
      await expectNothingStored(fixture);
    });
  });

  describe("refused files", () => {
    /** A valid CSV for `fixture`: were the file not refused, these rows would be stored. */
    const validCsv = (fixture: FixtureBuilder) => csvOf(fixture, validEvents(fixture, 3));
    const validJson = (fixture: FixtureBuilder) => JSON.stringify(submission(fixture, validEvents(fixture, 3)));

    it.each([
      ["a .csv file sent as application/json", validCsv, "events.csv", "application/json"],
      ["a .json file sent as text/csv", validJson, "events.json", "text/csv"],
      ["a .csv file sent without a media type", validCsv, "events.csv", ""],
      ["a .txt file", validCsv, "events.txt", "text/plain"],
      ["a .txt file sent as text/csv", validCsv, "events.txt", "text/csv"],
      ["a file without an extension", validCsv, "events", "text/csv"],
    ])("refuses %s with a detail on the file", async (_, content, filename, type) => {
      const fixture = await api.aFixtureToSubmitTo();
      const found = details(await upload(content(fixture), filename, type));
      expect(found).toEqual([expect.objectContaining({ code: "INVALID_FIELD", field: "file" })]);
      await expectNothingStored(fixture);
    });

    it("accepts the extension in any case and a media type with parameters", async () => {
      const fixture = await api.aFixtureToSubmitTo();
      const res = await upload(validCsv(fixture), "EVENTS.CSV", "text/csv; charset=utf-8");
      expect(res.status, res.text).toBe(201);
      const [record] = await acceptances(fixture.id);
      expect(record?.upload).toMatchObject({ filename: "EVENTS.CSV", mediaType: "text/csv" });
    });

    /** POST /uploads with a form built by `fill`. */
    const send = (fill: (form: FormData) => void) => {
      const form = new FormData();
      fill(form);
      return api.api.post("/api/v1/submissions/uploads", form, { token: admin.token });
    };

    it("refuses a form without a file in the field `file`", async () => {
      const fixture = await api.aFixtureToSubmitTo();
      const text = validCsv(fixture);
      const elsewhere = await send((form) =>
        form.append("upload", new File([text], "events.csv", { type: "text/csv" })),
      );
      expect(details(elsewhere)).toEqual([expect.objectContaining({ field: "file" })]);
      const asText = await send((form) => form.append("file", text));
      expect(details(asText)).toEqual([expect.objectContaining({ field: "file" })]);
      const nothing = await send(() => {});
      expect(details(nothing)).toEqual([expect.objectContaining({ field: "file" })]);
      await expectNothingStored(fixture);
    });

    it("refuses two files", async () => {
      const fixture = await api.aFixtureToSubmitTo();
      const text = validCsv(fixture);
      const res = await send((form) => {
        form.append("file", new File([text], "a.csv", { type: "text/csv" }));
        form.append("file", new File([text], "b.csv", { type: "text/csv" }));
      });
      expect(details(res)).toEqual([expect.objectContaining({ field: "file" })]);
      await expectNothingStored(fixture);
    });

    it("refuses a body that is not multipart with 415 UNSUPPORTED_MEDIA_TYPE", async () => {
      const fixture = await api.aFixtureToSubmitTo();
      const res = await api.api.post("/api/v1/submissions/uploads", submission(fixture, validEvents(fixture, 3)), {
        token: admin.token,
      });
      expectError(res, 415, "UNSUPPORTED_MEDIA_TYPE");
      await expectNothingStored(fixture);
    });

    it("refuses a file whose name or JSON holds a NUL character or an unpaired surrogate", async () => {
      const fixture = await api.aFixtureToSubmitTo();
      const named = details(await upload(validCsv(fixture), "events\u0000.csv", "text/csv"));
      expect(named).toEqual([expect.objectContaining({ code: "INVALID_FIELD", field: "file" })]);
      const body = submission(fixture, validEvents(fixture, 3));
      const json = JSON.stringify({ ...body, fixtureId: "\ud800" });
      const held = details(await upload(json, "events.json", "application/json"));
      expect(held).toEqual([expect.objectContaining({ code: "INVALID_FIELD", field: "fixtureId" })]);
      await expectNothingStored(fixture);
    });

    it("refuses a .json file that is not JSON", async () => {
      const fixture = await api.aFixtureToSubmitTo();
      const text = validJson(fixture).slice(0, -1);
      const found = details(await upload(text, "events.json", "application/json"));
      expect(found).toEqual([expect.objectContaining({ code: "INVALID_FIELD", field: "file" })]);
      await expectNothingStored(fixture);
    });

    it.each([
      ["a .csv", validCsv, "events.csv", "text/csv"],
      ["a .json", validJson, "events.json", "application/json"],
    ])("refuses %s file that is not UTF-8", async (_, content, filename, type) => {
      const fixture = await api.aFixtureToSubmitTo();
      // Latin-1 "é" (0xE9) followed by ASCII is not a UTF-8 sequence; put it inside a value.
      const text = content(fixture).replace("1.0", "1.0\u00e9");
      const bytes = Buffer.from(text, "latin1");
      expect(() => new TextDecoder("utf-8", { fatal: true }).decode(bytes)).toThrow();
      const found = details(await upload(new Uint8Array(bytes), filename, type));
      expect(found).toEqual([expect.objectContaining({ code: "INVALID_FIELD", field: "file" })]);
      await expectNothingStored(fixture);
    });

    /** A .json submission for `fixture` padded with spaces to exactly `size` bytes. */
    const jsonOfSize = (fixture: FixtureBuilder, size: number) => {
      const text = validJson(fixture);
      return text + " ".repeat(size - byteLength(text));
    };

    it("refuses a file one byte over 1 MB with 413, storing nothing", async () => {
      const fixture = await api.aFixtureToSubmitTo();
      const text = jsonOfSize(fixture, MB + 1);
      expect(byteLength(text)).toBe(1_048_577);
      expectError(await upload(text, "big.json", "application/json"), 413, "PAYLOAD_TOO_LARGE");
      await expectNothingStored(fixture);
    });

    it("refuses a file far over 1 MB with 413", async () => {
      const fixture = await api.aFixtureToSubmitTo();
      expectError(await upload(jsonOfSize(fixture, 3 * MB), "huge.json", "application/json"), 413, "PAYLOAD_TOO_LARGE");
      await expectNothingStored(fixture);
    });

    it("reads a file of exactly 1 MB (here refused for what it holds, not its size)", async () => {
      const fixture = await api.aFixtureToSubmitTo();
      const text = jsonOfSize(fixture, MB).replace('"schemaVersion":"1.0"', '"schemaVersion":"9.9"');
      expect(byteLength(text)).toBe(1_048_576);
      const found = details(await upload(text, "full.json", "application/json"));
      expect(found).toEqual([expect.objectContaining({ field: "schemaVersion" })]);
      await expectNothingStored(fixture);
    });

    it("accepts a valid file of exactly 1 MB", async () => {
      const fixture = await api.aFixtureToSubmitTo();
      const text = jsonOfSize(fixture, MB);
      const res = await upload(text, "full.json", "application/json");
      expect(res.status, res.text).toBe(201);
      const [record] = await acceptances(fixture.id);
      expect(record?.upload).toMatchObject({ byteLength: MB, sha256: hex(text) });
    });
  });

  describe("who may upload", () => {
    it("refuses a request without a bearer token", async () => {
      const fixture = await api.aFixtureToSubmitTo();
      const form = new FormData();
      form.append("file", new File([csvOf(fixture, validEvents(fixture, 3))], "e.csv", { type: "text/csv" }));
      expectUnauthorized(await api.api.post("/api/v1/submissions/uploads", form));
      await expectNothingStored(fixture);
    });

    it("refuses a viewer and a submitter of the fixture's competition", async () => {
      const fixture = await api.aFixtureToSubmitTo();
      const text = csvOf(fixture, validEvents(fixture, 3));
      const viewer = await api.signIn();
      const submitter = await api.aSubmitter(admin, fixture.season.competition.id);
      for (const person of [viewer, submitter]) {
        expectError(await api.upload(text, "e.csv", "text/csv", person.token), 403, "FORBIDDEN");
      }
      await expectNothingStored(fixture);
    });
  });
});
