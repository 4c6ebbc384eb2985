import { z } from "@hono/zod-openapi";
import { SAMPLE } from "../../ingest/sample-ids.js";
import { METRICS, rankingRule } from "../../statistics/leaderboards.js";
import { competitionRef, nullableRef, participantRef } from "./reference.js";

/**
 * Participant aggregates (season, competition, career) and leaderboards. Super overs never
 * count. Rates are rounded half away from zero to 2 decimals, null without a divisor, and
 * always published beside the figures they come from.
 */
const count = (description: string, example: number) => z.number().int().min(0).openapi({ description, example });
const rate = (description: string, example: number) =>
  z
    .number()
    .nullable()
    .openapi({
      description: `${description} Rounded half away from zero to 2 decimals; null when the divisor is 0.`,
      example,
    });

export const aggregateScopeSchema = z
  .object({
    type: z
      .enum(["season", "competition", "career"])
      .openapi({ description: "What the figures cover.", example: "season" }),
    id: z.string().nullable().openapi({
      description: "The season or competition id; null for a career.",
      example: "9f1a0c2e-season",
    }),
    name: z.string().nullable().openapi({
      description: "The season's display name or the competition's name; null for a career.",
      example: "2016",
    }),
    competition: nullableRef(competitionRef, "For a season, the competition it belongs to."),
  })
  .openapi("StatisticsScope");

export const battingFiguresSchema = z
  .object({
    innings: count("Innings batted (on strike or at the non-striker's end on any delivery, or out).", 16),
    notOuts: count("Innings not dismissed (retired hurt and retired not out included).", 4),
    dismissals: count("Innings dismissed: innings − notOuts.", 12),
    runs: count("Runs off the bat.", 973),
    balls: count("Balls faced (wides excluded, no-balls included).", 640),
    highestScore: z.string().nullable().openapi({ description: "Highest score, `*` when not out.", example: "113" }),
    average: rate("runs ÷ dismissals.", 81.08),
    strikeRate: rate("100 × runs ÷ balls.", 152.03),
    fifties: count("Innings of 50 to 99.", 7),
    hundreds: count("Innings of 100 or more.", 4),
    ducks: count("Dismissed for 0.", 0),
    fours: count("Fours off the bat.", 83),
    sixes: count("Sixes off the bat.", 38),
  })
  .openapi("BattingFigures");

export const bowlingFiguresSchema = z
  .object({
    innings: count("Innings bowled in.", 17),
    balls: count("Legal balls bowled.", 372),
    overs: z.string().openapi({ description: "Legal balls as `<overs>.<balls>`.", example: "62.0" }),
    maidens: count("Maidens.", 0),
    runs: count("Runs conceded (off the bat, wides and no-balls).", 490),
    wickets: count("Wickets credited to the bowler.", 23),
    bestFigures: z
      .string()
      .nullable()
      .openapi({ description: "Most wickets, then fewest runs: `4/29`.", example: "4/29" }),
    average: rate("runs ÷ wickets.", 21.3),
    economy: rate("Runs per over.", 7.9),
    strikeRate: rate("balls ÷ wickets.", 16.17),
    fourWickets: count("Innings with exactly 4 wickets.", 1),
    fiveWickets: count("Innings with 5 or more wickets.", 0),
  })
  .openapi("BowlingFigures");

export const fieldingFiguresSchema = z
  .object({
    catches: count("Catches, caught and bowled included.", 8),
    stumpings: count("Stumpings.", 0),
    runOuts: count("Run outs the player is named in.", 1),
  })
  .openapi("FieldingFigures");

export const participantAggregateSchema = z
  .object({
    statisticId: z.string().openapi({
      description: "Stable id: `career`, `season-<seasonId>` or `competition-<competitionId>`.",
      example: "career",
    }),
    participant: participantRef,
    scope: aggregateScopeSchema,
    matches: count("Fixtures the player was named in or appeared in.", 16),
    batting: battingFiguresSchema,
    bowling: bowlingFiguresSchema,
    fielding: fieldingFiguresSchema,
  })
  .openapi("ParticipantAggregate");

export const leaderboardScopeSchema = aggregateScopeSchema
  .extend({
    type: z.enum(["season", "competition"]).openapi({ description: "Season or competition.", example: "season" }),
  })
  .openapi("LeaderboardScope");

const leaderboardBattingFigures = z
  .object({
    matches: count("Fixtures played in the scope.", 16),
    innings: count("Innings batted.", 16),
    notOuts: count("Innings not dismissed.", 4),
    dismissals: count("Innings dismissed.", 12),
    runs: count("Runs off the bat.", 973),
    balls: count("Balls faced.", 640),
    average: rate("runs ÷ dismissals.", 81.08),
    strikeRate: rate("100 × runs ÷ balls.", 152.03),
    highestScore: z.string().nullable().openapi({ description: "Highest score, `*` when not out.", example: "113" }),
    fifties: count("Innings of 50 to 99.", 7),
    hundreds: count("Innings of 100 or more.", 4),
    fours: count("Fours.", 83),
    sixes: count("Sixes.", 38),
  })
  .openapi("LeaderboardBattingFigures");

const leaderboardBowlingFigures = z
  .object({
    matches: count("Fixtures played in the scope.", 17),
    innings: count("Innings bowled in.", 17),
    balls: count("Legal balls bowled.", 372),
    overs: z.string().openapi({ description: "Legal balls as `<overs>.<balls>`.", example: "62.0" }),
    maidens: count("Maidens.", 0),
    runsConceded: count("Runs conceded.", 490),
    wickets: count("Wickets.", 23),
    average: rate("runsConceded ÷ wickets.", 21.3),
    economy: rate("Runs conceded per over.", 7.9),
    strikeRate: rate("balls ÷ wickets.", 16.17),
    bestFigures: z.string().nullable().openapi({ description: "Best innings figures.", example: "4/29" }),
    fourWickets: count("Innings with exactly 4 wickets.", 1),
    fiveWickets: count("Innings with 5 or more wickets.", 0),
  })
  .openapi("LeaderboardBowlingFigures");

export const leaderboardRowSchema = z
  .object({
    rank: z.number().int().positive().openapi({
      description:
        "1-based position in standard competition ranking (1, 2, 2, 4): players level on the value and on every cricket tie-break in `ranking.tieBreaks` share a rank, their rows ordered by name, then participant id.",
      example: 1,
    }),
    participantId: z.string().openapi({ description: "Stable participant id.", example: SAMPLE.participantId }),
    participantName: z.string().openapi({ description: "Registered name.", example: "V Kohli" }),
    value: z.number().openapi({
      description: "The metric: a whole number for totals, the rate rounded half away from zero to 2 decimals.",
      example: 973,
    }),
    figures: z.union([leaderboardBattingFigures, leaderboardBowlingFigures]).openapi({
      description:
        "The figures behind the value: batting figures for batting metrics, bowling figures for bowling ones.",
    }),
  })
  .openapi("LeaderboardRow");

export const leaderboardSchema = z
  .object({
    data: z.array(leaderboardRowSchema).openapi({ description: "The table, best first." }),
    metric: z.enum(METRICS).openapi({ description: "The metric ranked.", example: "most_runs" }),
    description: z.string().openapi({ description: "What the metric measures.", example: "Runs scored off the bat" }),
    scope: leaderboardScopeSchema,
    qualification: z
      .object({
        description: z.string().openapi({
          description: "The rule in words.",
          example: "At least 5 batting innings in the season, and at least one dismissal.",
        }),
        figure: z.string().openapi({ description: "The figure it sets a minimum on.", example: "battingInnings" }),
        minimum: count("The minimum.", 5),
      })
      .openapi("LeaderboardQualification", { description: "Who may appear in the table." }),
    ranking: z
      .object({
        order: z
          .enum(["descending", "ascending"])
          .openapi({ description: "Best is highest or lowest.", example: "descending" }),
        tieBreaks: z.array(z.string()).openapi({
          description:
            "How equal values are ordered, in turn: the cricket figures that rank, then the name and id that only order rows of a shared rank.",
          example: rankingRule("most_runs").tieBreaks,
        }),
      })
      .openapi("LeaderboardRanking"),
    limit: z.number().int().min(1).max(50).openapi({ description: "Rows asked for (1 to 50).", example: 10 }),
    provenance: z.string().openapi({
      description:
        "Where a row's figures come from: the provenance of its participant's aggregate, the part the metric ranks (protected: an administrator, or a submitter in the competition), with `{participantId}` to fill from the row.",
      example: "/api/v1/provenance/participants/{participantId}/statistics/season-ipl-2016?part=batting",
    }),
  })
  .openapi("Leaderboard");

export type ParticipantAggregate = z.infer<typeof participantAggregateSchema>;
export type AggregateScope = z.infer<typeof aggregateScopeSchema>;
export type LeaderboardRow = z.infer<typeof leaderboardRowSchema>;
