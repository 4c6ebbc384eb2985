import type { Fixture } from "../read-api/schemas/fixture.js";
import { resultInWords } from "../statistics/fixture-statistics.js";

/** The result in words, as the fixture's statistics say it ("Sunrisers Hyderabad won by 8 runs"). */
export function resultOf({ outcome, competitors }: Pick<Fixture, "outcome" | "competitors">): string {
  if (!outcome) return "";
  const name = (id: string | null) => competitors.find((c) => c.competitorId === id)?.name ?? "";
  const { winner, tieBreakWinner, by, ...rest } = outcome;
  return resultInWords(
    {
      ...rest,
      by: by ?? null,
      winnerId: winner?.competitorId ?? null,
      tieBreakWinnerId: tieBreakWinner?.competitorId ?? null,
    },
    name,
  );
}
