import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, expectUnauthorized } from "../support/account-api.js";
import type { ApiResponse } from "../support/contract.js";
import { openProvenanceWorld, type ProvenanceWorld } from "../support/provenance.js";
import type { SubmittedEvent } from "../support/submissions.js";

/**
 * Who may read provenance: an administrator anywhere, a submitter in the competition of the
 * fixture concerned; bearer tokens only. Every route tried by every kind of caller, on an
 * imported delivery and on a submitted one (different competitions), and on a statistic.
 */

let w: ProvenanceWorld;
beforeAll(async () => {
  w = await openProvenanceWorld();
}, 120_000);
afterAll(() => w?.api.close());

type Caller = { token?: string; headers?: Record<string, string> };
type Expected = 200 | 401 | 403;

describe("the provenance routes", () => {
  it("let an admin and a submitter in scope in; refuse viewers, submitters out of scope, keys and the anonymous", async () => {
    const key = await w.api.anApiKey(w.api.admin);
    const viewer = await w.api.signIn();
    const matchSubmitter = await w.api.aSubmitter(w.api.admin, w.match.competitionId);
    const recorded = w.match.events.find((e) => e.type === "DeliveryRecorded") as (typeof w.match.events)[number];
    const matchEventId = (recorded.data as { eventId: string }).eventId;
    const { strikerId } = recorded.data as { strikerId: string };
    const { seasonId } = (w.match.events[0] as (typeof w.match.events)[number]).data as { seasonId: string };

    const targets = [
      { path: `/api/v1/provenance/events/${matchEventId}`, inScope: matchSubmitter, outOfScope: w.submitter },
      {
        path: `/api/v1/provenance/events/${w.direct.corrected.eventId}`,
        inScope: w.submitter,
        outOfScope: matchSubmitter,
      },
      {
        path: `/api/v1/provenance/submissions/${w.direct.uploadedId}`,
        inScope: w.submitter,
        outOfScope: matchSubmitter,
      },
      {
        path: `/api/v1/provenance/fixtures/${w.match.fixtureId}/statistics/innings-0`,
        inScope: matchSubmitter,
        outOfScope: w.submitter,
      },
      {
        path: `/api/v1/provenance/participants/${strikerId}/statistics/season-${seasonId}?part=batting`,
        inScope: matchSubmitter,
        outOfScope: w.submitter,
      },
    ];
    for (const { path, inScope, outOfScope } of targets) {
      const cells: [string, Caller, Expected][] = [
        ["no credential", {}, 401],
        ["a malformed token", { token: "not-a-token" }, 401],
        ["an API key alone", { headers: { "x-api-key": key } }, 401],
        ["a viewer", { token: viewer.token }, 403],
        ["a viewer with an API key", { token: viewer.token, headers: { "x-api-key": key } }, 403],
        ["a submitter out of scope", { token: outOfScope.token }, 403],
        ["a submitter in scope", { token: inScope.token }, 200],
        ["an admin", { token: w.api.admin.token }, 200],
      ];
      for (const [who, caller, expected] of cells) {
        const res: ApiResponse = await w.api.api.get(path, caller);
        if (expected === 401) expectUnauthorized(res);
        else if (expected === 403) expectError(res, 403, "FORBIDDEN");
        else expect(res.status, `${who} on ${path}: ${res.text}`).toBe(200);
      }
      // The submitter in scope reads what the administrator reads.
      const [byAdmin, bySubmitter] = await Promise.all(
        [w.api.admin, inScope].map((p) => w.api.api.get(path, { token: p.token })),
      );
      expect(bySubmitter?.body).toEqual(byAdmin?.body);
    }
  });

  it("tell a viewer nothing (403 for unknown ids too); 404 to an admin for an unknown event or submission", async () => {
    const viewer = await w.api.signIn();
    for (const path of [
      `/api/v1/provenance/events/${randomUUID()}`,
      "/api/v1/provenance/events/not-a-uuid",
      `/api/v1/provenance/submissions/${randomUUID()}`,
      `/api/v1/provenance/submissions/${(w.direct.sent[0] as SubmittedEvent).eventId}`,
      `/api/v1/provenance/fixtures/${randomUUID()}/statistics/innings-0`,
      `/api/v1/provenance/fixtures/${w.match.fixtureId}/statistics/innings-9`,
    ]) {
      expectError(await w.api.api.get(path, { token: viewer.token }), 403, "FORBIDDEN");
      expectError(await w.api.api.get(path, { token: w.api.admin.token }), 404, "NOT_FOUND");
    }
  });
});
