import { createHash, randomUUID } from "node:crypto";
import type { BearerClient } from "./account-api.js";
import type { CompetitionBuilder, FixtureBuilder, TeamBuilder } from "./cricket-builders.js";
import type { SubmittedEvent } from "./submission-events.js";

/** A batch package for `competition`, named by its canonical id and its name; `overrides` replace fields of it. */
export const aPackage = (
  competition: Pick<CompetitionBuilder, "id" | "name">,
  overrides: Record<string, unknown> = {},
) => ({
  contractVersion: "1.1",
  packageId: `package-${randomUUID().slice(0, 8)}`,
  competition: { sourceId: `app:competition:${competition.id}`, context: { name: competition.name } },
  fixtures: [],
  ...overrides,
});

/** POST /batches as `token` under `key` (a new one unless given); a string or bytes are sent as they are. */
export const sendBatch = (
  api: BearerClient,
  body: unknown,
  { token, key = randomUUID(), type = "application/json" }: { token?: string; key?: string | null; type?: string },
) =>
  api.post("/api/v1/batches", typeof body === "string" || body instanceof Uint8Array ? body : JSON.stringify(body), {
    token,
    headers: { "content-type": type, ...(key === null ? {} : { "idempotency-key": key }) },
  });

export type ApiBatch = {
  batchReference: string;
  packageId: string;
  contractVersion: string;
  competitionId: string;
  submittedBy: string;
  status: string;
  checksum: string;
  fileCount: number;
  byteCount: number;
  receivedAt: string;
  updatedAt: string;
  links: { status: string; report: string };
};

/** A package event for `event` of `fixture`, every person named as the squads name them. */
export function packageEventOf(fixture: FixtureBuilder, event: SubmittedEvent): Record<string, unknown> {
  const people = new Map(
    [fixture.home, fixture.away].flatMap((team) => team.players.map((p) => [p.id, p.name] as const)),
  );
  const named = (id: string) => ({ context: { name: people.get(id) ?? id } });
  return {
    eventId: event.eventId,
    occurrenceSequence: event.sequenceNumber,
    overNumber: event.overNumber,
    positionInOver: event.positionInOver,
    ...(event.ballNumber ? { ballLabel: event.ballNumber } : {}),
    striker: named(event.strikerId),
    nonStriker: named(event.nonStrikerId),
    bowler: named(event.bowlerId),
    runs: event.runs,
    extras: event.extras,
    wickets: event.wickets.map((w) => ({
      kind: w.kind,
      playerOut: named(w.playerOutId),
      fielders: w.fielders.map((f) => ({ participant: named(f.participantId), substitute: f.substitute })),
    })),
  };
}

/** A 1.1 package of `events` of innings `ordinal` of `fixture`, found by its date and teams' names. */
export function aPackageOf(fixture: FixtureBuilder, events: SubmittedEvent[], { ordinal = 0 } = {}) {
  const innings = fixture.innings[ordinal];
  if (!innings) throw new Error(`innings ${ordinal} is not open`);
  const team = (t: TeamBuilder) => ({ context: { name: t.name } });
  return aPackage(fixture.season.competition, {
    fixtures: [
      {
        sourceId: `app:fixture:${fixture.id}`,
        context: { date: fixture.startDate, teams: [team(fixture.home), team(fixture.away)] },
        proposal: {
          endDate: fixture.endDate,
          matchType: "T20",
          teamType: "club",
          gender: "male",
          ballsPerOver: 6,
          outcome: { result: "won", winner: team(fixture.home) },
          sourceVersion: "1.1.0",
          sourceRevision: 1,
        },
        innings: [
          {
            context: { ordinal, battingTeam: team(innings.batting) },
            events: events.map((e) => packageEventOf(fixture, e)),
          },
        ],
      },
    ],
  });
}

export type Part = { path: string; content: string | Uint8Array; type?: string };

/** A manifest of `parts` (their SHA-256 as they are, unless `overrides` say otherwise) with the package's head. */
export const aManifest = (
  head: Record<string, unknown>,
  parts: readonly Part[],
  overrides: (entry: Record<string, unknown>, i: number) => Record<string, unknown> = (e) => e,
) => ({
  ...head,
  files: parts.map((p, i) =>
    overrides(
      {
        path: p.path,
        mediaType: p.type ?? "application/json",
        sha256: createHash("sha256").update(p.content).digest("hex"),
      },
      i,
    ),
  ),
});

/** POST /batches as multipart/form-data: the manifest, then each part in `files` under its path. */
export function sendParts(
  api: BearerClient,
  manifest: unknown,
  parts: readonly Part[],
  { token, key = randomUUID() }: { token?: string; key?: string },
) {
  const form = new FormData();
  form.append("manifest", typeof manifest === "string" ? manifest : JSON.stringify(manifest));
  for (const part of parts)
    form.append("files", new File([part.content], part.path, { type: part.type ?? "application/json" }));
  return api.post("/api/v1/batches", form, { token, headers: { "idempotency-key": key } });
}
