import { z } from "@hono/zod-openapi";
import { SAMPLE } from "../../ingest/sample-ids.js";
import {
  batterLineSchema,
  battingCardSchema,
  bowlerLineSchema,
  bowlingCardSchema,
  contributors,
  count,
  extrasStatisticSchema,
  fallOfWicketsSchema,
  inningsStatisticSchema,
  oversStatisticSchema,
  partnershipsSchema,
  statisticId,
  totalStatisticSchema,
  type,
} from "./innings-statistics.js";
import { competitorRef, nullableRef } from "./reference.js";

/**
 * The fixture statistics document: a tree of statistics, each with a stable `statisticId`
 * (readable on its own at `/statistics/{statisticId}`) and a `type`. Every rate is rounded
 * half away from zero to two decimals and published beside the exact figures it comes from.
 */
export const resultStatisticSchema = z
  .object({
    statisticId: statisticId("result"),
    type: type("result"),
    result: z
      .enum(["won", "tie", "draw", "no result"])
      .nullable()
      .openapi({ description: "How the fixture ended; null while no result is recorded.", example: "won" }),
    winner: nullableRef(competitorRef, "The winner when `result` is `won`."),
    by: z
      .object({
        runs: count("Margin in runs.", 1).optional(),
        wickets: count("Margin in wickets.", 5).optional(),
        innings: count("Won by an innings (and `runs`).", 1).optional(),
      })
      .nullable()
      .openapi({ description: "Margin of a win.", example: { runs: 1 } }),
    method: z.string().nullable().openapi({ description: "e.g. `D/L` or `Awarded`.", example: null }),
    tieBreak: z.string().nullable().openapi({ description: "How a tie was broken, e.g. `super over`.", example: null }),
    tieBreakWinner: nullableRef(competitorRef, "Who won the tie-break."),
    summary: z.string().nullable().openapi({
      description: "The result in words; null while no result is recorded.",
      example: "New Zealand won by 1 run",
    }),
    ...contributors,
  })
  .openapi("ResultStatistic");

export const completenessStatisticSchema = z
  .object({
    statisticId: statisticId("completeness"),
    type: type("completeness"),
    state: z.enum(["complete", "incomplete"]).openapi({
      description: "Whether the ledger holds every ball of the fixture as far as can be told.",
      example: "complete",
    }),
    issues: z
      .array(
        z.object({
          code: z
            .enum(["SEQUENCE_GAP", "MISSING_OVERS", "SHORT_OVER", "EMPTY_INNINGS", "NO_INNINGS"])
            .openapi({ description: "What is missing.", example: "SEQUENCE_GAP" }),
          inningsId: z
            .string()
            .nullable()
            .openapi({ description: "The innings concerned.", example: SAMPLE.inningsId }),
          message: z
            .string()
            .openapi({ description: "Readable explanation.", example: "innings 0 is missing 1 occurrence(s)" }),
        }),
      )
      .openapi({
        description:
          "Why it is incomplete: a gap in an innings' occurrence sequence, overs without deliveries, a short over that is not the innings' last (nor one the umpires ended early), an innings without deliveries that was not forfeited, or a result without innings.",
      }),
    ...contributors,
  })
  .openapi("CompletenessStatistic");

export const fixtureStatisticsSchema = z
  .object({
    fixtureId: z.string().openapi({ description: "The fixture.", example: SAMPLE.fixtureId }),
    completeness: completenessStatisticSchema,
    result: resultStatisticSchema,
    innings: z.array(inningsStatisticSchema).openapi({ description: "Every innings in order, super overs included." }),
  })
  .openapi("FixtureStatistics");

/** Any single statistic, told apart by `type`. */
export const anyStatisticSchema = z
  .discriminatedUnion("type", [
    inningsStatisticSchema,
    battingCardSchema,
    batterLineSchema,
    bowlingCardSchema,
    bowlerLineSchema,
    extrasStatisticSchema,
    totalStatisticSchema,
    fallOfWicketsSchema,
    partnershipsSchema,
    oversStatisticSchema,
    resultStatisticSchema,
    completenessStatisticSchema,
  ])
  .openapi("FixtureStatistic");

export const inningsContextSchema = z
  .object({
    inningsId: z.string().openapi({ description: "Innings id.", example: SAMPLE.inningsId }),
    ordinal: count("Zero-based order in the fixture.", 0),
    statisticId: statisticId("innings-0"),
    battingCompetitor: competitorRef,
    bowlingCompetitor: competitorRef,
    superOver: z.boolean().openapi({ description: "A super over.", example: false }),
  })
  .openapi("StatisticInnings");

export type InningsStatistic = z.infer<typeof inningsStatisticSchema>;
export type ResultStatistic = z.infer<typeof resultStatisticSchema>;
export type FixtureStatisticsDocument = z.infer<typeof fixtureStatisticsSchema>;
export type AnyStatistic = z.infer<typeof anyStatisticSchema>;
export type InningsContext = z.infer<typeof inningsContextSchema>;
