import { RELEASE_VERSION_PATTERN } from "../../../streams/release.js";
import type { ReleaseJobView } from "../../releases/queries.js";
import { count, minute } from "../format.js";
import { Layout } from "../layout.js";
import { type Outcome, Outcomes } from "../outcome.js";
import { RELOAD_SECONDS, ReloadControl } from "../reloading.js";

/** States a job has not finished in: its page reloads itself until it has. */
const WORKING = new Set(["queued", "generating"]);

/** An administrator's release form: a version of everything published now. */
export function ReleaseRequestPage({ latest, outcome }: { latest: string | undefined; outcome: Outcome }) {
  return (
    <Layout title="Publish a dataset release">
      <p class="crumbs">
        <a href="/account">Your account</a>
      </p>
      <h1>Publish a dataset release</h1>
      <p class="lede">
        A release holds everything published at the moment it is asked for, as one canonical JSON file that never
        changes. It is generated in the background; the next page follows it. <a href="/releases">The releases</a>
        {latest ? `: the latest is ${latest}.` : ": none yet."}
      </p>
      <Outcomes outcome={outcome} />
      <form class="panel" method="post" action="/account/releases">
        <label for="version">Version (MAJOR.MINOR.PATCH, e.g. 2026.11.0)</label>
        <input id="version" name="version" required maxlength={20} pattern={RELEASE_VERSION_PATTERN.slice(1, -1)} />
        <button type="submit">Publish</button>
      </form>
    </Layout>
  );
}

/** A release job: its state, its progress while generating, and its failure or its release. */
export function ReleaseJobPage({ job, reload }: { job: ReleaseJobView; reload: boolean }) {
  const working = WORKING.has(job.status);
  return (
    <Layout title={`Release ${job.version}`} refreshSeconds={working && reload ? RELOAD_SECONDS : undefined}>
      <p class="crumbs">
        <a href="/account/releases">Publish a dataset release</a>
      </p>
      <h1>Release {job.version}</h1>
      <p class="lede" id="job-status" aria-live="polite">
        {job.status === "queued" && "Queued: it starts when a generator is free."}
        {job.status === "generating" &&
          `Generating: ${count(job.itemsDone)} of ${job.itemsTotal === null ? "?" : count(job.itemsTotal)} read.`}
        {job.status === "published" && "Published."}
        {job.status === "failed" &&
          `Failed: ${job.failure ?? "no reason was recorded"}. Asking for the version again starts a new job.`}
      </p>
      {working && <ReloadControl reloading={reload} path={`/account/releases/jobs/${job.jobId}`} />}
      <dl class="facts">
        <dt>Cut at log position</dt>
        <dd>{job.position}</dd>
        <dt>Asked</dt>
        <dd>{minute(job.requestedAt)}</dd>
        {job.startedAt && (
          <>
            <dt>Started</dt>
            <dd>{minute(job.startedAt)}</dd>
          </>
        )}
        {job.finishedAt && (
          <>
            <dt>Finished</dt>
            <dd>{minute(job.finishedAt)}</dd>
          </>
        )}
        <dt>Attempts</dt>
        <dd>{job.attempts}</dd>
      </dl>
      {job.status === "published" && (
        <p>
          It is listed with its download and checksum on <a href="/releases">the releases page</a>.
        </p>
      )}
    </Layout>
  );
}
