import type { ReleaseEvent } from "./release.js";
import { unreachable } from "./unreachable.js";

/** Where a generation job is (docs/releases.md, "Jobs"). */
export type JobStatus = "queued" | "generating" | "published" | "failed";

/** The latest job of a version: an earlier one only ever failed. */
export type ReleaseJob = {
  jobId: string;
  position: string;
  status: JobStatus;
  /** Generations begun, restarts included. */
  attempts: number;
  itemsTotal: number | null;
  itemsDone: number;
};

/** null until a release of the version is requested. */
export type ReleaseState = { version: string; job: ReleaseJob } | null;

export const initialReleaseState = (): ReleaseState => null;

/** Folds one release event into the state; pure. */
export function evolveRelease(state: ReleaseState, event: ReleaseEvent): ReleaseState {
  if (event.type === "DatasetReleaseRequested") {
    const { version, jobId, position } = event.data;
    return { version, job: { jobId, position, status: "queued", attempts: 0, itemsTotal: null, itemsDone: 0 } };
  }
  if (!state || state.job.jobId !== event.data.jobId) return state;
  const job = state.job;
  switch (event.type) {
    case "DatasetReleaseGenerationStarted":
      return {
        ...state,
        job: {
          ...job,
          status: "generating",
          attempts: event.data.attempt,
          itemsTotal: event.data.itemsTotal,
          itemsDone: 0,
        },
      };
    case "DatasetReleaseProgressed":
      return { ...state, job: { ...job, itemsDone: event.data.itemsDone } };
    case "DatasetReleasePublished":
      return { ...state, job: { ...job, status: "published", itemsDone: job.itemsTotal ?? job.itemsDone } };
    case "DatasetReleaseFailed":
      return { ...state, job: { ...job, status: "failed" } };
    default:
      return unreachable(event);
  }
}
