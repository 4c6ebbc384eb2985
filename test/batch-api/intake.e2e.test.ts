import { createHash, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BATCHES_PER_MINUTE } from "../../src/batch-api/batches.js";
import { batchStream } from "../../streams/batch.js";
import { expectError, expectUnauthorized, type Person } from "../support/account-api.js";
import { type ApiBatch, aManifest, aPackage, type Part, sendBatch, sendParts } from "../support/batches.js";
import type { ApiResponse } from "../support/contract.js";
import type { CompetitionBuilder } from "../support/cricket-builders.js";
import { aWindowWithRoomFor } from "../support/minute-window.js";
import { openSubmissionApi, type SubmissionApi } from "../support/submissions.js";

/**
 * Batch intake (POST /batches) and the batch reads, over HTTP against the real app and
 * database: who may send and see a batch, what intake refuses (storing nothing), the
 * receipt and its durability, and the idempotency key.
 */

let api: SubmissionApi;
let ipl: CompetitionBuilder;
let bbl: CompetitionBuilder;
let submitter: Person;
let other: Person;
beforeAll(async () => {
  api = await openSubmissionApi();
  ipl = await api.aRegisteredCompetition("Indian Premier League");
  bbl = await api.aRegisteredCompetition("Big Bash League");
  submitter = await api.aSubmitter(api.admin, ipl.id);
  other = await api.aSubmitter(api.admin, ipl.id);
}, 60_000);
afterAll(() => api?.close());

const receipt = (res: ApiResponse) => {
  expect(res.status, res.text).toBe(202);
  return (res.body as { data: ApiBatch }).data;
};
const fieldsOf = (res: ApiResponse) =>
  (res.body as { error: { details: { code: string; field: string }[] } }).error.details.map((d) => [d.code, d.field]);
const stored = async (batchReference: string) => api.world.store.readStream(batchStream(batchReference));
const batchCount = async () => (await api.db.sql<{ n: number }[]>`select count(*)::int as n from batch`)[0]?.n;

describe("receiving a package", () => {
  it("stores it before answering 202 with a receipt the status read repeats", async () => {
    const body = JSON.stringify(aPackage(ipl, { packageId: "week-3" }));
    const res = await sendBatch(api.api, body, { token: submitter.token });
    const batch = receipt(res);
    expect(batch).toMatchObject({
      packageId: "week-3",
      contractVersion: "1.1",
      competitionId: ipl.id,
      submittedBy: submitter.id,
      status: "received",
      checksum: createHash("sha256").update(body).digest("hex"),
      fileCount: 1,
      byteCount: Buffer.byteLength(body),
      progress: { itemsDone: 0, itemsTotal: null },
      links: {
        status: `/api/v1/batches/${batch.batchReference}`,
        report: `/api/v1/batches/${batch.batchReference}/report`,
      },
    });
    expect(res.headers.get("location")).toBe(batch.links.status);
    expect(res.headers.get("idempotent-replayed")).toBeNull();

    const events = await stored(batch.batchReference);
    expect(events.map((e) => e.type)).toEqual(["BatchReceived"]);
    const files = events.map((e) => (e.data as { files: { content: string }[] }).files);
    expect(files.flat().map((f) => f.content)).toEqual([body]);

    const read = await api.api.get(batch.links.status, { token: submitter.token });
    expect(read.status, read.text).toBe(200);
    expect((read.body as { data: ApiBatch }).data).toEqual(batch);
  });

  it("answers from the request when the read model trails past the wait, the batch stored all the same", async () => {
    // The submitter's account is already projected: only the batch is left waiting.
    await api.world.runner.stop();
    const body = JSON.stringify(aPackage(ipl, { packageId: "while-projections-stopped" }));
    let batch: ApiBatch;
    try {
      batch = receipt(await sendBatch(api.api, body, { token: submitter.token }));
      expect((await api.db.sql`select 1 from batch where batch_reference = ${batch.batchReference}`).length).toBe(0);
    } finally {
      api.world.runner.start();
    }
    expect(batch).toMatchObject({
      packageId: "while-projections-stopped",
      status: "received",
      competitionId: ipl.id,
      checksum: createHash("sha256").update(body).digest("hex"),
    });
    expect((await stored(batch.batchReference)).map((e) => e.type)).toEqual(["BatchReceived"]);
    await api.world.catchUp();
    const read = await api.api.get(batch.links.status, { token: submitter.token });
    expect((read.body as { data: ApiBatch }).data).toMatchObject({
      batchReference: batch.batchReference,
      checksum: batch.checksum,
      status: "received",
    });
  }, 20_000);

  it("finds the competition by its name, whatever the case and accents, or by a source id it was registered with", async () => {
    for (const competition of [
      { context: { name: "indian premier léague" } },
      { sourceId: `cricsheet:competition:${ipl.id}`, context: { name: "IPL" } },
    ])
      expect(
        receipt(await sendBatch(api.api, aPackage(ipl, { competition }), { token: submitter.token })).competitionId,
      ).toBe(ipl.id);
  });

  it("lets an administrator send a package for any competition", async () => {
    expect(receipt(await sendBatch(api.api, aPackage(bbl), { token: api.admin.token })).competitionId).toBe(bbl.id);
  });
});

describe("the idempotency key", () => {
  it("returns the original receipt for the same content, marked as replayed, and stores it once", async () => {
    const key = randomUUID();
    const body = JSON.stringify(aPackage(ipl));
    const first = receipt(await sendBatch(api.api, body, { token: submitter.token, key }));
    const again = await sendBatch(api.api, body, { token: submitter.token, key });
    expect(receipt(again)).toEqual(first);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await stored(first.batchReference)).toHaveLength(1);
  });

  it("refuses other content under a used key with 409 IDEMPOTENCY_KEY_REUSED, the first batch unchanged", async () => {
    const key = randomUUID();
    const first = receipt(await sendBatch(api.api, aPackage(ipl, { packageId: "a" }), { token: submitter.token, key }));
    expectError(
      await sendBatch(api.api, aPackage(ipl, { packageId: "b" }), { token: submitter.token, key }),
      409,
      "IDEMPOTENCY_KEY_REUSED",
    );
    expect(await stored(first.batchReference)).toHaveLength(1);
    const read = await api.api.get(first.links.status, { token: submitter.token });
    expect((read.body as { data: ApiBatch }).data.packageId).toBe("a");
  });

  it("is the sender's own: another submitter's same key is another batch", async () => {
    const key = randomUUID();
    const body = JSON.stringify(aPackage(ipl));
    const mine = receipt(await sendBatch(api.api, body, { token: submitter.token, key }));
    const theirs = receipt(await sendBatch(api.api, body, { token: other.token, key }));
    expect(theirs.batchReference).not.toBe(mine.batchReference);
    expect(theirs.submittedBy).toBe(other.id);
  });

  it("makes one batch of requests sent at once with one key", async () => {
    const key = randomUUID();
    const body = JSON.stringify(aPackage(ipl));
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => sendBatch(api.api, body, { token: submitter.token, key })),
    );
    const references = new Set(answers.map((res) => receipt(res).batchReference));
    expect(references.size).toBe(1);
    expect(await stored([...references][0] as string)).toHaveLength(1);
    expect(answers.filter((res) => res.headers.get("idempotent-replayed") === null)).toHaveLength(1);
  });

  it.each([
    ["missing", null],
    ["empty", ""],
    ["with a space", "a key"],
    ["past 255 characters", "k".repeat(256)],
  ])("is required: %s is 400 naming the header, and nothing is stored", async (_, key) => {
    const before = await batchCount();
    const res = await sendBatch(api.api, aPackage(ipl), { token: submitter.token, key });
    expectError(res, 400, "VALIDATION_FAILED");
    expect(fieldsOf(res)).toEqual([["INVALID_FIELD", "Idempotency-Key"]]);
    expect(await batchCount()).toBe(before);
  });
});

describe("what intake refuses, storing nothing", () => {
  const refused = async (body: unknown, status: number, code: string, type?: string) => {
    const before = await batchCount();
    const res = await sendBatch(api.api, body, { token: submitter.token, ...(type ? { type } : {}) });
    expectError(res, status, code);
    await api.world.catchUp();
    expect(await batchCount()).toBe(before);
    return res;
  };

  it("refuses a contract version other than 1.0 and 1.1 without reading further", async () => {
    for (const contractVersion of ["2.0", "1", "1.10", ""]) {
      const res = await refused(aPackage(ipl, { contractVersion }), 422, "VALIDATION_FAILED");
      expect(fieldsOf(res)).toEqual([["UNSUPPORTED_CONTRACT_VERSION", "contractVersion"]]);
    }
  });

  it("names every missing or malformed field of the head", async () => {
    const res = await refused({ fixtures: [] }, 422, "VALIDATION_FAILED");
    expect(fieldsOf(res)).toEqual([
      ["INVALID_FIELD", "contractVersion"],
      ["INVALID_FIELD", "packageId"],
      ["INVALID_FIELD", "competition"],
    ]);
    const sourceOnly = await refused(
      aPackage(ipl, { competition: { sourceId: `app:competition:${ipl.id}` } }),
      422,
      "VALIDATION_FAILED",
    );
    expect(fieldsOf(sourceOnly)).toEqual([["INVALID_FIELD", "competition.context"]]);
    expect(fieldsOf(await refused([aPackage(ipl)], 422, "VALIDATION_FAILED"))).toEqual([["INVALID_FIELD", "body"]]);
  });

  it("refuses a competition reference that names none, or several", async () => {
    const unknown = await refused(
      aPackage(ipl, { competition: { context: { name: "Nowhere Cup" } } }),
      422,
      "VALIDATION_FAILED",
    );
    expect(fieldsOf(unknown)).toEqual([["UNRESOLVED_REFERENCE", "competition"]]);
    const twin = await api.aRegisteredCompetition("Twin Trophy");
    await api.aRegisteredCompetition("TWIN TROPHY");
    const ambiguous = await refused(
      aPackage(twin, { competition: { context: { name: "Twin Trophy" } } }),
      422,
      "VALIDATION_FAILED",
    );
    expect(fieldsOf(ambiguous)).toEqual([["AMBIGUOUS_REFERENCE", "competition"]]);
    expect((ambiguous.body as { error: { details: { message: string }[] } }).error.details[0]?.message).toContain(
      `app:competition:${twin.id}`,
    );
  });

  it("refuses a body that is not JSON, or not sent as JSON", async () => {
    await refused("{", 400, "INVALID_JSON");
    await refused(new Uint8Array([0x7b, 0xff, 0xfe, 0x00, 0x7d]), 400, "INVALID_JSON");
    // A head that reads well does not carry fixtures nested past what any package needs.
    const deep = JSON.stringify(aPackage(ipl, { fixtures: [] })).replace("[]", `${"[".repeat(70)}${"]".repeat(70)}`);
    await refused(deep, 400, "INVALID_JSON");
    await refused(JSON.stringify(aPackage(ipl)), 415, "UNSUPPORTED_MEDIA_TYPE", "text/plain");
  });

  it("refuses a package for a competition outside the submitter's scope with 403", async () => {
    await refused(aPackage(bbl), 403, "FORBIDDEN");
  });
});

describe("the per-account limit", () => {
  it(`takes ${BATCHES_PER_MINUTE} packages a minute from an account by default, then 429 with Retry-After, storing nothing; reads are not counted`, async () => {
    const limited = api.anotherInstance({ limits: {} });
    const sender = await api.aSubmitter(api.admin, ipl.id);
    await aWindowWithRoomFor();
    for (let i = 0; i < BATCHES_PER_MINUTE; i++) {
      const res = await sendBatch(limited, aPackage(ipl), { token: sender.token });
      expect(res.status, res.text).toBe(202);
      expect(res.headers.get("ratelimit-remaining")).toBe(String(BATCHES_PER_MINUTE - i - 1));
      expect((await limited.get("/api/v1/batches", { token: sender.token })).status).toBe(200);
    }
    const before = await batchCount();
    const refused = await sendBatch(limited, aPackage(ipl), { token: sender.token });
    expectError(refused, 429, "RATE_LIMIT_EXCEEDED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    await api.world.catchUp();
    expect(await batchCount()).toBe(before);
    // Another account's budget is its own.
    expect((await sendBatch(limited, aPackage(ipl), { token: other.token })).status).toBe(202);
  });
});

describe("who may send and see batches", () => {
  let batch: ApiBatch;
  beforeAll(async () => {
    batch = receipt(await sendBatch(api.api, aPackage(ipl), { token: submitter.token }));
  });

  it("refuses a viewer, a disabled account and a caller without a bearer token", async () => {
    const viewer = await api.signIn();
    expectError(await sendBatch(api.api, aPackage(ipl), { token: viewer.token }), 403, "FORBIDDEN");
    const disabled = await api.aDisabledAccount();
    expectError(await sendBatch(api.api, aPackage(ipl), { token: disabled.token }), 403, "FORBIDDEN");
    expectUnauthorized(await sendBatch(api.api, aPackage(ipl), {}));
    expectUnauthorized(await api.api.get("/api/v1/batches"));
    expectUnauthorized(await api.api.get(batch.links.status));
  });

  it("shows a batch to its sender and administrators; to anyone else it is the same 403 as an unknown one", async () => {
    expect((await api.api.get(batch.links.status, { token: api.admin.token })).status).toBe(200);
    const theirs = await api.api.get(batch.links.status, { token: other.token });
    const unknown = await api.api.get(`/api/v1/batches/${randomUUID()}`, { token: other.token });
    const notAReference = await api.api.get("/api/v1/batches/not-a-reference", { token: other.token });
    for (const res of [theirs, unknown, notAReference]) expectError(res, 403, "FORBIDDEN");
    expect(theirs.body).toEqual(unknown.body);
  });

  it("lists the caller's own batches newest first, an administrator's every batch, a page at a time", async () => {
    const sender = await api.aSubmitter(api.admin, ipl.id);
    const sent: ApiBatch[] = [];
    for (let i = 0; i < 3; i++) sent.push(receipt(await sendBatch(api.api, aPackage(ipl), { token: sender.token })));
    const first = await api.api.get("/api/v1/batches?limit=2", { token: sender.token });
    expect(first.status, first.text).toBe(200);
    const page = first.body as { data: ApiBatch[]; pagination: { nextCursor: string | null } };
    const cursor = page.pagination.nextCursor as string;
    const second = (await api.api.get(`/api/v1/batches?limit=2&cursor=${cursor}`, { token: sender.token })).body as {
      data: ApiBatch[];
      pagination: { nextCursor: string | null };
    };
    expect([...page.data, ...second.data].map((b) => b.batchReference)).toEqual(
      sent.map((b) => b.batchReference).reverse(),
    );
    expect(second.pagination.nextCursor).toBeNull();

    const all = (await api.api.get("/api/v1/batches?limit=100&status=received", { token: api.admin.token })).body as {
      data: ApiBatch[];
    };
    expect(all.data.map((b) => b.submittedBy)).toEqual(expect.arrayContaining([sender.id, submitter.id, other.id]));
    // A cursor carries its filters and its reader: another's is refused.
    expectError(
      await api.api.get(`/api/v1/batches?limit=2&cursor=${cursor}`, { token: other.token }),
      400,
      "VALIDATION_FAILED",
    );
    expectError(
      await api.api.get("/api/v1/batches?status=approved", { token: sender.token }),
      400,
      "VALIDATION_FAILED",
    );
    expectError(await api.api.get("/api/v1/batches?owner=me", { token: sender.token }), 400, "VALIDATION_FAILED");
  });
});

describe("a package of several files", () => {
  const head = () => {
    const { fixtures: _, ...rest } = aPackage(ipl);
    return rest;
  };
  const parts = (): Part[] => [
    { path: "week-1/a.json", content: JSON.stringify({ fixtures: [] }) },
    { path: "week-1/b.json", content: JSON.stringify({ fixtures: [] }) },
  ];
  const refusedParts = async (manifest: unknown, sent: Part[], status = 422) => {
    const before = await batchCount();
    const res = await sendParts(api.api, manifest, sent, { token: submitter.token });
    expect(res.status, res.text).toBe(status);
    await api.world.catchUp();
    expect(await batchCount()).toBe(before);
    return status === 422 ? fieldsOf(res) : [];
  };

  it("is received with its manifest and every file stored as sent, under the manifest's checksum", async () => {
    const sent = parts();
    const manifest = JSON.stringify(aManifest(head(), sent));
    const res = await sendParts(api.api, manifest, sent, { token: submitter.token });
    const batch = receipt(res);
    expect(batch).toMatchObject({
      fileCount: 3,
      checksum: createHash("sha256").update(manifest).digest("hex"),
      status: "received",
    });
    const files = (await stored(batch.batchReference)).flatMap(
      (e) => (e.data as { files: { name: string; content: string }[] }).files,
    );
    expect(files.map((f) => [f.name, f.content])).toEqual([
      ["manifest.json", manifest],
      ...sent.map((p) => [p.path, p.content]),
    ]);
  });

  it("refuses a manifest that breaks its rules, naming each problem, and stores nothing", async () => {
    const sent = parts();
    expect(await refusedParts(aManifest(head(), sent.slice(0, 1)), sent.slice(0, 1))).toEqual([
      ["INVALID_FIELD", "manifest.files"],
    ]);
    const paths = ["/abs.json", "../up.json", "a//b.json", "C:\\x.json", "./x.json"];
    const badPaths = paths.map((path) => ({ path, content: "{}" }));
    expect(await refusedParts(aManifest(head(), badPaths), badPaths)).toEqual(
      paths.map((_, i) => ["INVALID_FIELD", `manifest.files.${i}.path`]),
    );
    expect(
      await refusedParts(
        aManifest(head(), sent, (e, i) => (i === 1 ? { ...e, path: "week-1/a.json" } : e)),
        sent,
      ),
    ).toEqual(
      expect.arrayContaining([
        ["DUPLICATE_FILE_PATH", "manifest.files.1.path"],
        ["UNEXPECTED_FILE", "files"],
      ]),
    );
    expect(
      await refusedParts(
        aManifest(head(), sent, (e, i) => (i === 0 ? { ...e, mediaType: "text/html" } : e)),
        sent,
      ),
    ).toEqual([["UNSUPPORTED_FILE_TYPE", "manifest.files.0.mediaType"]]);
    expect(
      await refusedParts(
        aManifest(head(), sent, (e, i) => (i === 1 ? { ...e, sha256: "0".repeat(64) } : e)),
        sent,
      ),
    ).toEqual([["CHECKSUM_MISMATCH", "manifest.files.1.sha256"]]);
    expect(await refusedParts(aManifest(head(), sent), sent.slice(0, 1))).toEqual([
      ["FILE_MISSING", "manifest.files.1.path"],
    ]);
    const garbage = [sent[0] as Part, { path: "week-1/b.json", content: new Uint8Array([0xff, 0xfe, 0x00, 0x41]) }];
    expect(await refusedParts(aManifest(head(), garbage), garbage)).toEqual([
      ["INVALID_FIELD", "manifest.files.1.path"],
    ]);
    const deep = [sent[0] as Part, { path: "week-1/b.json", content: `${"[".repeat(100)}${"]".repeat(100)}` }];
    expect(await refusedParts(aManifest(head(), deep), deep)).toEqual([["INVALID_FIELD", "manifest.files.1.path"]]);
    expect(await refusedParts(aManifest({ ...head(), contractVersion: "2.0" }, sent), sent)).toEqual([
      ["UNSUPPORTED_CONTRACT_VERSION", "contractVersion"],
    ]);
    expect(await refusedParts("{not json", sent)).toEqual([["INVALID_FIELD", "manifest"]]);
    // Escaped in JSON, text PostgreSQL cannot hold: each was stored (or failed) before it was checked.
    expect(await refusedParts(aManifest({ ...head(), packageId: "week\u0000" }, sent), sent)).toEqual([
      ["INVALID_FIELD", "manifest.packageId"],
    ]);
    const surrogate = [
      sent[0] as Part,
      { path: "week-1/b.json", content: '{"fixtures": [{"context": {"name": "\\ud800"}}]}' },
    ];
    expect(await refusedParts(aManifest(head(), surrogate), surrogate)).toEqual([
      ["INVALID_FIELD", "manifest.files.1.path"],
    ]);
    const notPackage = [sent[0] as Part, { path: "week-1/b.json", content: '{"fixture": []}' }];
    expect(await refusedParts(aManifest(head(), notPackage), notPackage)).toEqual([
      ["INVALID_FIELD", "manifest.files.1.path"],
    ]);
  });

  it("refuses a form without its manifest, with a field that is no file, or with fields it does not read", async () => {
    const sent = parts();
    const manifest = JSON.stringify(aManifest(head(), sent));
    const formOf = (build: (form: FormData) => void) => {
      const form = new FormData();
      build(form);
      return form;
    };
    const attach = (form: FormData) => {
      for (const p of sent) form.append("files", new File([p.content], p.path, { type: "application/json" }));
    };
    for (const [form, field] of [
      [formOf(attach), "manifest"],
      [
        formOf((f) => {
          f.append("manifest", manifest);
          f.append("files", "not a file");
        }),
        "files",
      ],
      [
        formOf((f) => {
          f.append("manifest", manifest);
          attach(f);
          f.append("comment", "hello");
        }),
        "comment",
      ],
    ] as const) {
      const before = await batchCount();
      const res = await api.api.post("/api/v1/batches", form, {
        token: submitter.token,
        headers: { "idempotency-key": randomUUID() },
      });
      expectError(res, 422, "VALIDATION_FAILED");
      expect(fieldsOf(res)).toEqual([["INVALID_FIELD", field]]);
      expect(await batchCount()).toBe(before);
    }
  });

  it("refuses a file over 1 MB with 413", async () => {
    const big = [
      parts()[0] as Part,
      { path: "big.json", content: JSON.stringify({ fixtures: [], pad: "x".repeat(1024 * 1024) }) },
    ];
    await refusedParts(aManifest(head(), big), big, 413);
  });
});
