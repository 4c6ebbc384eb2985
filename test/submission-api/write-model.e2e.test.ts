import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureStream } from "../../streams/fixture.js";
import {
  CONFLICT,
  details,
  openSubmissionApi,
  type SubmissionApi,
  type SubmittedEvent,
  submission,
  validEvents,
} from "../support/submissions.js";

/**
 * What a new user found on the write side before it was one model, as it must go now:
 * every problem in one answer, conflicts included; an innings that stays in order across
 * submissions and within its format's overs; a state read from the history sent back as is.
 */

let api: SubmissionApi;
beforeAll(async () => {
  api = await openSubmissionApi();
});
afterAll(() => api.close());

const located = (found: { code: string; field: string; eventIndex?: number }[]) =>
  found.map(({ code, field, eventIndex }) => ({ code, field, eventIndex }));
const streamLength = async (fixtureId: string) => (await api.world.store.readStream(fixtureStream(fixtureId))).length;

describe("one pass, conflicts included", () => {
  it("names both a held ball and a stranger bowling in one 422, and stores nothing", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const accepted = validEvents(fixture, 6);
    expect((await api.submit(submission(fixture, accepted))).status).toBe(201);
    const [a, b] = validEvents(fixture, 2, { from: 7 }) as [SubmittedEvent, SubmittedEvent];
    // A: a new id at the sequence number and ball of an accepted delivery; B: a bowler from the batting side.
    const heldPlace = { ...a, sequenceNumber: 1, overNumber: 0, positionInOver: 0, ballNumber: "0.1" };
    const stranger = { ...b, bowlerId: fixture.innings[0]?.batting.players[4]?.id as string };
    const before = await streamLength(fixture.id);

    const found = details(await api.submit(submission(fixture, [heldPlace, stranger])));
    expect(located(found)).toEqual([
      { code: "EVENT_CONFLICT", field: "sequenceNumber", eventIndex: 0 },
      { code: "EVENT_CONFLICT", field: "positionInOver", eventIndex: 0 },
      { code: "INVALID_PARTICIPANT", field: "bowlerId", eventIndex: 1 },
    ]);
    // A alone: conflicts are all it has, so 409 with the same details.
    const alone = details(await api.submit(submission(fixture, [heldPlace])), CONFLICT);
    expect(located(alone)).toEqual(located(found).slice(0, 2));
    expect(await streamLength(fixture.id)).toBe(before);
  });
});

describe("an innings in order, within its format", () => {
  it("refuses a later submission whose sequence and ball orders cross the accepted ones", async () => {
    const fixture = await api.aFixtureToSubmitTo({ matchType: "Test" });
    const [first] = validEvents(fixture, 1);
    const late = { ...first, sequenceNumber: 1001, overNumber: 50, positionInOver: 0, ballNumber: "50.1" };
    expect((await api.submit(submission(fixture, [late]))).status).toBe(201);
    const [other] = validEvents(fixture, 1, { from: 2 });
    // Sequence 500 comes before 1001, so its ball must come before over 50's.
    const crossing = { ...other, sequenceNumber: 500, overNumber: 70, positionInOver: 0, ballNumber: "70.1" };
    const found = details(await api.submit(submission(fixture, [crossing])), CONFLICT);
    expect(located(found)).toEqual([{ code: "EVENT_CONFLICT", field: "overNumber", eventIndex: 0 }]);
    expect(found[0]?.message).toContain(late.eventId);
    // Filling the gap in order is fine.
    const filling = { ...other, sequenceNumber: 500, overNumber: 30, positionInOver: 0, ballNumber: "30.1" };
    expect((await api.submit(submission(fixture, [filling]))).status).toBe(201);
    expect((await api.publicEvents(fixture.id)).map((e) => e.sequenceNumber)).toEqual([500, 1001]);
  });

  it("refuses overs beyond a T20's twenty, naming the limit", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const [first] = validEvents(fixture, 1);
    const overs = [50, 91].map((overNumber, i) => ({
      ...first,
      eventId: randomUUID(),
      sequenceNumber: 300 + i,
      overNumber,
      positionInOver: 0,
      ballNumber: `${overNumber}.1`,
    }));
    const found = details(await api.submit(submission(fixture, overs)));
    expect(located(found)).toEqual([
      { code: "INVALID_FIELD", field: "overNumber", eventIndex: 0 },
      { code: "INVALID_FIELD", field: "overNumber", eventIndex: 1 },
    ]);
    expect(found[0]?.message).toBe("An innings of this T20 has 20 overs: overNumber runs from 0 to 19");
    expect(await api.publicEvents(fixture.id)).toEqual([]);
  });
});

describe("the history round trip", () => {
  it("takes back a state read from the history with only the intended change; a missing field says Required", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const events = validEvents(fixture, 4);
    expect((await api.submit(submission(fixture, events))).status).toBe(201);
    const target = events[1] as SubmittedEvent;
    const path = `/api/v1/submissions/events/${target.eventId}`;
    const history = await api.api.get(`${path}/history`, { token: api.admin.token });
    expect(history.status, history.text).toBe(200);
    const { state } = (history.body as { data: { recorded: { state: Record<string, unknown> } } }).data.recorded;
    expect(state).toMatchObject({ eventId: target.eventId, sequenceNumber: target.sequenceNumber });

    const body = { fixtureId: fixture.id, schemaVersion: "1.0", reason: "a six, not a one" };
    const sixer = { ...state, runs: { offBat: 6, extras: 0, total: 6 } };
    const res = await api.api.put(path, { ...body, event: sixer }, { token: api.admin.token });
    expect(res.status, res.text).toBe(200);
    expect((res.body as { data: { revision: number } }).data.revision).toBe(2);
    const again = await api.api.get(`${path}/history`, { token: api.admin.token });
    const { corrections } = (again.body as { data: { corrections: { resultingState: unknown }[] } }).data;
    expect(corrections.at(-1)?.resultingState).toEqual(sixer);

    const { schemaVersion: _v, ...unversioned } = body;
    const missing = details(await api.api.put(path, { ...unversioned, event: sixer }, { token: api.admin.token }));
    expect(missing.map(({ field, message }) => ({ field, message }))).toEqual([
      { field: "schemaVersion", message: "Required" },
    ]);
  });
});
