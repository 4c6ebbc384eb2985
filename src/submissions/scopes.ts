import type { DeliveryState } from "../../streams/fixture.js";
import { peopleIn } from "../../streams/fixture-state.js";

/** A statistics scope a change touches, with the path its statistics are read at. */
export type RefreshScope =
  | { scope: "fixture"; fixtureId: string; path: string }
  | { scope: "season"; participantId: string; seasonId: string; path: string }
  | { scope: "competition"; participantId: string; competitionId: string; path: string }
  | { scope: "career"; participantId: string; path: string };

/**
 * What the scopes depend on besides the states: the fixture's season and competition (null
 * before it is scheduled) and which innings are super overs. A command's fixture state is
 * one; the delivery history projector keeps its own.
 */
export type ScopeFacts = {
  scheduled: { seasonId: string; competitionId: string } | null;
  innings: ReadonlyMap<string, { superOver: boolean }>;
};

/**
 * The scopes whose statistics depend on a delivery's old and new states: the fixture, and
 * the season, competition and career aggregates of everyone in either state. Super overs
 * never count in player aggregates, so a delivery in one touches only the fixture.
 */
export function refreshedScopes(fixtureId: string, fixture: ScopeFacts, states: DeliveryState[]): RefreshScope[] {
  const scopes: RefreshScope[] = [
    { scope: "fixture", fixtureId, path: `/api/v1/fixtures/${encodeURIComponent(fixtureId)}/statistics` },
  ];
  const scheduled = fixture.scheduled;
  if (!scheduled) return scopes;
  const counted = states.filter((d) => fixture.innings.get(d.inningsId)?.superOver === false);
  for (const participantId of [...new Set(counted.flatMap(peopleIn))].sort()) {
    const base = `/api/v1/participants/${encodeURIComponent(participantId)}/statistics`;
    scopes.push(
      {
        scope: "season",
        participantId,
        seasonId: scheduled.seasonId,
        path: `${base}/season-${encodeURIComponent(scheduled.seasonId)}`,
      },
      {
        scope: "competition",
        participantId,
        competitionId: scheduled.competitionId,
        path: `${base}/competition-${encodeURIComponent(scheduled.competitionId)}`,
      },
      { scope: "career", participantId, path: `${base}/career` },
    );
  }
  return scopes;
}
