import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Credentials, cricketClient, type Submission } from "../../contract/client.js";
import { contractClient } from "../support/contract.js";
import type { FixtureBuilder } from "../support/cricket-builders.js";
import {
  openSubmissionApi,
  type SubmissionApi,
  type SubmittedEvent,
  submission,
  validEvents,
} from "../support/submissions.js";

/** A direct submission as the generated types describe it. */
const typed = (fixture: FixtureBuilder, events: SubmittedEvent[]): Submission => ({
  fixtureId: fixture.id,
  schemaVersion: "1.0",
  events,
});

/**
 * The client compiled against the types generated from the published document
 * (contract/client.ts) works against the running app: operations of each kind, happy and
 * refused, every answer also checked against the document.
 */
describe("a client typed by the generated contract", () => {
  let api: SubmissionApi;
  let client: (credentials?: Credentials) => ReturnType<typeof cricketClient>;
  beforeAll(async () => {
    api = await openSubmissionApi();
    const checked = contractClient(api.app);
    client = (credentials) => cricketClient("http://local", checked.fetch, credentials);
  }, 60_000);
  afterAll(() => api?.close());

  it("submits deliveries as an administrator, then reads, revalidates and exports them anonymously", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const events = validEvents(fixture, 7);
    const accepted = await client({ bearerToken: api.admin.token }).submit(typed(fixture, events));
    expect(accepted).toMatchObject({ ok: true, value: { fixtureId: fixture.id, status: "accepted", eventCount: 7 } });

    const reader = client();
    const listed = await reader.fixtures({ competitionId: fixture.season.competition.id, limit: 1 });
    expect(listed.ok && listed.value.map((f) => f.fixtureId)).toEqual([fixture.id]);

    const read = await reader.fixture(fixture.id);
    expect(read).toMatchObject({ unchanged: false, fixture: { fixtureId: fixture.id }, etag: expect.any(String) });
    expect(await reader.fixture(fixture.id, read.unchanged ? undefined : read.etag)).toEqual({ unchanged: true });

    const csv = await reader.eventsCsv(fixture.id, fixture.innings[0]?.inningsId);
    const rows = csv.ok ? csv.value.trim().split(/\r\n/) : [];
    expect(rows.slice(1).map((row) => row.split(",")[2])).toEqual(events.map((e) => e.eventId));
  });

  it("uploads a submission file as an administrator", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const content = JSON.stringify(submission(fixture, validEvents(fixture, 3)));
    const uploaded = await client({ bearerToken: api.admin.token }).upload({
      name: "three.json",
      type: "application/json",
      content,
    });
    expect(uploaded).toMatchObject({ ok: true, value: { data: { fixtureId: fixture.id, eventCount: 3 } } });
  });

  it("gives a refusal's status, typed code and every problem", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const [first, second] = validEvents(fixture, 2);
    const invalid = submission(fixture, [first, { ...second, runs: { offBat: -1, extras: 0, total: -1 } }]);
    const refused = await client({ bearerToken: api.admin.token }).submit(invalid as never);
    expect(refused).toMatchObject({ ok: false, status: 422, error: { code: "VALIDATION_FAILED" } });
    const details = refused.ok ? [] : (refused.error.details ?? []);
    expect(details.map((d) => [d.field, d.eventIndex])).toContainEqual(["runs.offBat", 1]);

    const anonymous = await client().submit(typed(fixture, [first as SubmittedEvent]));
    expect(anonymous).toMatchObject({ ok: false, status: 401, error: { code: "UNAUTHORIZED" } });
  });

  it("reads with a consumer's key: the deprecated alias names its successor, and the consumer sees its own usage", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const issued = await client({ bearerToken: api.admin.token }).issueConsumer("Typed XI", { dailyQuota: 500 });
    if (!issued.ok) throw new Error(issued.error.message);
    const keyed = client({ apiKey: issued.value.data.apiKey });

    const aliased = await keyed.fixtureViaAlias(fixture.id);
    expect(aliased.fixture).toMatchObject({ ok: true, value: { data: { fixtureId: fixture.id } } });
    expect(aliased.successor).toBe(`</api/v1/fixtures/${fixture.id}>; rel="successor-version"`);

    const usage = await keyed.ownUsage();
    expect(usage).toMatchObject({
      ok: true,
      value: { data: { consumerId: issued.value.data.consumerId, dailyQuota: 500 } },
    });
    expect(await client({ apiKey: "not-a-key" }).ownUsage()).toMatchObject({
      ok: false,
      status: 401,
      error: { code: "API_KEY_UNAUTHORIZED" },
    });
  });

  it("fetches the document it was typed from", async () => {
    expect(await client().contract()).toMatch(/^openapi: 3\.1\.0$/m);
  });
});
