import { aggregate, type PlayerAggregate, type ScopedLine } from "./aggregate.js";
import type { KeptLine } from "./player-lines.js";

export type PlayerStatisticsScope = { type: "season" | "competition" | "career"; id: string };

/** A player's stored innings line, with its fixture, competition and season. */
export type LineRow = {
  participant_id: string;
  fixture_id: string;
  competition_id: string;
  season_id: string;
  balls_per_over: number;
  line: KeptLine;
};
/** A fixture a player was named in. */
export type FixtureRow = { participant_id: string; fixture_id: string; competition_id: string; season_id: string };

/**
 * Every scope's aggregate for each player: their career, each competition and each season
 * they played in, or only the scopes `within` accepts (the ones a change touched). A match is
 * credited to the players named in a side (the squad), never to a substitute fielder, who has
 * no line either (`playerLines`): a player seen in a scope only as a substitute has no
 * aggregate there.
 */
export function playerAggregates(
  participantIds: readonly string[],
  lines: readonly LineRow[],
  fixtures: readonly FixtureRow[],
  within: (scope: PlayerStatisticsScope) => boolean = () => true,
): { participantId: string; scope: PlayerStatisticsScope; figures: PlayerAggregate }[] {
  const linesOf = groupBy(lines, (l) => l.participant_id);
  const fixturesOf = groupBy(fixtures, (f) => f.participant_id);
  return participantIds.flatMap((participantId) => {
    const own = linesOf.get(participantId) ?? [];
    const named = fixturesOf.get(participantId) ?? [];
    const scopes: PlayerStatisticsScope[] = [
      { type: "career", id: "" },
      ...[...new Set([...own, ...named].map((r) => r.competition_id))].map((id) => ({
        type: "competition" as const,
        id,
      })),
      ...[...new Set([...own, ...named].map((r) => r.season_id))].map((id) => ({ type: "season" as const, id })),
    ];
    return scopes.filter(within).map((scope) => {
      const inScope = (r: { competition_id: string; season_id: string }) =>
        scope.type === "career" ||
        (scope.type === "competition" ? r.competition_id === scope.id : r.season_id === scope.id);
      const scoped: ScopedLine[] = own
        .filter(inScope)
        // The line spread last: a literal that starts with a spread and goes on is built slowly
        // (and read slowly after), a tenth of a statistics catch-up's JavaScript here.
        .map((r) => ({ fixtureId: r.fixture_id, ballsPerOver: r.balls_per_over, ...r.line }));
      const matches = new Set(named.filter(inScope).map((r) => r.fixture_id)).size;
      return { participantId, scope, figures: aggregate(scoped, matches) };
    });
  });
}

function groupBy<T>(rows: readonly T[], keyOf: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}
