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

describe("rebuilt from the log", () => {
  it("answers exactly the same after `delivery_history` is rebuilt", async () => {
    const corrected = w.match.events.find((e) => e.type === "DeliveryCorrected")?.data as { eventId: string };
    const reads = () =>
      Promise.all([
        eventProvenance(corrected.eventId),
        eventProvenance(w.direct.corrected.eventId),
        eventProvenance((w.direct.sent[0] as SubmittedEvent).eventId),
        submissionProvenance(w.direct.uploadedId),
        submissionProvenance(w.direct.postedId),
      ]);
    const before = await reads();
    await w.api.world.runner.rebuild("delivery_history");
    expect(await reads()).toEqual(before);
  });
});
