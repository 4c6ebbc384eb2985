import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BatchValidator } from "../../src/batches/validator.js";
import { createLogger } from "../../src/http/logging.js";
import { cricsheetIds } from "../../src/ingest/cricsheet/ids.js";
import { batchStream } from "../../streams/batch.js";
import type { Person } from "../support/account-api.js";
import { aPackageOf, packageEventOf } from "../support/batches.js";
import { listening } from "../support/listening.js";
import { stagedBatches } from "../support/staged-batches.js";
import { openSubmissionApi, type SubmissionApi, validEvents } from "../support/submissions.js";

/**
 * A batch's page, by plain HTTP: what its sender and reviewers can change there (mapping
 * its references, replacing its items, deciding on chosen items) goes through the API's
 * commands, so it is refused as the API refuses it and the batch is validated again the same.
 */
let api: SubmissionApi;
let validator: BatchValidator;
let server: Server;
let base: string;
beforeAll(async () => {
  api = await openSubmissionApi();
  validator = new BatchValidator({ sql: api.db.sql, store: api.world.store, logger: createLogger("silent") });
  ({ server, base } = await listening(api.app));
}, 60_000);
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await api?.close();
});

const { aStagedBatch, aBatchOfAnUnknownFixture, validated, statusOf } = stagedBatches(() => ({ api, validator }));
const WHERE = "fixtures.0.innings.0.events";

async function sessionOf(person: Pick<Person, "token">): Promise<string> {
  const res = await post("/account/sign-in", new URLSearchParams({ token: person.token }));
  expect(res.status).toBe(303);
  return (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
}

const post = (target: string, form: URLSearchParams, session = "") =>
  fetch(`${base}${target}`, {
    method: "POST",
    body: form,
    headers: { "Sec-Fetch-Site": "same-origin", ...(session ? { Cookie: session } : {}) },
    redirect: "manual",
  });
const pageOf = async (target: string, session: string) => {
  const res = await fetch(`${base}${target}`, { headers: { Cookie: session } });
  return { status: res.status, html: await res.text() };
};
const textOf = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
/** The batch judged again after a change: what the service's validator does in the background. */
const judgedAgain = async () => {
  await validator.drain();
  await api.world.catchUp();
};
const revisionOf = async (batchReference: string) =>
  (await api.world.store.readStream(batchStream(batchReference))).length;

describe("a staged batch's page", () => {
  it("lists each reference to resolve once, maps it from the page, and the batch is validated again", async () => {
    const { submitter, batch, second, third } = await aStagedBatch();
    const session = await sessionOf(submitter);
    const target = `/account/batches/${batch.batchReference}`;
    const before = textOf((await pageOf(target, session)).html);
    expect(before).toMatch(/References to resolve/);
    expect(before).toMatch(/Shared Name \w+ \(participant\), at 1 place\./);
    expect(before).toMatch(/Nobody Atall \(participant\), at 1 place\./);
    const place = (ordinal: number) => JSON.stringify([null, `${WHERE}.${ordinal}.striker`]);
    expect((await pageOf(target, session)).html).toContain(
      `name="place" value="${place(1).replaceAll('"', "&quot;")}"`,
    );

    // An id naming no one of the batting side is refused in the API's words; nothing is recorded.
    const revision = await revisionOf(batch.batchReference);
    const nobody = await post(
      `${target}/mappings`,
      new URLSearchParams({ place: place(2), referenceType: "participant", otherId: "no-such-person" }),
      session,
    );
    expect(nobody.status).toBe(422);
    expect(textOf(await nobody.text())).toMatch(/mappings\.0\.candidate: /);
    // More places than the API takes mappings a request, or a place that is none, change nothing either.
    const many = new URLSearchParams({ referenceType: "participant", otherId: third.strikerId });
    for (let n = 0; n < 501; n++) many.append("place", JSON.stringify([null, `${WHERE}.${n}.striker`]));
    const tooMany = await post(`${target}/mappings`, many, session);
    expect(tooMany.status).toBe(422);
    expect(textOf(await tooMany.text())).toMatch(/mappings: /);
    for (const odd of ['"ab"', "[1, 2]", "{}", "[null]"]) {
      const res = await post(`${target}/mappings`, new URLSearchParams({ place: odd, candidate: "x" }), session);
      expect(res.status, odd).toBe(422);
    }
    expect(await revisionOf(batch.batchReference)).toBe(revision);

    const candidate = Buffer.from(`participant:${second.strikerId}`).toString("base64url");
    const mapped = await post(`${target}/mappings`, new URLSearchParams({ place: place(1), candidate }), session);
    expect(mapped.status, await mapped.clone().text()).toBe(303);
    expect(mapped.headers.get("location")).toBe(`${target}?done=mapped`);
    // Sent again while the batch is validated again: refused at the form's address, which
    // must not reload itself (it answers no GET) and links the batch's page instead.
    const again = await post(`${target}/mappings`, new URLSearchParams({ place: place(1), candidate }), session);
    expect(again.status).toBe(409);
    const refusal = await again.text();
    expect(refusal).not.toContain('http-equiv="refresh"');
    expect(refusal).toContain(`href="${target}?reload=off"`);
    await judgedAgain();
    const between = textOf((await pageOf(target, session)).html);
    expect(between).not.toMatch(/Shared Name/);
    expect(between).toMatch(/Nobody Atall/);

    const other = await post(
      `${target}/mappings`,
      new URLSearchParams({ place: place(2), referenceType: "participant", otherId: third.strikerId }),
      session,
    );
    expect(other.status).toBe(303);
    await judgedAgain();
    expect(await statusOf(batch.batchReference, submitter)).toMatchObject({
      status: "validated",
      counts: { accepted: 4, unresolved: 0 },
    });
  });

  it("lets its sender replace an item with a delivery typed as JSON, refusing what the API refuses", async () => {
    const { fixture, submitter, batch, third } = await aStagedBatch();
    const session = await sessionOf(submitter);
    const target = `/account/batches/${batch.batchReference}`;
    expect(textOf((await pageOf(target, session)).html)).toMatch(/Replace an item .* Item 2, [^I]+: unresolved/);
    const replace = (ordinal: string, event: string, by = session) =>
      post(`${target}/resubmissions`, new URLSearchParams({ ordinal, event }), by);
    const revision = await revisionOf(batch.batchReference);
    expect((await replace("2", "{not json")).status).toBe(422);
    expect((await replace("2", "[1, 2]")).status).toBe(422);
    expect((await replace("x", "{}")).status).toBe(422);
    // An accepted item can be published as it is.
    const accepted = await replace("0", JSON.stringify(packageEventOf(fixture, third)));
    expect(accepted.status).toBe(409);
    expect(textOf(await accepted.text())).toMatch(
      /Item 0 is accepted: only rejected, conflicting or unresolved items are replaced/,
    );
    // Only its sender replaces its items; an administrator is refused.
    expect(
      (await replace("2", JSON.stringify(packageEventOf(fixture, third)), await sessionOf(api.admin))).status,
    ).toBe(403);
    expect(await revisionOf(batch.batchReference)).toBe(revision);

    const replaced = await replace("2", JSON.stringify(packageEventOf(fixture, third)));
    expect(replaced.status).toBe(303);
    expect(replaced.headers.get("location")).toBe(`${target}?done=replaced`);
    await judgedAgain();
    expect(await statusOf(batch.batchReference, submitter)).toMatchObject({ counts: { accepted: 3, unresolved: 1 } });
  });

  it("lets an administrator make the fixture a 1.1 package proposes, not its sender", async () => {
    const { submitter, match, batch } = await aBatchOfAnUnknownFixture();
    const target = `/account/batches/${batch.batchReference}`;
    const admin = await sessionOf(api.admin);
    const { html } = await pageOf(target, admin);
    expect(html).toContain("Make the fixture from the package&#39;s proposal");
    // The form as rendered: the fixture is one place, however many of its deliveries report it.
    const places = [...html.matchAll(/name="place" value="([^"]*)"/g)].map((m) =>
      (m[1] ?? "").replaceAll("&quot;", '"'),
    );
    expect(places).toEqual([JSON.stringify([null, "fixtures.0"])]);
    expect((await pageOf(target, await sessionOf(submitter))).html).not.toContain("Make the fixture");
    const make = (session: string, place = places[0] as string) =>
      post(`${target}/canonical-fixtures`, new URLSearchParams({ place }), session);
    expect((await make(await sessionOf(submitter))).status).toBe(403);
    expect((await make(admin, JSON.stringify([null, "fixtures.7"]))).status).toBe(422);
    const made = await make(admin);
    expect(made.status, await made.clone().text()).toBe(303);
    expect(made.headers.get("location")).toBe(`${target}?done=made`);
    expect((await api.api.get(`/api/v1/fixtures/${cricsheetIds.fixture(match)}`)).status).toBe(200);
    await judgedAgain();
    expect(await statusOf(batch.batchReference, submitter)).toMatchObject({ status: "validated" });
  });

  it("is another's to see: a stranger's mapping is the page that does not exist", async () => {
    const { batch } = await aStagedBatch();
    const stranger = await sessionOf(await api.signIn({ name: "Stan Stranger" }));
    const res = await post(
      `/account/batches/${batch.batchReference}/mappings`,
      new URLSearchParams({ place: JSON.stringify([null, `${WHERE}.1.striker`]), candidate: "x" }),
      stranger,
    );
    expect(res.status).toBe(404);
  });
});

describe("a validated batch's page, for a reviewer", () => {
  it("decides on the items chosen in its table, then the rest, and publishes the approved", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const submitter = await api.aSubmitter(api.admin, fixture.season.competition.id);
    const batch = await validated(aPackageOf(fixture, validEvents(fixture, 4)), submitter);
    expect(batch.status).toBe("validated");
    const session = await sessionOf(api.admin);
    const target = `/account/batches/${batch.batchReference}`;
    const { html } = await pageOf(target, session);
    expect(html.match(/type="checkbox" name="ordinals"/g)).toHaveLength(4);
    expect(textOf((await pageOf(target, await sessionOf(submitter))).html)).not.toMatch(/Choose item/);

    const review = (fields: [string, string][]) =>
      post(`${target}/review`, new URLSearchParams([["reason", "Checked"], ...fields]), session);
    // What the API would refuse: no decision, no choice of items, every item with some ticked.
    const refusals: [string, string][][] = [
      [["items", "all"]],
      [["decision", "approved"]],
      [
        ["decision", "maybe"],
        ["items", "all"],
      ],
      [
        ["decision", "approved"],
        ["items", "all"],
        ["ordinals", "0"],
      ],
      [
        ["decision", "approved"],
        ["items", "chosen"],
        ["ordinals", "-1"],
      ],
    ];
    for (const fields of refusals) expect((await review(fields)).status, JSON.stringify(fields)).toBe(422);
    expect(await statusOf(batch.batchReference, api.admin)).toMatchObject({ review: { approved: 0, undecided: 4 } });
    const none = await review([
      ["items", "chosen"],
      ["decision", "approved"],
    ]);
    expect(none.status).toBe(422);
    expect(textOf(await none.text())).toMatch(/ordinals: Choose at least one item in the table/);
    const some = await review([
      ["items", "chosen"],
      ["decision", "approved"],
      ["ordinals", "0"],
      ["ordinals", "1"],
    ]);
    expect(some.status).toBe(303);
    expect(await statusOf(batch.batchReference, api.admin)).toMatchObject({ review: { approved: 2, undecided: 2 } });
    // Publication waits for a decision on every accepted item.
    expect((await post(`${target}/publication`, new URLSearchParams(), session)).status).toBe(409);
    const rest = await review([
      ["items", "chosen"],
      ["decision", "rejected"],
      ["ordinals", "2"],
      ["ordinals", "3"],
    ]);
    expect(rest.status).toBe(303);
    expect((await post(`${target}/publication`, new URLSearchParams(), session)).status).toBe(303);
    expect(await statusOf(batch.batchReference, api.admin)).toMatchObject({ status: "partially_published" });
    const events = await api.publicEvents(fixture.id);
    expect(events).toHaveLength(2);
  });
});
