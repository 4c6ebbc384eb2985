import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Position } from "../../src/event-store/port.js";
import { ProjectionRunner } from "../../src/projections/runner.js";
import type { BearerClient } from "../support/account-api.js";
import {
  openSubmissionApi,
  type SubmissionApi,
  type SubmittedEvent,
  submission,
  validEvents,
} from "../support/submissions.js";

/**
 * A delivery write answers once what its caller reads next shows it: the fixture and its
 * version, the events, the history. It does not wait for the statistics rebuild.
 */

/** The app's own runner, noting which read models each answer waited for. */
class NotingRunner extends ProjectionRunner {
  readonly waited: string[][] = [];
  override waitFor(names: readonly string[], position: Position, timeoutMs?: number): Promise<boolean> {
    this.waited.push([...names].sort());
    return super.waitFor(names, position, timeoutMs);
  }
}

let api: SubmissionApi;
let runner: NotingRunner;
let noting: BearerClient;
beforeAll(async () => {
  api = await openSubmissionApi();
  runner = new NotingRunner(api.db.sql, api.world.store, api.world.runner.projectors);
  noting = api.anotherInstance({ projections: runner });
});
afterAll(() => api.close());

const FOLLOW_UP_READS = ["deliveries", "delivery_history", "fixtures", "stream_versions"];

describe("read-your-writes after a delivery write", () => {
  it("waits for the fixture, its events and their history, not the statistics, then shows the write", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const events = validEvents(fixture, 6);
    const res = await noting.post("/api/v1/submissions", submission(fixture, events), { token: api.admin.token });
    expect(res.status, res.text).toBe(201);
    expect(runner.waited.at(-1)).toEqual(FOLLOW_UP_READS);
    expect((await api.publicEvents(fixture.id)).map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));
    const history = await api.api.get(`/api/v1/submissions/events/${events[0]?.eventId}/history`, {
      token: api.admin.token,
    });
    expect(history.status, history.text).toBe(200);

    const target = events[2] as SubmittedEvent;
    const { eventId: _e, sequenceNumber: _s, ...state } = target;
    const body = {
      fixtureId: fixture.id,
      schemaVersion: "1.0",
      reason: "six, not four",
      event: { ...state, runs: { offBat: 6, extras: 0, total: 6 } },
    };
    const corrected = await noting.put(`/api/v1/submissions/events/${target.eventId}`, body, {
      token: api.admin.token,
    });
    expect(corrected.status, corrected.text).toBe(200);
    expect(runner.waited.at(-1)).toEqual(FOLLOW_UP_READS);
    const shown = await api.publicEvents(fixture.id);
    expect(shown.find((e) => e.eventId === target.eventId)).toMatchObject({ revision: 2, runs: { offBat: 6 } });
  });
});
