import { stringify } from "csv-stringify/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Admission, admit } from "../../src/limits/fixed-window.js";
import { redisWindowCounter } from "../../src/limits/redis.js";
import type { WindowCounter } from "../../src/limits/window-counter.js";
import { SUBMISSION_LIMIT } from "../../src/submission-api/submissions.js";
import { CSV_COLUMNS } from "../../src/submissions/csv.js";
import { dropKeys, uniquePrefix } from "../limits/redis-keys.js";
import { expectError, type Person } from "../support/account-api.js";
import type { ApiResponse } from "../support/contract.js";
import type { FixtureBuilder } from "../support/cricket-builders.js";
import { aWindowWithRoomFor, MINUTE } from "../support/minute-window.js";
import {
  openSubmissionApi,
  type SubmissionApi,
  type SubmittedEvent,
  submission,
  validEvents,
} from "../support/submissions.js";

/**
 * The submission routes (POST /submissions and /submissions/uploads) share one budget of 30
 * requests per account per fixed UTC-minute window, counted after authentication for every
 * admitted request, valid or not; beyond it 429 RATE_LIMIT_EXCEEDED, and an unreachable
 * counter admits nothing (503 RATE_LIMIT_UNAVAILABLE).
 */

const header = (res: ApiResponse, name: string) => res.headers.get(name);
const seconds = (res: ApiResponse, name: string) => Number(header(res, name));

/** The CSV of some events, one row each, with blank extras. */
const csvOf = (fixture: FixtureBuilder, events: SubmittedEvent[]) =>
  stringify([
    [...CSV_COLUMNS],
    ...events.map((e) => [
      fixture.id,
      "1.0",
      e.eventId,
      e.inningsId,
      e.sequenceNumber,
      e.overNumber,
      e.positionInOver,
      e.ballNumber,
      e.strikerId,
      e.nonStrikerId,
      e.bowlerId,
      e.runs.offBat,
      e.runs.extras,
      e.runs.total,
      "",
      "",
      "",
      "",
      "",
      "",
      e.wickets.length > 0 ? JSON.stringify(e.wickets) : "",
    ]),
  ]);

/** A fixture's stored submissions: its SubmissionAccepted records. */
async function acceptances(api: SubmissionApi, fixtureId: string) {
  return (await api.world.store.readStream(`fixture-${fixtureId}`)).filter((e) => e.type === "SubmissionAccepted");
}

/** A fixture to which `person` sends one valid event at a time, as JSON or as a CSV upload. */
function oneEventAtATime(api: SubmissionApi, fixture: FixtureBuilder, person: Person) {
  const sent: SubmittedEvent[] = [];
  const take = () => {
    const events = validEvents(fixture, 1, { from: sent.length + 1 });
    sent.push(...events);
    return events;
  };
  return {
    sent,
    submit: () => api.submit(submission(fixture, take()), person.token),
    upload: () => api.upload(csvOf(fixture, take()), "ball.csv", "text/csv", person.token),
  };
}

describe("submission rate limit, in-process counter", () => {
  let api: SubmissionApi;
  beforeAll(async () => {
    api = await openSubmissionApi();
  }, 60_000);
  afterAll(() => api?.close());

  it("admits 30 submissions and uploads an account makes in a minute, valid or not, and refuses the 31st", async () => {
    const admin = await api.anAdmin();
    const fixture = await api.aFixtureToSubmitTo();
    const balls = oneEventAtATime(api, fixture, admin);
    const unknownFixture = { fixtureId: "fixture-nowhere", schemaVersion: "1.0", events: validEvents(fixture, 1) };
    // Every kind of request the two routes take, each expected answer, in turn.
    const kinds: [() => Promise<ApiResponse>, number][] = [
      [balls.submit, 201],
      [() => api.submit(unknownFixture, admin.token), 422],
      [balls.upload, 201],
      [() => api.upload("not, a, submission", "notes.txt", "text/plain", admin.token), 422],
      [() => api.api.post("/api/v1/submissions", "{", { token: admin.token }), 400],
    ];
    await aWindowWithRoomFor();

    let stored = 0;
    for (let i = 0; i < SUBMISSION_LIMIT.limit; i++) {
      const [send, status] = kinds[i % kinds.length] as (typeof kinds)[number];
      const res = await send();
      expect(res.status, `request ${i + 1}: ${res.text}`).toBe(status);
      if (status === 201) stored += 1;
      expect(header(res, "RateLimit-Limit")).toBe("30");
      expect(header(res, "RateLimit-Remaining"), `request ${i + 1}`).toBe(String(29 - i));
      expect(seconds(res, "RateLimit-Reset")).toBeGreaterThanOrEqual(1);
      expect(seconds(res, "RateLimit-Reset")).toBeLessThanOrEqual(60);
      expect(header(res, "Retry-After")).toBeNull();
    }
    expect(stored).toBe(12);

    for (const send of [balls.submit, balls.upload]) {
      const refused = await send();
      expectError(refused, 429, "RATE_LIMIT_EXCEEDED");
      const retryAfter = seconds(refused, "Retry-After");
      expect(Number.isInteger(retryAfter)).toBe(true);
      // The window is the UTC minute: retry when it ends, not a full minute from now.
      const untilNextMinute = Math.ceil((MINUTE - (Date.now() % MINUTE)) / 1000);
      expect(retryAfter).toBeGreaterThanOrEqual(Math.max(1, untilNextMinute - 1));
      expect(retryAfter).toBeLessThanOrEqual(Math.min(60, untilNextMinute + 1));
      expect(header(refused, "RateLimit-Limit")).toBe("30");
      expect(header(refused, "RateLimit-Remaining")).toBe("0");
      expect(seconds(refused, "RateLimit-Reset")).toBe(retryAfter);
    }
    // Neither refused request stored anything.
    expect(await api.publicEvents(fixture.id)).toHaveLength(12);
    expect(await acceptances(api, fixture.id)).toHaveLength(12);

    // The budget is the submission routes': the same admin may still correct a delivery.
    const { eventId, sequenceNumber: _, ...delivery } = balls.sent[0] as SubmittedEvent;
    const corrected = await api.api.put(
      `/api/v1/submissions/events/${eventId}`,
      {
        fixtureId: fixture.id,
        schemaVersion: "1.0",
        reason: "a four",
        event: { ...delivery, runs: { offBat: 4, extras: 0, total: 4 } },
      },
      { token: admin.token },
    );
    expect(corrected.status, corrected.text).toBe(200);

    // The budget is the account's: another admin, in the same window, starts afresh.
    const other = await api.anAdmin();
    const theirs = await api.aFixtureToSubmitTo();
    const res = await oneEventAtATime(api, theirs, other).upload();
    expect(res.status, res.text).toBe(201);
    expect(header(res, "RateLimit-Remaining")).toBe("29");
  }, 90_000);
});

describe.skipIf(!process.env.REDIS_URL)("submission rate limit, shared through Redis", () => {
  const url = process.env.REDIS_URL as string;
  const prefix = uniquePrefix();
  let counter: WindowCounter;
  /** The same counter as another API instance would hold it. */
  let elsewhere: WindowCounter;
  let api: SubmissionApi;
  beforeAll(async () => {
    counter = redisWindowCounter(url, { prefix });
    elsewhere = redisWindowCounter(url, { prefix });
    api = await openSubmissionApi({ rateLimits: counter });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await Promise.all([counter?.close(), elsewhere?.close()]);
    await dropKeys(url, prefix);
  });
  /** What another instance's limit says of one more request of `key`. */
  const admitOne = async (counter: WindowCounter, key: string) =>
    (await admit(counter, [{ key, ...SUBMISSION_LIMIT }], Date.now()))[0] as Admission;

  it("counts an account's requests to every instance against one budget", async () => {
    const admin = await api.anAdmin();
    const fixture = await api.aFixtureToSubmitTo();
    const balls = oneEventAtATime(api, fixture, admin);
    const key = `submissions:${admin.id}`;
    await aWindowWithRoomFor(10_000);

    // Another instance admits 20 of this admin's submissions ...
    for (let i = 0; i < 20; i++) expect((await admitOne(elsewhere, key)).allowed).toBe(true);
    // ... so this one has 10 left.
    for (let i = 0; i < 10; i++) {
      const res = await (i % 2 === 0 ? balls.submit() : balls.upload());
      expect(res.status, res.text).toBe(201);
      expect(header(res, "RateLimit-Remaining")).toBe(String(9 - i));
    }
    const refused = await balls.submit();
    expectError(refused, 429, "RATE_LIMIT_EXCEEDED");
    expect(seconds(refused, "Retry-After")).toBeGreaterThanOrEqual(1);
    expect(seconds(refused, "Retry-After")).toBeLessThanOrEqual(60);
    expect(await api.publicEvents(fixture.id)).toHaveLength(10);

    // And the other instance sees this one's requests, the refused one included.
    const there = await admitOne(elsewhere, key);
    expect(there).toMatchObject({ allowed: false, remaining: 0 });

    // Another account's budget is untouched.
    const other = await api.anAdmin();
    expect(await admitOne(elsewhere, `submissions:${other.id}`)).toMatchObject({
      allowed: true,
      remaining: 29,
    });
  }, 60_000);
});

describe("submission rate limit, counter unreachable", () => {
  let counter: WindowCounter;
  let api: SubmissionApi;
  beforeAll(async () => {
    // Nothing listens on port 1: every count fails.
    counter = redisWindowCounter("redis://127.0.0.1:1");
    api = await openSubmissionApi({ rateLimits: counter });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await counter?.close();
  });

  it("fails closed: 503 RATE_LIMIT_UNAVAILABLE for a valid submission and upload, and nothing stored", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const balls = oneEventAtATime(api, fixture, api.admin);
    for (const send of [balls.submit, balls.upload]) {
      const res = await send();
      expectError(res, 503, "RATE_LIMIT_UNAVAILABLE");
      // Every 503 says when to try again (docs/http.md).
      expect(header(res, "Retry-After")).toBe("2");
    }
    expect(await api.publicEvents(fixture.id)).toEqual([]);
    expect(await acceptances(api, fixture.id)).toEqual([]);
  });
});
