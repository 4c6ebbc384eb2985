import { describe, it } from "vitest";
import { MAX_ATTEMPTS, releaseDecider } from "../../src/commands/releases/decide.js";
import type { ReleaseEvent, ReleaseScope } from "../../streams/release.js";
import { spec } from "../support/decider.js";

const { given } = spec(releaseDecider);
const JOB = "2b1f2f4e-7a1c-4d0e-9b8a-0c3f6d5e4a21";
const NEXT_JOB = "6d0c2a51-3e6f-4b7a-8c19-5f2e1d0a9b34";
const POSITION = "812:4031";
const scope: ReleaseScope = {
  counts: {
    competitions: 1,
    seasons: 1,
    teams: 2,
    venues: 1,
    participants: 22,
    fixtures: 1,
    innings: 2,
    deliveries: 240,
  },
  competitions: [],
};

const requested = (jobId = JOB): ReleaseEvent => ({
  type: "DatasetReleaseRequested",
  data: { jobId, version: "1.0.0", position: POSITION, schemaVersion: "1.0" },
});
const started = (attempt: number, jobId = JOB): ReleaseEvent => ({
  type: "DatasetReleaseGenerationStarted",
  data: { jobId, attempt, itemsTotal: 40 },
});
const progressed = (attempt: number, itemsDone: number): ReleaseEvent => ({
  type: "DatasetReleaseProgressed",
  data: { jobId: JOB, attempt, itemsDone },
});
const digests = { sha256: "a".repeat(64), chunksSha256: "b".repeat(64) };
const publish = { type: "PublishRelease" as const, jobId: JOB, byteLength: 1234, ...digests, scope };
const publishedEvent: ReleaseEvent = {
  type: "DatasetReleasePublished",
  data: {
    jobId: JOB,
    version: "1.0.0",
    position: POSITION,
    schemaVersion: "1.0",
    byteLength: 1234,
    ...digests,
    scope,
  },
};
const failed = (jobId = JOB): ReleaseEvent => ({
  type: "DatasetReleaseFailed",
  data: { jobId, reason: "out of disk" },
});
const request = (jobId = NEXT_JOB) => ({ type: "RequestRelease" as const, version: "1.0.0", jobId, position: "900:1" });

describe("asking for a release", () => {
  it("queues a job at the position given", () =>
    given([])
      .when(request(JOB))
      .thenEmits([{ ...requested(), data: { ...requested().data, position: "900:1" } }]));

  it("reuses the job while it is queued or generating, and answers a published release", () => {
    given([requested()]).when(request()).thenEmits([]);
    given([requested(), started(1), progressed(1, 20)])
      .when(request())
      .thenEmits([]);
    given([requested(), started(1), publishedEvent])
      .when(request())
      .thenEmits([]);
  });

  it("starts a new job after a failed one", () =>
    given([requested(), started(1), failed()])
      .when(request())
      .thenEmits([
        {
          type: "DatasetReleaseRequested",
          data: { jobId: NEXT_JOB, version: "1.0.0", position: "900:1", schemaVersion: "1.0" },
        },
      ]));
});

describe("generating", () => {
  const start = { type: "StartGeneration" as const, jobId: JOB, itemsTotal: 40 };

  it("begins the first attempt, and after a restart the next", () => {
    given([requested()])
      .when(start)
      .thenEmits([started(1)]);
    given([requested(), started(1), progressed(1, 20)])
      .when(start)
      .thenEmits([started(2)]);
  });

  it("gives the job up once it has begun as often as it may", () => {
    const attempts = Array.from({ length: MAX_ATTEMPTS }, (_, i) => started(i + 1));
    given([requested(), ...attempts])
      .when(start)
      .thenEmits([
        {
          type: "DatasetReleaseFailed",
          data: { jobId: JOB, reason: `generation began ${MAX_ATTEMPTS} times without finishing` },
        },
      ]);
  });

  it("does nothing for another job, a published or a failed one", () => {
    given([requested(NEXT_JOB)])
      .when(start)
      .thenEmits([]);
    given([requested(), started(1), publishedEvent])
      .when(start)
      .thenEmits([]);
    given([requested(), started(1), failed()])
      .when(start)
      .thenEmits([]);
  });

  it("records the progress of the attempt under way, only forward", () => {
    const record = (attempt: number, itemsDone: number) => ({
      type: "RecordProgress" as const,
      jobId: JOB,
      attempt,
      itemsDone,
    });
    given([requested(), started(1)])
      .when(record(1, 10))
      .thenEmits([progressed(1, 10)]);
    given([requested(), started(1), progressed(1, 10)])
      .when(record(1, 10))
      .thenEmits([]);
    given([requested(), started(1), started(2)])
      .when(record(1, 30))
      .thenEmits([]);
    given([requested()]).when(record(1, 10)).thenEmits([]);
  });

  it("publishes a job once, at the position it was asked for", () => {
    given([requested(), started(1)])
      .when(publish)
      .thenEmits([publishedEvent]);
    given([requested(), started(1), publishedEvent])
      .when(publish)
      .thenEmits([]);
    given([requested(), started(1), failed()])
      .when(publish)
      .thenEmits([]);
  });
});
