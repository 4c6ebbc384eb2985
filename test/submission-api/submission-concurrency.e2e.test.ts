import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { fixtureStream } from "../../streams/fixture.js";
import { bearerClient, type Person } from "../support/account-api.js";
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
 * Racing writers over HTTP: many submissions and corrections of one fixture (or of the same
 * deliveries in two fixtures) sent at once. Whatever the interleaving, a delivery is
 * recorded once, a position or sequence has one holder, revisions are consecutive, nothing
 * accepted is lost and nobody gets a 500.
 */

let api: SubmissionApi;
beforeAll(async () => {
  api = await openSubmissionApi();
}, 60_000);
afterAll(() => api?.close());

type ErrorBody = { error: { code: string; details?: { code: string; field: string; eventIndex?: number }[] } };
type CorrectionResult = {
  revision: number;
  previousRevision: number;
  changed: boolean;
  refreshedScopes: { scope: string; path: string }[];
};
type HistoryEntry = {
  revision: number;
  previousRevision: number;
  previousState: Record<string, unknown>;
  resultingState: Record<string, unknown>;
  refreshedScopes: unknown[];
};

const errorOf = (res: ApiResponse) => (res.body as ErrorBody).error;
const statuses = (responses: ApiResponse[]) => responses.map((r) => r.status).sort();

const correct = (fixture: FixtureBuilder, { eventId, sequenceNumber: _s, ...event }: SubmittedEvent, changes: object) =>
  api.api.put(
    `/api/v1/submissions/events/${eventId}`,
    { fixtureId: fixture.id, schemaVersion: "1.0", reason: "racing correction", event: { ...event, ...changes } },
    { token: api.admin.token },
  );

async function historyOf(eventId: string) {
  const res = await api.api.get(`/api/v1/submissions/events/${eventId}/history`, { token: api.admin.token });
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: { currentRevision: number; corrections: HistoryEntry[] } }).data;
}

const streamOf = (fixtureId: string) => api.world.store.readStream(fixtureStream(fixtureId));
const recordedIn = async (fixtureId: string) =>
  (await streamOf(fixtureId))
    .filter((e) => e.type === "DeliveryRecorded")
    .map((e) => e.data as { eventId: string; inningsId: string; sequenceNumber: number });

/** Every refusal of a racing duplicate submission: 409 at storage or 422 when the check already saw it. */
function expectDuplicateRefusal(res: ApiResponse, count: number) {
  expect([409, 422], res.text).toContain(res.status);
  const error = errorOf(res);
  expect(error.code).toBe(res.status === 409 ? "DUPLICATE_EVENT_ID" : "VALIDATION_FAILED");
  expect(error.details?.map((d) => [d.code, d.field, d.eventIndex])).toEqual(
    Array.from({ length: count }, (_, i) => ["DUPLICATE_EVENT_ID", "eventId", i]),
  );
}

/** A fresh admin: the submission rate limit counts per account, and these tests send many. */
const aFreshAdmin = (): Promise<Person> => api.anAdmin();

describe("racing submissions", () => {
  it("records the same events sent 20 times at once to one fixture exactly once", async () => {
    const { token } = await aFreshAdmin();
    const fixture = await api.aFixtureToSubmitTo();
    const events = validEvents(fixture, 6);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => api.submit(submission(fixture, events), token)),
    );
    expect(statuses(responses).filter((s) => s === 201)).toHaveLength(1);
    for (const res of responses.filter((r) => r.status !== 201)) expectDuplicateRefusal(res, events.length);
    // Sent once it is stored, the check itself sees the duplicates: conflicts alone, so 409.
    const late = await api.submit(submission(fixture, events), token);
    expect(late.status, late.text).toBe(409);
    expectDuplicateRefusal(late, events.length);

    expect((await api.publicEvents(fixture.id)).map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));
    const stream = await streamOf(fixture.id);
    expect(stream.filter((e) => e.type === "SubmissionAccepted")).toHaveLength(1);
    expect((await recordedIn(fixture.id)).map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));
  });

  it("records events sent at once to two fixtures in only one of them", async () => {
    const { token } = await aFreshAdmin();
    const [one, other] = [await api.aFixtureToSubmitTo(), await api.aFixtureToSubmitTo()];
    const events = validEvents(one, 5);
    // The same event ids, valid in the other fixture too (its own innings and players).
    const elsewhere = validEvents(other, 5).map((e, i) => ({ ...e, eventId: events[i]?.eventId as string }));
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 2 === 0 ? api.submit(submission(one, events), token) : api.submit(submission(other, elsewhere), token),
      ),
    );
    expect(statuses(responses).filter((s) => s === 201)).toHaveLength(1);
    for (const res of responses.filter((r) => r.status !== 201)) expectDuplicateRefusal(res, events.length);

    const ids = events.map((e) => e.eventId);
    const accepted = responses.find((r) => r.status === 201) as ApiResponse;
    const winner = (accepted.body as { data: { fixtureId: string } }).data.fixtureId;
    const loser = winner === one.id ? other.id : one.id;
    const late = await api.submit(
      submission(loser === one.id ? one : other, loser === one.id ? events : elsewhere),
      token,
    );
    expect(late.status, late.text).toBe(409);
    expectDuplicateRefusal(late, events.length);
    const rows = await api.db.sql<{ event_id: string; fixture_id: string }[]>`
      select event_id::text, fixture_id from delivery where event_id = any(${ids}::uuid[]) order by sequence_number`;
    expect(rows).toEqual(ids.map((id) => ({ event_id: id, fixture_id: winner })));
    // The log itself: each delivery recorded by one event, in the winner's stream only.
    const logged = await api.db.sql<{ stream_id: string; n: number }[]>`
      select stream_id, count(*)::int as n from events
      where event_type = 'DeliveryRecorded' and data ->> 'eventId' = any(${ids})
      group by stream_id`;
    expect(logged).toEqual([{ stream_id: fixtureStream(winner), n: ids.length }]);
    expect(
      (await streamOf(loser)).filter((e) => e.type === "SubmissionAccepted" || e.type === "DeliveryRecorded"),
    ).toEqual([]);
    expect(await api.publicEvents(loser)).toEqual([]);
  });

  it("lets one of several submissions claiming the same sequence numbers and positions in, the rest 409 EVENT_CONFLICT", async () => {
    const { token } = await aFreshAdmin();
    const fixture = await api.aFixtureToSubmitTo();
    const attempts = Array.from({ length: 10 }, () => validEvents(fixture, 4)); // different ids, same places
    const responses = await Promise.all(attempts.map((events) => api.submit(submission(fixture, events), token)));
    expect(statuses(responses).filter((s) => s === 201)).toHaveLength(1);
    for (const res of responses.filter((r) => r.status !== 201)) {
      expect(res.status, res.text).toBe(409);
      const error = errorOf(res);
      expect(error.code).toBe("EVENT_CONFLICT");
      expect(error.details?.map((d) => [d.code, d.field, d.eventIndex])).toEqual(
        [0, 1, 2, 3].flatMap((i) => [
          ["EVENT_CONFLICT", "sequenceNumber", i],
          ["EVENT_CONFLICT", "positionInOver", i],
        ]),
      );
    }

    const accepted = attempts[responses.findIndex((r) => r.status === 201)] as SubmittedEvent[];
    const recorded = await recordedIn(fixture.id);
    expect(recorded.map((e) => [e.eventId, e.sequenceNumber])).toEqual(
      accepted.map((e) => [e.eventId, e.sequenceNumber]),
    );
    const seen = await api.publicEvents(fixture.id);
    expect(seen.map((e) => e.eventId)).toEqual(accepted.map((e) => e.eventId));
    expect(new Set(seen.map((e) => `${e.inningsId}/${e.sequenceNumber}`)).size).toBe(seen.length);
  });
});

describe("racing corrections", () => {
  it("numbers 25 corrections of one delivery sent at once 2 to 26, without gap or repeat", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const events = validEvents(fixture, 3);
    expect((await api.submit(submission(fixture, events))).status).toBe(201);
    const target = events[1] as SubmittedEvent;
    const responses = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        correct(fixture, target, { runs: { offBat: 10 + i, extras: 0, total: 10 + i } }),
      ),
    );
    for (const res of responses) expect(res.status, res.text).toBe(200);
    const results = responses.map((r) => (r.body as { data: CorrectionResult }).data);
    expect(results.map((r) => r.revision).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 2));
    for (const r of results) expect([r.changed, r.previousRevision]).toEqual([true, r.revision - 1]);

    const history = await historyOf(target.eventId);
    expect(history.currentRevision).toBe(26);
    expect(history.corrections.map((c) => [c.previousRevision, c.revision])).toEqual(
      Array.from({ length: 25 }, (_, i) => [i + 1, i + 2]),
    );
    // Each revision replaced the one before it, and each request's runs became exactly one revision.
    history.corrections.slice(1).forEach((c, i) => {
      expect(c.previousState).toEqual(history.corrections[i]?.resultingState);
    });
    const runsByRevision = new Map(
      history.corrections.map((c) => [c.revision, (c.resultingState.runs as { total: number }).total]),
    );
    results.forEach((r, i) => {
      expect(runsByRevision.get(r.revision)).toBe(10 + i);
    });

    const live = (await api.publicEvents(fixture.id)).find((e) => e.eventId === target.eventId);
    const last = history.corrections.at(-1)?.resultingState;
    expect(live).toMatchObject({ revision: 26, ...last });
  });

  it("answers each racing correction with the revision it replaced and the scopes of that change", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const events = validEvents(fixture, 2);
    expect((await api.submit(submission(fixture, events))).status).toBe(201);
    const target = events[0] as SubmittedEvent;
    // Each request names another bowler, so the scopes of a change depend on the revision it replaced.
    const fielders = fixture.innings[0]?.bowling.players.map((p) => p.id) as string[];
    const bowlers = fielders.filter((id) => id !== target.bowlerId);
    const responses = await Promise.all(bowlers.map((bowlerId) => correct(fixture, target, { bowlerId })));
    for (const res of responses) expect(res.status, res.text).toBe(200);
    const results = responses.map((r) => (r.body as { data: CorrectionResult }).data);

    const history = await historyOf(target.eventId);
    expect(history.currentRevision).toBe(bowlers.length + 1);
    const entries = new Map(history.corrections.map((c) => [c.revision, c]));
    for (const result of results) {
      const entry = entries.get(result.revision) as HistoryEntry;
      expect(result.previousRevision).toBe(entry.previousRevision);
      expect(result.refreshedScopes).toEqual(entry.refreshedScopes);
    }
  });

  it("answers identical corrections sent at once: one appends revision 2, the others change nothing and say so", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const events = validEvents(fixture, 2);
    expect((await api.submit(submission(fixture, events))).status).toBe(201);
    const target = events[1] as SubmittedEvent;
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => correct(fixture, target, { runs: { offBat: 3, extras: 0, total: 3 } })),
    );
    for (const res of responses) expect(res.status, res.text).toBe(200);
    const results = responses.map((r) => (r.body as { data: CorrectionResult }).data);
    expect(results.filter((r) => r.changed).map((r) => [r.revision, r.previousRevision])).toEqual([[2, 1]]);
    // The live revision is 2 for everyone who got an answer after it was stored.
    for (const r of results.filter((x) => !x.changed)) expect([r.revision, r.previousRevision]).toEqual([2, 2]);
    expect((await historyOf(target.eventId)).corrections).toHaveLength(1);
  });

  it("loses nothing when corrections of different deliveries and new submissions to the fixture race", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const first = validEvents(fixture, 12);
    expect((await api.submit(submission(fixture, first))).status).toBe(201);
    const later = [0, 1, 2, 3, 4].map((k) => validEvents(fixture, 3, { ordinal: 1, from: 1 + 3 * k }));
    const legBye = { runs: { offBat: 0, extras: 1, total: 1 }, extras: { legByes: 1 }, wickets: [] };
    const [corrections, submissions] = await Promise.all([
      Promise.all(first.map((event) => correct(fixture, event, legBye))),
      Promise.all(later.map((events) => api.submit(submission(fixture, events)))),
    ]);
    for (const res of corrections) expect(res.status, res.text).toBe(200);
    for (const res of corrections) expect((res.body as { data: CorrectionResult }).data.revision).toBe(2);
    for (const res of submissions) expect(res.status, res.text).toBe(201);

    const seen = await api.publicEvents(fixture.id);
    expect(seen.map((e) => e.eventId)).toEqual([...first, ...later.flat()].map((e) => e.eventId));
    for (const e of seen.slice(0, first.length)) expect(e).toMatchObject({ revision: 2, ...legBye });
    for (const e of seen.slice(first.length)) expect(e.revision).toBe(1);
    const stream = await streamOf(fixture.id);
    expect(stream.filter((e) => e.type === "DeliveryCorrected")).toHaveLength(first.length);
    expect(stream.filter((e) => e.type === "SubmissionAccepted")).toHaveLength(1 + later.length);
    expect(stream.map((e) => e.revision)).toEqual(stream.map((_, i) => i));
  });
});

/**
 * Another server on the same database: the app built from a module graph of its own, so its
 * per-fixture queue, event store and error classes are its own, as in a second process. Only
 * the store's expected-revision check then stands between the two instances' writes.
 */
async function aSecondServer() {
  vi.resetModules();
  const [{ createApp }, { apiRoutes }, { createLogger }, { openEventStore }] = await Promise.all([
    import("../../src/http/app.js"),
    import("../../src/http/routes.js"),
    import("../../src/http/logging.js"),
    import("../../src/event-store/open.js"),
  ]);
  const app = createApp(
    {
      logger: createLogger("silent"),
      ...api.deps({ store: openEventStore({ eventStoreUrl: undefined }, api.db.sql) }),
    },
    apiRoutes,
  );
  return bearerClient(app);
}

describe("two servers writing to one database", () => {
  it("numbers the corrections of one delivery it stores from both without gap or repeat, and lets one of two same-place submissions in", async () => {
    const second = await aSecondServer();
    const fixture = await api.aFixtureToSubmitTo();
    const events = validEvents(fixture, 3);
    expect((await api.submit(submission(fixture, events))).status).toBe(201);
    const target = events[2] as SubmittedEvent;
    const { eventId, sequenceNumber: _s, ...event } = target;
    const body = (i: number) => ({
      fixtureId: fixture.id,
      schemaVersion: "1.0",
      reason: `from server ${i % 2}`,
      // Never the delivery's own runs (at most 6), so every correction changes it.
      event: { ...event, runs: { offBat: 10 + i, extras: 0, total: 10 + i } },
    });
    const responses = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        (i % 2 === 0 ? api.api : second).put(`/api/v1/submissions/events/${eventId}`, body(i + 1), {
          token: api.admin.token,
        }),
      ),
    );
    // Across servers only the store's revision check orders writers: one that lost the race
    // on every attempt is told to retry (409), having stored nothing.
    const stored = responses.filter((r) => r.status === 200);
    for (const res of responses.filter((r) => r.status !== 200)) {
      expect(res.status, res.text).toBe(409);
      expect(errorOf(res).details?.map((d) => [d.code, d.field])).toEqual([["EVENT_CONFLICT", "fixtureId"]]);
    }
    expect(stored.length).toBeGreaterThanOrEqual(12);
    const revisions = stored.map((r) => (r.body as { data: CorrectionResult }).data.revision);
    expect(revisions.sort((a, b) => a - b)).toEqual(Array.from({ length: stored.length }, (_, i) => i + 2));
    const history = await historyOf(eventId);
    expect(history.corrections.map((c) => [c.previousRevision, c.revision])).toEqual(
      Array.from({ length: stored.length }, (_, i) => [i + 1, i + 2]),
    );

    const { token } = await aFreshAdmin();
    const later = [validEvents(fixture, 2, { ordinal: 1 }), validEvents(fixture, 2, { ordinal: 1 })];
    const [here, there] = await Promise.all([
      api.submit(submission(fixture, later[0] as SubmittedEvent[]), token),
      second.post("/api/v1/submissions", submission(fixture, later[1] as SubmittedEvent[]), { token }),
    ]);
    expect(statuses([here, there])).toEqual([201, 409]);
    expect(errorOf(here.status === 409 ? here : there).code).toBe("EVENT_CONFLICT");
    const stream = await streamOf(fixture.id);
    expect(stream.map((e) => e.revision)).toEqual(stream.map((_, i) => i));
    expect(stream.filter((e) => e.type === "SubmissionAccepted")).toHaveLength(2);
  });
});
