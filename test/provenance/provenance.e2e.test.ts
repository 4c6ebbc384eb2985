import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiResponse } from "../support/contract.js";
import { openProvenanceWorld, type ProvenanceWorld, type RevisionState, sha256 } from "../support/provenance.js";
import type { SubmittedEvent } from "../support/submissions.js";

/**
 * Provenance over HTTP against the real app and database: where each revision of an
 * imported, a re-issued, a submitted and a corrected delivery came from, who sent each
 * submission and what exactly, and the same answers after the read model is rebuilt.
 */

let w: ProvenanceWorld;
beforeAll(async () => {
  w = await openProvenanceWorld();
}, 120_000);
afterAll(() => w?.api.close());

type Actor = { id: string; name: string | null };
type Revision = {
  revision: number;
  deliveryId: string;
  recordedBy: Actor;
  recordedAt: string;
  reason: string | null;
  source: Record<string, unknown> | null;
  previousState: RevisionState | null;
  resultingState: RevisionState;
};
type EventProvenance = { eventId: string; fixtureId: string; currentRevision: number; revisions: Revision[] };

const IMPORT: Actor = { id: "cricsheet-import", name: null };
/** The delivery the re-issued match file changed, corrected by the import. */
const importCorrected = () =>
  (w.match.events.find((e) => e.type === "DeliveryCorrected")?.data as { eventId: string } | undefined)?.eventId ?? "";

function data<T>(res: ApiResponse): T {
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: T }).data;
}
const eventProvenance = async (eventId: string) =>
  data<EventProvenance>(await w.api.api.get(`/api/v1/provenance/events/${eventId}`, { token: w.api.admin.token }));
const submissionProvenance = async (submissionId: string) =>
  data<Record<string, unknown>>(
    await w.api.api.get(`/api/v1/provenance/submissions/${submissionId}`, { token: w.api.admin.token }),
  );

/** A submitted event as a revision state: every field, the ball label null when absent. */
const stateOf = (event: SubmittedEvent, changes: Partial<SubmittedEvent> = {}): RevisionState => {
  const { ballNumber, ...rest } = { ...event, ...changes };
  return { ...rest, ballNumber: ballNumber ?? null } as RevisionState;
};

describe("event-revision provenance", () => {
  it("names the Cricsheet file of an imported delivery: source id, revision and data version", async () => {
    const recorded = w.match.events.filter((e) => e.type === "DeliveryRecorded")[10] as (typeof w.match.events)[number];
    const { submissionId: _none, ...state } = recorded.data as RevisionState & { submissionId: null };
    expect(await eventProvenance(state.eventId)).toEqual({
      eventId: state.eventId,
      fixtureId: w.match.fixtureId,
      currentRevision: 1,
      revisions: [
        {
          revision: 1,
          deliveryId: recorded.id,
          recordedBy: IMPORT,
          recordedAt: recorded.metadata.occurredAt,
          reason: null,
          source: {
            kind: "cricsheet",
            sourceId: "cricsheet:fixture:1298152",
            revision: w.match.originalMeta.revision,
            dataVersion: w.match.originalMeta.data_version,
            createdOn: w.match.originalMeta.created,
          },
          previousState: null,
          resultingState: state,
        },
      ],
    });
  });

  it("names the re-issued file of a correction the import made, with both complete states", async () => {
    const corrected = w.match.events.find((e) => e.type === "DeliveryCorrected") as (typeof w.match.events)[number];
    const { eventId, delivery } = corrected.data as { eventId: string; delivery: Omit<RevisionState, "eventId"> };
    const recorded = w.match.events.find(
      (e) => e.type === "DeliveryRecorded" && (e.data as { eventId: string }).eventId === eventId,
    ) as (typeof w.match.events)[number];
    const { submissionId: _none, ...first } = recorded.data as RevisionState & { submissionId: null };

    const provenance = await eventProvenance(eventId);
    expect(provenance.currentRevision).toBe(2);
    expect(provenance.revisions[1]).toEqual({
      revision: 2,
      deliveryId: corrected.id,
      recordedBy: IMPORT,
      recordedAt: corrected.metadata.occurredAt,
      reason: `Cricsheet revision ${w.match.reissuedMeta.revision}`,
      source: {
        kind: "cricsheet",
        sourceId: "cricsheet:fixture:1298152",
        revision: w.match.reissuedMeta.revision,
        dataVersion: w.match.reissuedMeta.data_version,
        createdOn: w.match.reissuedMeta.created,
      },
      previousState: first,
      resultingState: { ...delivery, eventId, sequenceNumber: first.sequenceNumber },
    });
    expect(provenance.revisions[1]?.resultingState.runs.offBat).toBe(first.runs.offBat + 2);
    expect(provenance.revisions[0]?.source).toMatchObject({ revision: w.match.originalMeta.revision });
  });

  it("names the submission and position of a submitted delivery, then the corrector and reason of its correction", async () => {
    const { corrected, uploadedId, fixture } = w.direct;
    const stream = await w.stream(fixture.id);
    const recorded = stream.find(
      (e) => e.type === "DeliveryRecorded" && (e.data as { eventId: string }).eventId === corrected.eventId,
    );
    const correction = stream.find((e) => e.type === "DeliveryCorrected");
    const sender = { id: w.api.admin.id, name: "Jo Bloggs" };
    const corrector = { id: w.submitter.id, name: "Jo Bloggs" };
    const before = stateOf(corrected);
    const after = stateOf(corrected, { runs: { offBat: 4, extras: 0, total: 4 } });

    expect(await eventProvenance(corrected.eventId)).toEqual({
      eventId: corrected.eventId,
      fixtureId: fixture.id,
      currentRevision: 2,
      revisions: [
        {
          revision: 1,
          deliveryId: recorded?.id,
          recordedBy: sender,
          recordedAt: recorded?.metadata.occurredAt,
          reason: null,
          source: {
            kind: "submission",
            submissionId: uploadedId,
            position: 1,
            submittedBy: sender,
            provenance: `/api/v1/provenance/submissions/${uploadedId}`,
          },
          previousState: null,
          resultingState: before,
        },
        {
          revision: 2,
          deliveryId: correction?.id,
          recordedBy: corrector,
          recordedAt: correction?.metadata.occurredAt,
          reason: "four, not one",
          source: {
            kind: "correction",
            correctedBy: corrector,
            reason: "four, not one",
          },
          previousState: before,
          resultingState: after,
        },
      ],
    });
  });
});

describe("submission provenance", () => {
  it("tells who sent an upload, when, and the digests and size of exactly what was sent", async () => {
    const { uploadedId, uploaded, uploadText, corrected, fixture } = w.direct;
    const accepted = (await w.stream(fixture.id)).find(
      (e) => e.type === "SubmissionAccepted" && (e.data as { submissionId: string }).submissionId === uploadedId,
    )?.data as { receivedAt: string; payloadSha256: string };
    expect(accepted.payloadSha256).toMatch(/^[0-9a-f]{64}$/);

    expect(await submissionProvenance(uploadedId)).toEqual({
      submissionId: uploadedId,
      fixtureId: fixture.id,
      submittedBy: { id: w.api.admin.id, name: "Jo Bloggs" },
      receivedAt: accepted.receivedAt,
      schemaVersion: "1.0",
      payloadSha256: accepted.payloadSha256,
      upload: {
        filename: "last-three.json",
        mediaType: "application/json",
        byteLength: Buffer.byteLength(uploadText),
        sha256: sha256(uploadText),
      },
      items: uploaded.map((event, position) => ({
        position,
        eventId: event.eventId,
        outcome: "accepted",
        currentRevision: event.eventId === corrected.eventId ? 2 : 1,
        provenance: `/api/v1/provenance/events/${event.eventId}`,
      })),
    });
  });

  it("has no upload for a JSON body; its items keep the submitted order", async () => {
    const { postedId, sent } = w.direct;
    const provenance = await submissionProvenance(postedId);
    expect(provenance).toMatchObject({ submissionId: postedId, upload: null });
    expect(provenance.items).toEqual(
      sent.map((event, position) => expect.objectContaining({ position, eventId: event.eventId, currentRevision: 1 })),
    );
    // Two different submissions, two different payload digests.
    expect(provenance.payloadSha256).not.toBe((await submissionProvenance(w.direct.uploadedId)).payloadSha256);
  });
});

type Contributor = {
  eventId: string;
  currentRevision: number;
  revisions: Omit<Revision, "previousState" | "resultingState">[];
  provenance: string;
};
type StatisticPage = {
  data: Contributor[];
  fixtureId: string;
  statisticId: string;
  fixtureVersion: number;
  count: number;
  pagination: { limit: number; nextCursor: string | null };
};

const statisticPath = (fixtureId: string, statisticId: string) =>
  `/api/v1/provenance/fixtures/${fixtureId}/statistics/${statisticId}`;

/** Every page of a statistic's provenance, `limit` at a time. */
async function statisticProvenance(fixtureId: string, statisticId: string, limit: number) {
  const pages: StatisticPage[] = [];
  let cursor: string | null = "";
  while (cursor !== null) {
    const query: string = `?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`;
    const res = await w.api.api.get(`${statisticPath(fixtureId, statisticId)}${query}`, { token: w.api.admin.token });
    expect(res.status, res.text).toBe(200);
    const page = res.body as StatisticPage;
    pages.push(page);
    cursor = page.pagination.nextCursor;
  }
  return pages;
}

/** The statistic's contributor trace as the public export gives it. */
async function exportedTrace(fixtureId: string, statisticId: string) {
  const res = await w.api.api.get(`/api/v1/fixtures/${fixtureId}/statistics/${statisticId}/events/export.json`);
  expect(res.status, res.text).toBe(200);
  return res.body as { data: { eventId: string }[]; fixtureVersion: number };
}

describe("derived-statistic provenance", () => {
  it("traces an innings of the imported match, page by page, to the Cricsheet file revisions of each delivery", async () => {
    const { fixtureId, originalMeta, reissuedMeta } = w.match;
    const pages = await statisticProvenance(fixtureId, "innings-0", 50);
    const trace = await exportedTrace(fixtureId, "innings-0");
    const contributors = pages.flatMap((p) => p.data);
    expect(pages.length).toBeGreaterThan(1);
    expect(contributors.map((c) => c.eventId)).toEqual(trace.data.map((e) => e.eventId));
    for (const page of pages)
      expect(page).toMatchObject({
        fixtureId,
        statisticId: "innings-0",
        fixtureVersion: trace.fixtureVersion,
        count: contributors.length,
      });

    const file = (meta: typeof originalMeta) => ({
      kind: "cricsheet",
      sourceId: "cricsheet:fixture:1298152",
      revision: meta.revision,
      dataVersion: meta.data_version,
      createdOn: meta.created,
    });
    const corrected = importCorrected();
    const changed = contributors.find((c) => c.eventId === corrected);
    expect(changed).toMatchObject({ currentRevision: 2, provenance: `/api/v1/provenance/events/${corrected}` });
    expect(changed?.revisions.map((r) => [r.revision, r.reason, r.source])).toEqual([
      [1, null, file(originalMeta)],
      [2, `Cricsheet revision ${reissuedMeta.revision}`, file(reissuedMeta)],
    ]);
    const untouched = contributors.filter((c) => c.eventId !== corrected);
    for (const c of untouched)
      expect([c.currentRevision, c.revisions.map((r) => r.source)]).toEqual([1, [file(originalMeta)]]);
  });

  it("traces a submitted delivery to its submission and its correction; a cursor of an older version is refused", async () => {
    const { fixture, corrected, uploadedId } = w.direct;
    const [first, ...rest] = await statisticProvenance(fixture.id, "innings-0", 2);
    const contributors = [first, ...rest].flatMap((p) => p?.data ?? []);
    expect(contributors.map((c) => c.eventId)).toEqual([...w.direct.sent, ...w.direct.uploaded].map((e) => e.eventId));
    expect(contributors.find((c) => c.eventId === corrected.eventId)?.revisions.map((r) => r.source?.kind)).toEqual([
      "submission",
      "correction",
    ]);
    expect(contributors.find((c) => c.eventId === corrected.eventId)?.revisions[0]?.source).toMatchObject({
      submissionId: uploadedId,
      position: 1,
    });

    // The fixture moves on (another correction): the first page's cursor no longer continues it.
    const other = w.direct.uploaded[2] as SubmittedEvent;
    const { eventId: _e, sequenceNumber: _s, ...event } = other;
    const body = {
      fixtureId: fixture.id,
      schemaVersion: "1.0",
      reason: "six",
      event: { ...event, runs: { offBat: 6, extras: 0, total: 6 } },
    };
    const put = await w.api.api.put(`/api/v1/submissions/events/${other.eventId}`, body, { token: w.api.admin.token });
    expect(put.status, put.text).toBe(200);
    const stale = await w.api.api.get(
      `${statisticPath(fixture.id, "innings-0")}?limit=2&cursor=${first?.pagination.nextCursor}`,
      { token: w.api.admin.token },
    );
    expect(stale.status, stale.text).toBe(409);
    expect((stale.body as { error: { code: string } }).error.code).toBe("TRACE_CHANGED");
  });
});

describe("rebuilt from the log", () => {
  it("answers exactly the same after `delivery_history` is rebuilt", async () => {
    const corrected = importCorrected();
    const reads = () =>
      Promise.all([
        eventProvenance(corrected),
        eventProvenance(w.direct.corrected.eventId),
        eventProvenance((w.direct.sent[0] as SubmittedEvent).eventId),
        submissionProvenance(w.direct.uploadedId),
        submissionProvenance(w.direct.postedId),
        statisticProvenance(w.match.fixtureId, "innings-0", 100),
      ]);
    const before = await reads();
    await w.api.world.runner.rebuild("delivery_history");
    expect(await reads()).toEqual(before);
  });
});
