import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { cricsheetIds } from "../../src/ingest/cricsheet/ids.js";
import { importCricsheet } from "../../src/ingest/cricsheet/import.js";
import { serverSecret } from "../../src/security/server-secret.js";
import { type DeliveryState, fixtureStream } from "../../streams/fixture.js";
import type { Person } from "./account-api.js";
import {
  correctionOf,
  openSubmissionApi,
  type SubmissionApi,
  type SubmittedEvent,
  submission,
  validEvents,
} from "./submissions.js";

/**
 * A ledger with every kind of provenance there is today: a real Cricsheet match imported,
 * then re-issued with one ball changed (a correction by the import); a direct JSON
 * submission and an uploaded one by the administrator (only administrators submit), one of
 * whose deliveries a submitter of the fixture's competition then corrects.
 */

export const MATCH = "1298152";
const matchFile = fileURLToPath(new URL(`../../samples/cricsheet/${MATCH}.json`, import.meta.url));

type CricsheetMeta = { data_version: string; created: string; revision: number };
type CricsheetBall = { runs: { batter: number; extras: number; total: number } };
type CricsheetMatch = { meta: CricsheetMeta; innings: { overs: { deliveries: CricsheetBall[] }[] }[] };

/** The match re-issued: revision 2, a new data version, and its first ball worth two more runs. */
function reissuedMatch(): { file: string; meta: CricsheetMeta } {
  const match = JSON.parse(readFileSync(matchFile, "utf8")) as CricsheetMatch;
  match.meta = { data_version: "1.1.1", created: "2023-01-15", revision: match.meta.revision + 1 };
  const ball = match.innings[0]?.overs[0]?.deliveries[0] as CricsheetBall;
  ball.runs = { batter: ball.runs.batter + 2, extras: ball.runs.extras, total: ball.runs.total + 2 };
  const dir = path.join(tmpdir(), `provenance-${randomBytes(6).toString("hex")}`);
  mkdirSync(dir);
  const file = path.join(dir, `${MATCH}.json`);
  writeFileSync(file, JSON.stringify(match));
  return { file, meta: match.meta };
}

export const sha256 = (bytes: string | Uint8Array) => createHash("sha256").update(bytes).digest("hex");

export type RevisionState = DeliveryState & { eventId: string; sequenceNumber: number };

export async function openProvenanceWorld() {
  // A server secret lets the administrator issue an API key, to show a key never authorises here.
  const api: SubmissionApi = await openSubmissionApi({ deps: { secret: serverSecret(randomBytes(32)) } });
  const store = api.world.store;
  const stream = (fixtureId: string) => store.readStream(fixtureStream(fixtureId));

  // The Cricsheet match, imported then re-issued.
  const originalMeta = (JSON.parse(readFileSync(matchFile, "utf8")) as CricsheetMatch).meta;
  expect((await importCricsheet(store, [matchFile])).failed).toEqual([]);
  const reissued = reissuedMatch();
  expect((await importCricsheet(store, [reissued.file])).revised).toBe(1);
  const matchFixtureId = cricsheetIds.fixture(MATCH);
  const matchEvents = await stream(matchFixtureId);
  const scheduled = matchEvents[0]?.data as { competitionId: string };

  // The direct submissions and a correction.
  const fixture = await api.aFixtureToSubmitTo();
  const submitter: Person = await api.aSubmitter(api.admin, fixture.competition.id);
  const events = validEvents(fixture, 5);
  const [sent, uploaded] = [events.slice(0, 2), events.slice(2)];
  const posted = await api.submit(submission(fixture, sent));
  expect(posted.status, posted.text).toBe(201);
  const uploadText = JSON.stringify(submission(fixture, uploaded));
  const upload = await api.upload(uploadText, "last-three.json", "application/json");
  expect(upload.status, upload.text).toBe(201);
  const corrected = uploaded[1] as SubmittedEvent;
  const correction = correctionOf(fixture, corrected, { runs: { offBat: 4, extras: 0, total: 4 } }, "four, not one");
  const put = await api.api.put(`/api/v1/submissions/events/${corrected.eventId}`, correction, {
    token: submitter.token,
  });
  expect(put.status, put.text).toBe(200);
  await api.world.catchUp();

  const submissionIdOf = (res: typeof posted) => (res.body as { data: { submissionId: string } }).data.submissionId;
  return {
    api,
    submitter,
    stream,
    match: {
      fixtureId: matchFixtureId,
      competitionId: scheduled.competitionId,
      events: matchEvents,
      originalMeta,
      reissuedMeta: reissued.meta,
    },
    direct: {
      fixture,
      sent,
      uploaded,
      uploadText,
      corrected,
      correction,
      postedId: submissionIdOf(posted),
      uploadedId: submissionIdOf(upload),
    },
  };
}
export type ProvenanceWorld = Awaited<ReturnType<typeof openProvenanceWorld>>;
