import { readFileSync } from "node:fs";
import { BatchValidator } from "../../src/batches/validator.js";
import { createLogger } from "../../src/http/logging.js";
import { importCricsheet } from "../../src/ingest/cricsheet/import.js";
import { mapMatch } from "../../src/ingest/cricsheet/map.js";
import { cricsheetMatchSchema } from "../../src/ingest/cricsheet/schema.js";
import { cricsheetFile } from "./cricsheet.js";
import { openSubmissionApi } from "./submissions.js";

/**
 * A batch package of a real Cricsheet match, its deliveries as the Cricsheet import records
 * them (same event ids, same content): people named as the match names them, every other
 * one by their register id instead, substitutes always by it; the fixture by its source id.
 */
export function cricsheetPackage(relative: string, { version = "1.1" as "1.0" | "1.1" } = {}) {
  const matchId = relative.replace(/^.*\//, "").replace(/\.json$/, "");
  const match = cricsheetMatchSchema.parse(JSON.parse(readFileSync(cricsheetFile(relative), "utf8")));
  const mapped = mapMatch(matchId, match);
  const people = new Map(mapped.participants.map((p) => [p.id, p]));
  let n = 0;
  const person = (id: string, bySourceId = n++ % 2 === 1) => {
    const p = people.get(id);
    if (!p) throw new Error(`no participant ${id}`);
    return bySourceId ? { sourceId: p.sourceIds[0] } : { context: { name: p.name } };
  };
  const teamById = new Map(mapped.teams.map((t) => [t.id, { context: { name: t.playedAs } }]));
  const { scheduled, innings, deliveries, outcome } = mapped.fixture;
  const winner = outcome.winnerId ? teamById.get(outcome.winnerId) : undefined;
  return {
    competitionId: mapped.competition.id,
    body: {
      contractVersion: version,
      packageId: `cricsheet-${matchId}`,
      competition: { context: { name: mapped.competition.name } },
      fixtures: [
        {
          sourceId: scheduled.source.sourceId,
          context: { date: scheduled.startDate, teams: mapped.teams.map((t) => ({ context: { name: t.playedAs } })) },
          ...(version === "1.1"
            ? {
                proposal: {
                  endDate: scheduled.endDate,
                  matchType: "T20",
                  teamType: scheduled.teamType,
                  gender: scheduled.gender,
                  ballsPerOver: scheduled.ballsPerOver,
                  outcome: { result: outcome.result, ...(winner ? { winner } : {}) },
                  sourceVersion: scheduled.source.dataVersion,
                  sourceRevision: scheduled.source.revision,
                },
              }
            : {}),
          innings: innings.map((inn) => ({
            context: { ordinal: inn.ordinal, battingTeam: teamById.get(inn.battingCompetitorId) },
            events: deliveries
              .filter((d) => d.inningsId === inn.inningsId)
              .map((d) => ({
                eventId: d.eventId,
                occurrenceSequence: d.sequenceNumber,
                overNumber: d.overNumber,
                positionInOver: d.positionInOver,
                ...(d.ballNumber ? { ballLabel: d.ballNumber } : {}),
                striker: person(d.strikerId),
                nonStriker: person(d.nonStrikerId),
                bowler: person(d.bowlerId),
                runs: d.runs,
                extras: d.extras,
                wickets: d.wickets.map((w) => ({
                  kind: w.kind,
                  playerOut: person(w.playerOutId),
                  fielders: w.fielders.map((f) => ({
                    participant: person(f.participantId, f.substitute || undefined),
                    substitute: f.substitute,
                  })),
                })),
              })),
          })),
        },
      ],
    },
  };
}

/**
 * The submission API with `match` imported (so its deliveries are published), a submitter
 * of its competition, and a batch validator to drain by hand.
 */
export async function openWithMatch(match: string) {
  const api = await openSubmissionApi();
  const summary = await importCricsheet(api.world.store, [cricsheetFile(match)]);
  if (summary.failed.length > 0) throw new Error(`${match} did not import: ${JSON.stringify(summary.failed)}`);
  await api.world.catchUp();
  const submitter = await api.aSubmitter(api.admin, cricsheetPackage(match).competitionId);
  const validator = new BatchValidator({ sql: api.db.sql, store: api.world.store, logger: createLogger("silent") });
  return { api, submitter, validator };
}
