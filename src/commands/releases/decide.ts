import type { ReleaseEvent, ReleaseScope } from "../../../streams/release.js";
import { ARTIFACT_SCHEMA_VERSION } from "../../../streams/release.js";
import { evolveRelease, initialReleaseState, type ReleaseState } from "../../../streams/release-state.js";
import type { Decider } from "../handle.js";

/** Generations a job may begin before it is given up: a release that kills its generator every time must stop trying. */
export const MAX_ATTEMPTS = 3;

export type RequestRelease = { type: "RequestRelease"; version: string; jobId: string; position: string };
export type StartGeneration = { type: "StartGeneration"; jobId: string; itemsTotal: number };
export type RecordProgress = { type: "RecordProgress"; jobId: string; attempt: number; itemsDone: number };
export type PublishRelease = {
  type: "PublishRelease";
  jobId: string;
  byteLength: number;
  sha256: string;
  chunksSha256: string;
  scope: ReleaseScope;
};

export type ReleaseCommand = RequestRelease | StartGeneration | RecordProgress | PublishRelease;

/**
 * Requirements (docs/releases.md, "Jobs"):
 * - a version is asked for once while its job is queued or generating, and never again once
 *   published: a second request writes nothing (the route reuses the job or answers the
 *   release); after a failure a request starts a new job;
 * - a generation begins only for the version's current job while it is queued or
 *   generating (a restart begins it again, one attempt more); the attempt after the last
 *   allowed fails the job instead;
 * - progress is recorded for the attempt under way only, and only forward;
 * - a job is published once, whichever of several generators finishes first; a failed or
 *   superseded job publishes nothing. A generation that throws is begun again, so an error
 *   that keeps recurring ends as the failure of the attempt after the last.
 * Steps that no longer apply write nothing rather than refuse: generators race and restart.
 */
export const releaseDecider: Decider<ReleaseCommand, ReleaseState, ReleaseEvent> = {
  initialState: initialReleaseState,
  evolve: evolveRelease,
  decide: (command, state) => {
    if (command.type === "RequestRelease") return request(command, state);
    const job = state?.job;
    if (!state || !job || job.jobId !== command.jobId || (job.status !== "queued" && job.status !== "generating"))
      return [];
    switch (command.type) {
      case "StartGeneration":
        return job.attempts >= MAX_ATTEMPTS
          ? [failed(command.jobId, `generation began ${job.attempts} times without finishing`)]
          : [
              {
                type: "DatasetReleaseGenerationStarted",
                data: { jobId: command.jobId, attempt: job.attempts + 1, itemsTotal: command.itemsTotal },
              },
            ];
      case "RecordProgress":
        return job.status === "generating" && command.attempt === job.attempts && command.itemsDone > job.itemsDone
          ? [
              {
                type: "DatasetReleaseProgressed",
                data: { jobId: command.jobId, attempt: command.attempt, itemsDone: command.itemsDone },
              },
            ]
          : [];
      case "PublishRelease": {
        const { jobId, byteLength, sha256, chunksSha256, scope } = command;
        return [
          {
            type: "DatasetReleasePublished",
            data: {
              jobId,
              version: state.version,
              position: job.position,
              schemaVersion: ARTIFACT_SCHEMA_VERSION,
              byteLength,
              sha256,
              chunksSha256,
              scope,
            },
          },
        ];
      }
      default: {
        const unknown: never = command;
        throw new Error(`unknown release command ${JSON.stringify(unknown)}`);
      }
    }
  },
};

function request(command: RequestRelease, state: ReleaseState): ReleaseEvent[] {
  if (state && state.job.status !== "failed") return [];
  const { jobId, version, position } = command;
  return [
    { type: "DatasetReleaseRequested", data: { jobId, version, position, schemaVersion: ARTIFACT_SCHEMA_VERSION } },
  ];
}

const failed = (jobId: string, reason: string): ReleaseEvent => ({
  type: "DatasetReleaseFailed",
  data: { jobId, reason },
});
