import { type Completeness, completeness } from "./completeness.js";
import { type InningsCard, type InningsInput, inningsCard } from "./innings-card.js";
import { type PlayerInningsLine, playerLines } from "./player-lines.js";
import type { Delivery } from "./rules.js";

export type Outcome = {
  result: "won" | "tie" | "draw" | "no result";
  winnerId: string | null;
  by: { runs?: number; wickets?: number; innings?: number } | null;
  method: string | null;
  tieBreak: string | null;
  tieBreakWinnerId: string | null;
};

export type FixtureStatisticsInput = {
  fixture_id: string;
  ballsPerOver: number;
  competitors: { competitorId: string; name: string }[];
  squads: Record<string, string[]>;
  outcome: unknown;
  innings: readonly InningsInput[];
  deliveries: readonly Delivery[];
  name: (participantId: string) => string;
};

export type FixtureStatistics = {
  fixtureId: string;
  completeness: Completeness;
  result: (Outcome & { summary: string }) | null;
  innings: (InningsCard & { statisticId: string; battingCompetitorName: string })[];
};

/**
 * Every statistic of one fixture: a card per innings (super overs included and flagged),
 * the target where it follows from the scores, the result in words, whether the data is
 * complete, and each player's innings lines for the aggregates.
 */
export function fixtureStatistics(input: FixtureStatisticsInput): {
  statistics: FixtureStatistics;
  lines: PlayerInningsLine[];
} {
  const team = (id: string | null) => input.competitors.find((c) => c.competitorId === id)?.name ?? id ?? "";
  const cards = input.innings.map((innings) => {
    const deliveries = input.deliveries.filter((d) => d.inningsId === innings.inningsId);
    return {
      card: inningsCard(
        innings,
        deliveries,
        input.ballsPerOver,
        input.squads[innings.battingCompetitorId] ?? [],
        input.name,
      ),
      deliveries,
    };
  });
  withTargets(cards.map((c) => c.card));
  const outcome = input.outcome as Outcome | null;
  return {
    statistics: {
      fixtureId: input.fixture_id,
      completeness: completeness(input.innings, input.deliveries, input.ballsPerOver, outcome?.result ?? null),
      result: outcome ? { ...outcome, summary: resultInWords(outcome, team) } : null,
      innings: cards.map(({ card }) => ({
        ...card,
        statisticId: `innings-${card.ordinal}`,
        battingCompetitorName: team(card.battingCompetitorId),
      })),
    },
    lines: cards.flatMap(({ card, deliveries }) => playerLines(card, deliveries)),
  };
}

/**
 * The target of a chasing innings when the source gave none: the last regular innings of a
 * two- or four-innings match, and the second innings of a super over, need one run more
 * than the other side's lead.
 */
function withTargets(cards: InningsCard[]) {
  for (const group of [cards.filter((c) => !c.superOver), cards.filter((c) => c.superOver)]) {
    const chase = group.at(-1);
    if (!chase || chase.target || (group.length !== 2 && group.length !== 4)) continue;
    const runsOf = (side: string) =>
      group.filter((c) => c !== chase && c.battingCompetitorId === side).reduce((n, c) => n + c.total.runs, 0);
    chase.target = { runs: runsOf(chase.bowlingCompetitorId) - runsOf(chase.battingCompetitorId) + 1, overs: null };
  }
}

export function resultInWords(outcome: Outcome, team: (id: string | null) => string): string {
  const method = outcome.method ? ` (${outcome.method})` : "";
  switch (outcome.result) {
    case "won": {
      const by = outcome.by;
      const margin = by?.innings
        ? `by an innings and ${by.runs ?? 0} runs`
        : by?.runs !== undefined
          ? `by ${by.runs} run${by.runs === 1 ? "" : "s"}`
          : by?.wickets !== undefined
            ? `by ${by.wickets} wicket${by.wickets === 1 ? "" : "s"}`
            : "";
      return `${team(outcome.winnerId)} won ${margin}${method}`.replace(/\s+/g, " ").trim();
    }
    case "tie":
      return outcome.tieBreakWinnerId
        ? `Match tied; ${team(outcome.tieBreakWinnerId)} won the ${outcome.tieBreak}`
        : "Match tied";
    case "draw":
      return "Match drawn";
    default:
      return `No result${method}`;
  }
}
