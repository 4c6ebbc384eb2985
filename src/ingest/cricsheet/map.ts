import type {
  DeliveryRecorded,
  FixtureScheduled,
  InningsOpened,
  OutcomeRecorded,
  SquadNamed,
  TossRecorded,
} from "../../../streams/fixture.js";
import type { EventData } from "../../../streams/types.js";
import { cricsheetIds, cricsheetSource } from "./ids.js";
import { competitionName, ground, teamName } from "./names.js";
import type { CricsheetMatch } from "./schema.js";

export type NamedEntity = { id: string; name: string; sourceIds: string[] };

/** Everything one Cricsheet match file says, in our vocabulary. */
export type MatchImport = {
  matchId: string;
  competition: NamedEntity & { spelledAs: string };
  season: { id: string; competitionId: string; label: string };
  teams: (NamedEntity & { playedAs: string; teamType: "club" | "international"; gender: "male" | "female" })[];
  venue: (NamedEntity & { spelledAs: string; city: string | null }) | null;
  participants: (NamedEntity & { registerId: string })[];
  dismissalKinds: string[];
  fixture: FixtureContent;
};

export type FixtureContent = {
  /** Always with its source: a re-import compares source revisions. */
  scheduled: EventData<typeof FixtureScheduled> & { source: NonNullable<EventData<typeof FixtureScheduled>["source"]> };
  squads: EventData<typeof SquadNamed>[];
  toss: EventData<typeof TossRecorded> | null;
  innings: EventData<typeof InningsOpened>[];
  deliveries: EventData<typeof DeliveryRecorded>[];
  outcome: EventData<typeof OutcomeRecorded>;
};

export class UnmappableMatch extends Error {
  override readonly name = "UnmappableMatch";
}

export function mapMatch(matchId: string, match: CricsheetMatch): MatchImport {
  const { info, meta } = match;
  const person = (name: string) => {
    const registerId = info.registry.people[name];
    if (!registerId) throw new UnmappableMatch(`"${name}" has no Cricsheet register id`);
    return cricsheetIds.participant(registerId);
  };

  const eventName = info.event?.name ?? `${info.teams[0]} v ${info.teams[1]}`;
  const competitionTitle = competitionName(eventName);
  const competitionId = cricsheetIds.competition(info.gender, competitionTitle);
  const teams = info.teams.map((playedAs) => {
    const name = teamName(playedAs);
    return {
      id: cricsheetIds.team(info.gender, info.team_type, name),
      name,
      playedAs,
      teamType: info.team_type,
      gender: info.gender,
      sourceIds: [cricsheetSource.team(name)],
    };
  });
  const teamId = (name: string) => {
    const team = teams.find((t) => t.playedAs === name);
    if (!team) throw new UnmappableMatch(`"${name}" is not one of the match's teams`);
    return team.id;
  };
  const otherTeamId = (name: string) => (teams.find((t) => t.playedAs !== name) ?? teams[0])?.id as string;
  const venue = info.venue ? ground(info.venue, info.city) : null;
  const venueId = venue ? cricsheetIds.venue(venue.key) : null;
  const fixtureId = cricsheetIds.fixture(matchId);

  const takingPart = new Set([...Object.values(info.players).flat(), ...namesInPlay(match)]);
  const participants = Object.entries(info.registry.people)
    .filter(([name]) => takingPart.has(name))
    .map(([name, registerId]) => ({
      id: cricsheetIds.participant(registerId),
      name,
      registerId,
      sourceIds: [cricsheetSource.participant(registerId)],
    }));

  const innings = match.innings.map(
    (inn, index): EventData<typeof InningsOpened> => ({
      inningsId: cricsheetIds.innings(matchId, index),
      ordinal: index,
      battingCompetitorId: teamId(inn.team),
      bowlingCompetitorId: otherTeamId(inn.team),
      superOver: inn.super_over ?? false,
      target: inn.target ? { runs: inn.target.runs, overs: inn.target.overs ?? null } : null,
      declared: inn.declared ?? false,
      forfeited: inn.forfeited ?? false,
      penaltyRuns: { pre: inn.penalty_runs?.pre ?? 0, post: inn.penalty_runs?.post ?? 0 },
      absentHurtIds: (inn.absent_hurt ?? []).map(person),
      miscountedOvers: Object.entries(inn.miscounted_overs ?? {}).map(([over, { balls }]) => ({
        overNumber: Number(over),
        balls,
      })),
    }),
  );

  const deliveries = match.innings.flatMap((inn, inningsIndex) => {
    let sequence = 0;
    return inn.overs.flatMap(({ over, deliveries: balls }) => {
      let legalBefore = 0;
      return balls.map((ball, positionInOver): EventData<typeof DeliveryRecorded> => {
        sequence += 1;
        const extras = ball.extras ?? {};
        const mapped: EventData<typeof DeliveryRecorded> = {
          eventId: cricsheetIds.delivery(matchId, inningsIndex, sequence),
          inningsId: cricsheetIds.innings(matchId, inningsIndex),
          sequenceNumber: sequence,
          overNumber: over,
          positionInOver,
          ballNumber: `${over}.${legalBefore + 1}`,
          strikerId: person(ball.batter),
          nonStrikerId: person(ball.non_striker),
          bowlerId: person(ball.bowler),
          runs: {
            offBat: ball.runs.batter,
            extras: ball.runs.extras,
            total: ball.runs.total,
            ...(ball.runs.non_boundary ? { nonBoundary: true } : {}),
          },
          extras: {
            ...(extras.wides !== undefined ? { wides: extras.wides } : {}),
            ...(extras.noballs !== undefined ? { noBalls: extras.noballs } : {}),
            ...(extras.byes !== undefined ? { byes: extras.byes } : {}),
            ...(extras.legbyes !== undefined ? { legByes: extras.legbyes } : {}),
            ...(extras.penalty !== undefined ? { penalty: extras.penalty } : {}),
          },
          wickets: (ball.wickets ?? []).map((w) => ({
            kind: w.kind,
            playerOutId: person(w.player_out),
            fielders: (w.fielders ?? []).flatMap((f) =>
              f.name ? [{ participantId: person(f.name), substitute: f.substitute ?? false }] : [],
            ),
          })),
          submissionId: null,
        };
        if (!extras.wides && !extras.noballs) legalBefore += 1;
        return mapped;
      });
    });
  });

  return {
    matchId,
    competition: {
      id: competitionId,
      name: competitionTitle,
      spelledAs: eventName,
      sourceIds: [cricsheetSource.competition(competitionTitle)],
    },
    season: { id: cricsheetIds.season(competitionId, info.season), competitionId, label: info.season },
    teams,
    venue:
      venue && venueId && info.venue
        ? {
            id: venueId,
            name: venue.name,
            spelledAs: info.venue,
            city: info.city ?? null,
            sourceIds: [cricsheetSource.venue(venue.name)],
          }
        : null,
    participants,
    dismissalKinds: [...new Set(deliveries.flatMap((d) => d.wickets.map((w) => w.kind)))],
    fixture: {
      scheduled: {
        fixtureId,
        competitionId,
        seasonId: cricsheetIds.season(competitionId, info.season),
        venueId,
        competitors: teams.map((t) => ({ competitorId: t.id, name: t.playedAs })),
        startDate: info.dates[0] as string,
        endDate: info.dates.at(-1) as string,
        matchType: info.match_type,
        teamType: info.team_type,
        gender: info.gender,
        ballsPerOver: info.balls_per_over,
        oversPerInnings: info.overs ?? null,
        stage: info.event?.stage ?? null,
        matchNumber: info.event?.match_number ?? null,
        source: {
          sourceId: cricsheetSource.fixture(matchId),
          revision: meta.revision,
          dataVersion: meta.data_version,
          createdOn: meta.created,
        },
      },
      squads: teams.map((t) => ({ competitorId: t.id, participantIds: (info.players[t.playedAs] ?? []).map(person) })),
      toss: info.toss ? { winnerId: teamId(info.toss.winner), decision: info.toss.decision } : null,
      innings,
      deliveries,
      outcome: mapOutcome(info.outcome, teamId, (info.player_of_match ?? []).map(person)),
    },
  };
}

function mapOutcome(
  outcome: CricsheetMatch["info"]["outcome"],
  teamId: (name: string) => string,
  playerOfMatchIds: string[],
): EventData<typeof OutcomeRecorded> {
  const tieBreakWinner = outcome.eliminator ?? outcome.bowl_out;
  return {
    result: outcome.winner ? "won" : (outcome.result ?? "no result"),
    winnerId: outcome.winner ? teamId(outcome.winner) : null,
    by: outcome.by ? { ...outcome.by } : null,
    method: outcome.method ?? null,
    tieBreakWinnerId: tieBreakWinner ? teamId(tieBreakWinner) : null,
    tieBreak: outcome.eliminator ? "super over" : outcome.bowl_out ? "bowl-out" : null,
    playerOfMatchIds,
  };
}

/** Everyone named in the innings; registry entries also cover umpires and referees. */
function namesInPlay(match: CricsheetMatch): string[] {
  return match.innings.flatMap((inn) => [
    ...(inn.absent_hurt ?? []),
    ...inn.overs.flatMap((o) =>
      o.deliveries.flatMap((d) => [
        d.batter,
        d.non_striker,
        d.bowler,
        ...(d.wickets ?? []).flatMap((w) => [
          w.player_out,
          ...(w.fielders ?? []).flatMap((f) => (f.name ? [f.name] : [])),
        ]),
      ]),
    ),
  ]);
}
