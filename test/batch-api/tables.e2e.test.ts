import { createHash } from "node:crypto";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BatchValidator } from "../../src/batches/validator.js";
import { expectError, type Person } from "../support/account-api.js";
import { type ApiBatch, aManifest, sendBatch, sendParts } from "../support/batches.js";
import type { ApiResponse } from "../support/contract.js";
import { cricsheetPackage, openWithMatch } from "../support/cricsheet-packages.js";
import { packageCsv, packageRows, packageXlsx, XLSX } from "../support/package-tables.js";
import type { SubmissionApi } from "../support/submissions.js";
import { zipOf } from "../support/zip.js";

/**
 * Packages as CSV and XLSX (docs/batches.md, "CSV and XLSX packages"), over HTTP against the
 * real app and database. A real IPL match (1082591) is imported first, so a table of its
 * deliveries finds every one already published as it is; each table rule breaks in exactly
 * one place and is reported there by row and column; and what cannot be a table is refused
 * at intake, storing nothing.
 */

const MATCH = "ipl/1082591.json";

let api: SubmissionApi;
let submitter: Person;
let validator: BatchValidator;
beforeAll(async () => {
  ({ api, submitter, validator } = await openWithMatch(MATCH));
}, 120_000);
afterAll(() => api?.close());

type Fault = { code: string; path: string; file?: string; sheet?: string; row?: number; column?: string };
type Item = { outcome: string; path: string; file?: string; sheet?: string; row?: number; faults: Fault[] };
type Report = { summary: { status: string; counts: Record<string, number>; faults: Fault[] }; items: Item[] };

const receipt = (res: ApiResponse) => {
  expect(res.status, res.text).toBe(202);
  return (res.body as { data: ApiBatch }).data;
};

async function reportOf(res: ApiResponse): Promise<Report> {
  const batch = receipt(res);
  await validator.drain();
  await api.world.catchUp();
  const download = await api.api.get(`${batch.links.report}/download`, { token: submitter.token });
  expect(download.status, download.text).toBe(200);
  return JSON.parse(download.text) as Report;
}

const matchPackage = (version: "1.0" | "1.1", packageId: string) => {
  const { body } = cricsheetPackage(MATCH, { version });
  return { ...body, packageId } as unknown as Record<string, unknown>;
};

const allPublished = (report: Report) => {
  expect(report.items.length).toBeGreaterThan(200);
  expect(report.items.filter((i) => i.outcome !== "duplicate")).toEqual([]);
  expect(report.summary).toMatchObject({ status: "validated", faults: [] });
};

describe("a real match as a table", () => {
  it.each(["1.0", "1.1"] as const)(
    "in CSV, contract %s, finds every delivery published, each at its row",
    async (version) => {
      const csv = packageCsv(matchPackage(version, `csv-${version}`));
      const res = await sendBatch(api.api, csv, { token: submitter.token, type: "text/csv; charset=utf-8" });
      expect(receipt(res)).toMatchObject({
        contractVersion: version,
        fileCount: 1,
        checksum: createHash("sha256").update(csv).digest("hex"),
      });
      const report = await reportOf(res);
      allPublished(report);
      // Rows are written in the package's order, the header first.
      expect(report.items.map((i) => i.row)).toEqual(report.items.map((_, i) => i + 2));
    },
  );

  it("in XLSX over three sheets, each item at its sheet and row", async () => {
    const xlsx = await packageXlsx(matchPackage("1.1", "xlsx-three"), { sheets: 3 });
    const report = await reportOf(await sendBatch(api.api, xlsx, { token: submitter.token, type: XLSX }));
    allPublished(report);
    expect(new Set(report.items.map((i) => i.sheet))).toEqual(
      new Set(["Deliveries 1", "Deliveries 2", "Deliveries 3"]),
    );
    const first = report.items.filter((i) => i.sheet === "Deliveries 2");
    expect(first[0]?.row).toBe(2);
  });

  it("as a manifest's CSV and XLSX files, one innings each", async () => {
    const pkg = matchPackage("1.1", "manifest-tables");
    const [fixture] = pkg.fixtures as { innings: unknown[] }[];
    const innings = (i: number) => ({ ...pkg, fixtures: [{ ...fixture, innings: [fixture?.innings[i]] }] });
    const parts = [
      { path: "first.csv", content: packageCsv(innings(0)), type: "text/csv" },
      { path: "second.xlsx", content: await packageXlsx(innings(1)), type: XLSX },
    ];
    const { fixtures: _, ...head } = pkg;
    const report = await reportOf(await sendParts(api.api, aManifest(head, parts), parts, { token: submitter.token }));
    allPublished(report);
    expect(new Set(report.items.map((i) => i.file))).toEqual(new Set(["first.csv", "second.xlsx"]));
  });
});

describe("the table's rules, each reported at its row and column", () => {
  /** The match's rows, with `edit` applied to the data rows (0 is the first delivery) and the header. */
  const edited = (edit: (rows: string[][], column: (name: string) => number) => void) => {
    const rows = packageRows(matchPackage("1.0", `rules-${Math.random()}`));
    const header = rows[0] as string[];
    const data = rows.slice(1);
    edit(data, (name) => {
      const at = header.indexOf(name);
      if (at < 0) header.push(name);
      return at < 0 ? header.length - 1 : at;
    });
    return [header, ...data].map((r) => r.map((c) => JSON.stringify(c ?? "")).join(",")).join("\n");
  };
  const judged = async (csv: string) =>
    reportOf(await sendBatch(api.api, csv, { token: submitter.token, type: "text/csv" }));
  const faulty = (report: Report) =>
    report.items
      .filter((i) => i.outcome !== "duplicate")
      .map((i) => ({ row: i.row, outcome: i.outcome, faults: i.faults }));

  it("CSV_WICKET_KIND_MISSING: a dismissed player without the kind of dismissal", async () => {
    const report = await judged(
      edited((rows, column) => {
        const out = rows.findIndex((r) => r[column("wicketKind")] !== "");
        (rows[out] as string[])[column("wicketKind")] = "";
      }),
    );
    const [only, ...others] = faulty(report);
    expect(others).toEqual([]);
    expect(only?.outcome).toBe("rejected");
    expect(only?.faults).toEqual([
      expect.objectContaining({ code: "CSV_WICKET_KIND_MISSING", column: "wicketKind", row: only?.row }),
    ]);
    expect(only?.faults[0]?.path).toMatch(/^fixtures\.0\.innings\.\d\.events\.\d+\.wickets\.0\.kind$/);
  });

  it("CSV_TOO_MANY_FIELDERS and CSV_TOO_MANY_DISMISSALS: columns a row cannot hold", async () => {
    const report = await judged(
      edited((rows, column) => {
        (rows[5] as string[])[column("fielder4")] = "V Kohli";
        column("wicketKind2");
      }),
    );
    expect(report.summary.faults).toEqual([
      expect.objectContaining({ code: "CSV_TOO_MANY_FIELDERS", path: "header", row: 1, column: "fielder4" }),
      expect.objectContaining({ code: "CSV_TOO_MANY_DISMISSALS", path: "header", row: 1, column: "wicketKind2" }),
    ]);
    expect(faulty(report)).toEqual([
      {
        row: 7,
        outcome: "rejected",
        faults: [expect.objectContaining({ code: "CSV_TOO_MANY_FIELDERS", column: "fielder4", row: 7 })],
      },
    ]);
  });

  it("CSV_CONTEXT_MISMATCH: a row of an innings naming another batting team", async () => {
    const report = await judged(
      edited((rows, column) => {
        (rows[10] as string[])[column("battingTeam")] = "Mumbai Indians";
      }),
    );
    // The fixture and innings are found by their first rows; the odd row is the fault.
    expect(faulty(report)).toEqual([
      {
        row: 12,
        outcome: "rejected",
        faults: [expect.objectContaining({ code: "CSV_CONTEXT_MISMATCH", column: "battingTeam", row: 12 })],
      },
    ]);
  });

  it("CSV_UNKNOWN_COLUMN and CSV_DUPLICATE_COLUMN in the header; a cell that is no number at its column", async () => {
    const report = await judged(
      edited((rows, column) => {
        column("umpire");
        (rows[3] as string[])[column("runsOffBat")] = "four";
      }),
    );
    expect(report.summary.faults).toEqual([
      expect.objectContaining({ code: "CSV_UNKNOWN_COLUMN", column: "umpire", row: 1 }),
    ]);
    expect(faulty(report)).toEqual([
      {
        row: 5,
        outcome: "rejected",
        faults: [expect.objectContaining({ code: "INVALID_FIELD", column: "runsOffBat", row: 5 })],
      },
    ]);
    const repeated = await judged(
      edited((rows) => {
        for (const row of rows) row.push("x");
      }).replace(/^([^\n]*)/, (header) => `${header},"eventId"`),
    );
    expect(repeated.summary.faults).toEqual([
      expect.objectContaining({ code: "CSV_DUPLICATE_COLUMN", column: "eventId", row: 1 }),
    ]);
  });

  it("names a column the header misspells, for a head field, at intake", async () => {
    const csv = edited(() => {})
      .replace("contractVersion", "contractversion ")
      .replace(/"1\.0"/g, '"2.0"');
    const res = await sendBatch(api.api, csv, { token: submitter.token, type: "text/csv" });
    expectError(res, 422, "VALIDATION_FAILED");
    expect((res.body as { error: { details: { code: string; field: string }[] } }).error.details).toEqual([
      expect.objectContaining({ code: "UNSUPPORTED_CONTRACT_VERSION", field: "contractVersion" }),
    ]);
  });
});

describe("what intake refuses, storing nothing", () => {
  const batchCount = async () => (await api.db.sql<{ n: number }[]>`select count(*)::int as n from batch`)[0]?.n;
  const refused = async (body: string | Uint8Array, type: string, status: number, code: string) => {
    const before = await batchCount();
    const res = await sendBatch(api.api, body, { token: submitter.token, type });
    expectError(res, status, code);
    await api.world.catchUp();
    expect(await batchCount()).toBe(before);
    return (res.body as { error: { details?: { code: string; message: string }[] } }).error.details ?? [];
  };
  const workbook = async (fill: (book: ExcelJS.Workbook) => void) => {
    const book = new ExcelJS.Workbook();
    fill(book);
    return new Uint8Array(await book.xlsx.writeBuffer());
  };
  const csv = packageCsv(matchPackage("1.0", "refused"));

  it("refuses CSV that is not UTF-8, not CSV, a header alone, or a cell that starts a formula", async () => {
    await refused(new Uint8Array([0x65, 0x76, 0xff, 0xfe, 0x0a]), "text/csv", 422, "VALIDATION_FAILED");
    await refused('contractVersion,packageId\n"1.0,x\n', "text/csv", 422, "VALIDATION_FAILED");
    await refused(csv.split("\n")[0] as string, "text/csv", 422, "VALIDATION_FAILED");
    const formula = await refused(
      csv.replace("Sunrisers Hyderabad", "=HYPERLINK(1)"),
      "text/csv",
      422,
      "VALIDATION_FAILED",
    );
    expect(formula[0]?.code).toBe("FORMULA_NOT_ALLOWED");
  });

  it("refuses garbage sent as XLSX, a formula in a cell, and an error value", async () => {
    await refused(new Uint8Array(Buffer.from("not a workbook at all")), XLSX, 422, "VALIDATION_FAILED");
    const formula = await refused(
      await workbook((book) => {
        const sheet = book.addWorksheet("Deliveries");
        sheet.addRow(["contractVersion", "runsOffBat"]);
        sheet.addRow(["1.0", { formula: "1+3", result: 4 }]);
      }),
      XLSX,
      422,
      "VALIDATION_FAILED",
    );
    expect(formula[0]).toMatchObject({
      code: "FORMULA_NOT_ALLOWED",
      message: expect.stringContaining("Deliveries!B2"),
    });
    const error = await refused(
      await workbook((book) => {
        const sheet = book.addWorksheet("Deliveries");
        sheet.addRow(["contractVersion", "runsOffBat"]);
        sheet.addRow(["1.0", { error: "#DIV/0!" }]);
      }),
      XLSX,
      422,
      "VALIDATION_FAILED",
    );
    expect(error[0]).toMatchObject({
      code: "INVALID_FIELD",
      message: expect.stringContaining("Deliveries!B2 holds the error"),
    });
  });

  it("refuses a zip bomb, an entry that inflates past the size it declares, and a workbook of too many sheets", async () => {
    const zeros = Buffer.alloc(80 * 1024 * 1024);
    const bomb = await refused(
      new Uint8Array(zipOf([{ name: "xl/worksheets/sheet1.xml", data: zeros }])),
      XLSX,
      422,
      "VALIDATION_FAILED",
    );
    expect(bomb[0]?.message).toContain("inflates to over");
    const liar = await refused(
      new Uint8Array(
        zipOf([{ name: "xl/worksheets/sheet1.xml", data: Buffer.alloc(8 * 1024 * 1024), declaredSize: 1000 }]),
      ),
      XLSX,
      422,
      "VALIDATION_FAILED",
    );
    expect(liar[0]?.message).toContain("misstates its sizes");
    const sheets = (n: number) =>
      new Uint8Array(
        zipOf(
          Array.from({ length: n }, (_, i) => ({ name: `xl/worksheets/s${i}.xml`, data: Buffer.from("<worksheet/>") })),
        ),
      );
    const many = await refused(sheets(101), XLSX, 422, "VALIDATION_FAILED");
    expect(many[0]?.message).toContain("over 100 sheets");
    // Ten thousand sheets do not fit in the 1 MB a body may be.
    await refused(sheets(10_000), XLSX, 413, "PAYLOAD_TOO_LARGE");
  });

  it("refuses a manifest's table file that is no table, naming the file", async () => {
    const parts = [
      { path: "a.csv", content: csv, type: "text/csv" },
      { path: "b.xlsx", content: new Uint8Array(Buffer.from("garbage")), type: XLSX },
    ];
    const { fixtures: _, ...head } = matchPackage("1.0", "manifest-refused");
    const before = await batchCount();
    const res = await sendParts(api.api, aManifest(head, parts), parts, { token: submitter.token });
    expectError(res, 422, "VALIDATION_FAILED");
    expect((res.body as { error: { details: { field: string }[] } }).error.details.map((d) => d.field)).toEqual([
      "manifest.files.1.path",
    ]);
    expect(await batchCount()).toBe(before);
  });
});
