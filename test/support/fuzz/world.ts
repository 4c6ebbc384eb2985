import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { expect } from "vitest";
import { DatabaseWatch } from "../../../src/db/availability.js";
import { createApp } from "../../../src/http/app.js";
import { createLogger } from "../../../src/http/logging.js";
import { apiRoutes } from "../../../src/http/routes.js";
import { memoryWindowCounter } from "../../../src/limits/memory.js";
import type { WindowCounter } from "../../../src/limits/window-counter.js";
import { listGenerations } from "../../../src/projections/generations.js";
import { ReadModelWatch } from "../../../src/projections/watch.js";
import { addDays, utcDate } from "../../../src/usage/dates.js";
import { UsageRecorder } from "../../../src/usage/recorder.js";
import type { Person } from "../account-api.js";
import { aPackage, sendBatch } from "../batches.js";
import { type ConsumerApi, openConsumerApi } from "../consumer-api.js";
import { dismissalKinds } from "../cricket-builders.js";
import { aPublishedRelease } from "../releases.js";
import { anOpenFixture, KINDS, submission, validEvents } from "../submissions.js";
import { givenStoredUsage } from "../usage.js";
import {
  batchPackages,
  batchResubmissions,
  batchReviews,
  type Coordinated,
  corrections,
  type Delivery,
  submissions,
  venueChanges,
} from "./acceptable.js";

/*
 * The app the fuzz talks to, with real data in it so that requests reach deep code: a
 * Cricsheet match with its statistics, a fixture open for submissions with accepted
 * deliveries, an administrator, a submitter of that fixture's competition, viewers (one with
 * a pending request, one disabled), API consumers with active and revoked keys; and what
 * the fuzz knows of it: ids by name, ETags, cursors, credentials good and bad, and requests
 * valid enough to be accepted.
 */

/**
 * Production's limits, a thousandfold: every hit is counted as in production, but a window
 * reports a thousandth of its count, so no fuzzed request meets a limit.
 */
function generous(counter: WindowCounter): WindowCounter {
  return {
    ...counter,
    hit: async (windows, now) =>
      (await counter.hit(windows, now)).map((w) => ({ ...w, count: Math.ceil(w.count / 1000) })),
  };
}

const HOUR = 3600;

/** Profile claims as a user may set them at the provider (Supabase's user_metadata is theirs to write). */
const HOSTILE_CLAIMS: Record<string, unknown>[] = [
  {},
  { user_metadata: { name: "a\u0000b" }, email: "\u0000@example.com" },
  { user_metadata: { name: "\ud800" } },
  { user_metadata: { name: "é".repeat(10_000) } },
  { user_metadata: { name: 42, full_name: { first: "Jo" } }, email: ["x@example.com"] },
  { user_metadata: "Jo", name: "   " },
  { sub: "s".repeat(255) },
  { sub: " padded subject " },
  // Sign-in times no clock reads: far future, far past.
  { auth_time: 1e20 },
  { auth_time: -1e15 },
  { amr: [{ method: "password", timestamp: 1e300 }, null, { method: 7 }] },
];

export type FuzzWorld = Awaited<ReturnType<typeof openFuzzWorld>>;

/** The browser origin the app allows, so that CORS answers are fuzzed too. */
export const APPROVED_ORIGIN = "https://app.example";

export async function openFuzzWorld() {
  const api: ConsumerApi = await openConsumerApi({
    rateLimits: generous(memoryWindowCounter()),
    anonymousLimits: { perSourcePerMinute: 30, platformPerMinute: 600 },
  });
  const { admin, provider } = api;
  const open = anOpenFixture();
  await api.world.given(dismissalKinds(...KINDS), open);

  const submitter = await api.aSubmitter(admin, open.competition.id);
  const accepted = validEvents(open, 12);
  const submitted = await api.api.post("/api/v1/submissions", submission(open, accepted), { token: admin.token });
  expect(submitted.status, submitted.text).toBe(201);
  const batch = await sendBatch(api.api, aPackage(open.competition), { token: submitter.token, key: "fuzz-world" });
  expect(batch.status, batch.text).toBe(202);

  const jobId = await aPublishedRelease(api, admin.token, "1.0.0");

  const [viewer, another, pending, disabled] = [
    await api.signIn(),
    await api.signIn(),
    await api.signIn(),
    await api.aDisabledAccount(),
  ];
  const requested = await api.api.post(
    "/api/v1/submitter-access-requests",
    { competitionId: open.competition.id },
    { token: pending.token },
  );
  expect(requested.status, requested.text).toBe(200);

  // The fuzz's administrator owns `mine` (its keys rotated, so one is revoked); another owns
  // `reader`, whose key the keyed reads use: rotations and revocations the fuzz makes cannot
  // take it away.
  const mine = await api.aConsumer({ name: "Fuzz" });
  const rotated = await api.rotate(mine.consumerId);
  const owner = await api.anAdmin();
  const reader = await api.aConsumer({ name: "Reader", rateLimitPerMinute: 10_000, dailyQuota: 10_000_000 }, owner);

  // A page of one item of every collection, for its cursor: usage needs rows to page through.
  const spare = await api.aConsumer({ name: "Spare" });
  const today = utcDate(new Date());
  await givenStoredUsage(
    api.db.sql,
    [mine, reader].flatMap(({ consumerId }) => [
      { date: today, consumerId, route: "/api/v1/fixtures" },
      { date: addDays(today, -1), consumerId, route: "/api/v1/fixtures/:fixtureId" },
    ]),
  );
  const asAdmin = { token: admin.token };
  const harvest = await harvested(api, [
    ["/api/v1/competitions?limit=1"],
    ["/api/v1/seasons?limit=1"],
    ["/api/v1/competitors?limit=1"],
    ["/api/v1/participants?limit=1"],
    ["/api/v1/fixtures?limit=1"],
    ["/api/v1/competitions?limit=100"],
    ["/api/v1/seasons?limit=100"],
    ["/api/v1/competitors?limit=100"],
    ["/api/v1/participants?limit=3"],
    ["/api/v1/fixtures?limit=100"],
    [`/api/v1/fixtures/${api.fixtureId}`],
    [`/api/v1/fixtures/${api.fixtureId}/events?limit=100`],
    [`/api/v1/fixtures/${open.id}/events?limit=5`],
    [`/api/v1/fixtures/${api.fixtureId}/statistics`],
    [`/api/v1/fixtures/${open.id}/events/${accepted[0]?.eventId}`],
    ["/api/v1/admin/users?limit=1", asAdmin],
    ["/api/v1/admin/api-consumers?limit=1", asAdmin],
    [`/api/v1/admin/api-consumers/${mine.consumerId}/usage?limit=1`, asAdmin],
    ["/api/v1/consumer/usage?limit=1", { headers: { "x-api-key": reader.apiKey } }],
  ]);
  const participant = harvest.ids.participantId?.[0] as string;
  const more = await harvested(api, [
    [`/api/v1/participants/${participant}/statistics`],
    [`/api/v1/participants/${participant}/fixtures?limit=1`],
  ]);
  const docs = await (await api.app.request("/docs")).text();

  const batchReference = (batch.body as { data: { batchReference: string } }).data.batchReference;
  const ids: Record<string, string[]> = {
    ...harvest.ids,
    userId: [admin, submitter, viewer, another, pending, disabled, owner].map((p) => p.id),
    consumerId: [mine.consumerId, spare.consumerId, reader.consumerId].map(String),
    keyId: [mine.keyId, rotated.keyId, spare.keyId, reader.keyId].map(String),
    file: [...docs.matchAll(/\/docs\/assets\/([^"]+)/g)].map((m) => m[1] as string),
    batchReference: [batchReference],
    submissionId: [(submitted.body as { data: { submissionId: string } }).data.submissionId],
    version: ["1.0.0"],
    jobId: [jobId],
    // A place and a day the weather has (any date of 0000–9999 is one only now and then).
    latitude: ["18.9389", "-33.8915"],
    longitude: ["72.8258", "151.2249"],
    date: ["2024-04-07", "1999-01-02"],
  };

  /** A token of `person` signed in an hour ago: good for everything but deleting the account. */
  const signedInLongAgo = (person: Person) => api.tokenFor(person.subject, { email: person.email ?? "" }, HOUR);
  const unpublished = await provider.addKey("ES256");
  provider.unpublishKey(unpublished);
  const now = Math.floor(Date.now() / 1000);
  const adminToken = await signedInLongAgo(admin);
  const bearer = {
    /** The administrator's first: most application requests are the administrator's. */
    valid: [
      adminToken,
      await signedInLongAgo(submitter),
      // Signed in just now, so a well-formed DELETE /account removes them.
      viewer.token,
      another.token,
      pending.token,
      disabled.token,
      // Accounts seen first here, with claims the provider passes on as users wrote them.
      ...(await Promise.all(HOSTILE_CLAIMS.map((claims) => provider.accessToken({ sub: randomUUID(), ...claims })))),
    ],
    refused: [
      await provider.accessToken({ sub: viewer.subject, exp: now - 60, iat: now - 3660 }),
      await provider.accessToken({ sub: viewer.subject, aud: "somebody-else" }),
      await provider.accessToken({ sub: viewer.subject, iss: "https://issuer.example" }),
      await provider.accessToken({ sub: viewer.subject, role: "service_role" }),
      await provider.accessToken({ sub: viewer.subject }, { kid: unpublished }),
      `${adminToken.slice(0, -4)}AAAA`,
      `${Buffer.from('{"alg":"none"}').toString("base64url")}.${adminToken.split(".")[1]}.`,
      "a.b.c",
      "x".repeat(10_000),
    ],
  };

  const key = reader.apiKey;
  const apiKeys = {
    valid: [key],
    refused: [
      mine.apiKey, // revoked by the rotation
      `${key.slice(0, -6)}AAAAAA`,
      `ck_0000000000_${key.slice(14)}`,
      key.slice(0, -1),
      key.toUpperCase(),
      `${key} `,
    ],
  };

  // Corrections of the open fixture's deliveries and of the Cricsheet match's (its statistics recomputed).
  const sampleEvents = await api.api.get(`/api/v1/fixtures/${api.fixtureId}/events?limit=100`);
  const correctable: Delivery[] = [
    ...accepted.map((e) => ({ ...e, fixtureId: open.id })),
    ...(sampleEvents.body as { data: Delivery[] }).data,
  ];

  /** Values of body properties the schema cannot know: the world's ids, the words the server waits for. */
  const bodyHints: Record<string, fc.Arbitrary<unknown>> = {
    fixtureId: fc.constantFrom(open.id, api.fixtureId),
    inningsId: fc.constantFrom(...open.innings.map((i) => i.inningsId)),
    eventId: fc.oneof(fc.uuid(), fc.constantFrom(...correctable.map((d) => d.eventId))),
    competitionId: fc.constantFrom(...(ids.competitionId ?? [])),
    competitionIds: fc.constantFrom(...(ids.competitionId ?? [])),
    kind: fc.constantFrom(...KINDS, "obstructing the field"),
    confirmation: fc.constantFrom("DELETE", "delete", "DELETE "),
    ...Object.fromEntries(
      ["strikerId", "nonStrikerId", "bowlerId", "playerOutId", "participantId"].map((name) => [
        name,
        fc.constantFrom(...open.innings.flatMap((i) => [...i.batting.players, ...i.bowling.players]).map((p) => p.id)),
      ]),
    ),
  };

  const cursors = [...harvest.cursors, ...more.cursors];
  /**
   * The values a parameter of the operation at `template` may take, by its name: a
   * participant's statistics have ids of their own, and cursors belong to the collection
   * that issued them (the keyed aliases page alike).
   */
  const idsFor = (template: string, name: string): string[] => {
    if (name === "cursor") {
      const issuedHere = cursors.filter((c) => templatePattern(template.replace("/consumer/", "/")).test(c.path));
      return issuedHere.map((c) => c.cursor);
    }
    if (name === "statisticId" && template.includes("/participants/")) return more.ids.statisticId ?? [];
    return ids[name] ?? [];
  };

  // The app as main.ts builds it (database watch, read-model memo, usage telemetry, CORS, a
  // proxy in front), on this world's database; errors are logged, so a 500's stack is seen.
  const logger = createLogger("error");
  const database = new DatabaseWatch(api.db.sql);
  database.start();
  const watch = new ReadModelWatch(api.db.sql);
  watch.follow(api.world.runner);
  await watch.start();
  const usage = new UsageRecorder(api.db.sql, logger, { flushEveryMs: 250 });
  usage.start();
  const app = createApp(
    { logger, ...api.deps({ database, watch, usage, corsOrigins: [APPROVED_ORIGIN], trustedProxyHops: 1 }) },
    apiRoutes,
  );

  return {
    api,
    app,
    idsFor,
    etags: harvest.etags,
    bearer,
    apiKeys,
    bodyHints,
    /** Requests valid enough to be accepted, by operation (`METHOD template`). */
    coordinated: {
      "POST /api/v1/submissions": submissions(open),
      "POST /api/v1/submissions/uploads": submissions(open),
      "PUT /api/v1/submissions/events/{eventId}": corrections(correctable),
      "POST /api/v1/batches": batchPackages(open),
      "POST /api/v1/batches/{batchReference}/reviews": batchReviews(batchReference),
      "POST /api/v1/batches/{batchReference}/resubmissions": batchResubmissions(batchReference, submitter.token),
      "PATCH /api/v1/admin/venues/{venueId}": venueChanges(ids.venueId ?? []),
    } as Record<string, fc.Arbitrary<Coordinated>>,
    /** Projectors that failed on an event (their last error), which no answer shows. */
    projectorFailures: async () =>
      (await listGenerations(api.db.sql))
        .filter((g) => g.lastError !== null)
        .map((g) => `${g.projector}: ${g.lastError}`),
    async close() {
      watch.close();
      database.stop();
      await usage.close();
      await api.close();
    },
  };
}

const templatePattern = (template: string) => new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`);

type Read = [path: string, options?: Parameters<ConsumerApi["api"]["get"]>[1]];

/**
 * What the reads tell: every value of a property named `…Id` by that name, the ETags, and
 * each next-page cursor with the path that issued it.
 */
async function harvested(api: ConsumerApi, reads: Read[]) {
  const ids = new Map<string, Set<string>>();
  const etags = new Set<string>();
  const cursors: { path: string; cursor: string }[] = [];
  const walk = (value: unknown, path: string) => {
    if (Array.isArray(value)) for (const v of value) walk(v, path);
    else if (value !== null && typeof value === "object")
      for (const [name, v] of Object.entries(value)) {
        if (typeof v === "string" && name.endsWith("Id")) ids.set(name, (ids.get(name) ?? new Set<string>()).add(v));
        if (typeof v === "string" && name === "nextCursor") cursors.push({ path, cursor: v });
        walk(v, path);
      }
  };
  for (const [target, options] of reads) {
    const res = await api.api.get(target, options);
    expect(res.status, `${target}: ${res.text}`).toBe(200);
    walk(res.body, new URL(target, "http://localhost").pathname);
    const etag = res.headers.get("etag");
    if (etag) etags.add(etag);
  }
  return {
    ids: Object.fromEntries([...ids].map(([name, values]) => [name, [...values]])),
    etags: [...etags],
    cursors,
  };
}
