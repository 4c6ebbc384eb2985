import { z } from "@hono/zod-openapi";
import { SAMPLE } from "../../ingest/sample-ids.js";
import { competitorRef, nullableRef, participantRef } from "./reference.js";

/**
 * The statistics of one innings in the fixture statistics document, and what every
 * statistic shares: a stable `statisticId`, a `type`, and `contributors` on request.
 */
export const count = (description: string, example: number) =>
  z.number().int().min(0).openapi({ description, example });
export const rate = (description: string, example: number) =>
  z
    .number()
    .nullable()
    .openapi({
      description: `${description} Rounded half away from zero to 2 decimals; null when the divisor is 0.`,
      example,
    });
export const statisticId = (example: string) =>
  z.string().openapi({ description: "Stable id of this statistic within the fixture.", example });
export const type = <T extends string>(value: T) =>
  z.literal(value).openapi({ description: "What kind of statistic this is.", example: value });
export const overs = (description: string, example: string) => z.string().openapi({ description, example });

export const contributorsSchema = z
  .object({
    count: count("Number of contributing events.", 2),
    eventIds: z.array(z.uuid()).openapi({
      description: "Event ids of the current accepted deliveries the statistic is derived from, in occurrence order.",
      example: [SAMPLE.eventId, "1c4e0b63-9d2f-4f6a-b9f6-2a1d3e0c8b52"],
    }),
  })
  .openapi("StatisticContributors", {
    description: "Present only with `includeContributors=true`: the deliveries behind the statistic.",
  });

export const contributors = { contributors: contributorsSchema.optional() };

export const batterLineSchema = z
  .object({
    statisticId: statisticId("innings-0-batter-ba607b88"),
    type: type("batter"),
    participantId: z.string().openapi({ description: "The batter.", example: SAMPLE.participantId }),
    name: z.string().openapi({ description: "Registered name.", example: "V Kohli" }),
    position: z.number().int().positive().openapi({ description: "Order in which they came in, from 1.", example: 3 }),
    runs: count("Runs off the bat.", 113),
    balls: count("Balls faced: every delivery on strike except wides (a no-ball is a ball faced).", 55),
    fours: count("Fours off the bat (run fours excluded).", 12),
    sixes: count("Sixes off the bat.", 8),
    strikeRate: rate("100 × runs ÷ balls.", 205.45),
    dismissed: z.boolean().openapi({
      description: "Out; retired hurt and retired not out are not dismissals, retired out is.",
      example: true,
    }),
    howOut: z.string().openapi({
      description: "As a scorecard writes it, `not out` when not out.",
      example: "c KA Pollard b JJ Bumrah",
    }),
    dismissalKind: z
      .string()
      .nullable()
      .openapi({ description: "Dismissal kind; null when not out.", example: "caught" }),
    ...contributors,
  })
  .openapi("BatterStatistic");

export const bowlerLineSchema = z
  .object({
    statisticId: statisticId(`innings-1-bowler-${SAMPLE.bowlerId}`),
    type: type("bowler"),
    participantId: z.string().openapi({ description: "The bowler.", example: SAMPLE.bowlerId }),
    name: z.string().openapi({ description: "Registered name.", example: "JJ Bumrah" }),
    overs: overs("Legal balls bowled as `<overs>.<balls>`.", "4.0"),
    balls: count("Legal balls bowled (no wides or no-balls).", 24),
    maidens: count("Complete overs conceding no runs to the bowler.", 1),
    runs: count("Runs conceded: off the bat plus wides and no-balls (not byes, leg byes or penalties).", 21),
    wickets: count("Bowled, caught, caught and bowled, lbw, stumped and hit wicket.", 3),
    economy: rate("Runs conceded per over.", 5.25),
    wides: count("Wide runs conceded.", 1),
    noBalls: count("No-ball runs conceded.", 0),
    dots: count("Legal balls off which no run at all was scored.", 12),
    fours: count("Fours hit off them.", 2),
    sixes: count("Sixes hit off them.", 0),
    ...contributors,
  })
  .openapi("BowlerStatistic");

export const battingCardSchema = z
  .object({
    statisticId: statisticId("innings-0-batting"),
    type: type("batting"),
    lines: z.array(batterLineSchema).openapi({ description: "Everyone who batted, in the order they came in." }),
    didNotBat: z
      .array(participantRef)
      .openapi({ description: "The batting side's named squad members who did not bat, in squad order." }),
    ...contributors,
  })
  .openapi("BattingCardStatistic");

export const bowlingCardSchema = z
  .object({
    statisticId: statisticId("innings-0-bowling"),
    type: type("bowling"),
    lines: z.array(bowlerLineSchema).openapi({ description: "Everyone who bowled, in the order they came on." }),
    ...contributors,
  })
  .openapi("BowlingCardStatistic");

export const extrasStatisticSchema = z
  .object({
    statisticId: statisticId("innings-0-extras"),
    type: type("extras"),
    wides: count("Wide runs.", 5),
    noBalls: count("No-ball runs.", 1),
    byes: count("Byes.", 0),
    legByes: count("Leg byes.", 4),
    penalty: count("Penalty runs, including those awarded before or after the innings.", 0),
    total: count("All extras.", 10),
    ...contributors,
  })
  .openapi("ExtrasStatistic");

export const targetSchema = z
  .object({
    runs: count("Runs needed to win.", 168),
    overs: z.number().nullable().openapi({ description: "Overs available, when the source set them.", example: 20 }),
  })
  .openapi("Target");

export const totalStatisticSchema = z
  .object({
    statisticId: statisticId("innings-0-total"),
    type: type("total"),
    runs: count("Every run of the innings: off the bat, all extras and penalty runs.", 167),
    wickets: count("Wickets fallen (retired hurt and retired not out are not wickets).", 6),
    overs: overs("Legal balls as `<overs>.<balls>`.", "20.0"),
    legalBalls: count("Deliveries that were neither a wide nor a no-ball.", 120),
    runRate: rate("Runs per over.", 8.35),
    declared: z.boolean().openapi({ description: "Declared closed.", example: false }),
    target: nullableRef(
      targetSchema,
      "The target the innings chased: as the source set it (revised targets), else one more than the other side's lead for the last innings of a two- or four-innings match (and of a super over); null otherwise.",
    ),
    ...contributors,
  })
  .openapi("TotalStatistic");

export const fallOfWicketsSchema = z
  .object({
    statisticId: statisticId("innings-0-fall-of-wickets"),
    type: type("fall-of-wickets"),
    wickets: z
      .array(
        z.object({
          wicket: z.number().int().positive().openapi({ description: "1 for the first wicket.", example: 1 }),
          score: count("The total when it fell.", 23),
          participantId: z.string().openapi({ description: "The batter out.", example: SAMPLE.participantId }),
          name: z.string().openapi({ description: "Registered name.", example: "V Kohli" }),
          overs: overs("Legal balls bowled when it fell, `<overs>.<balls>`.", "3.4"),
        }),
      )
      .openapi({ description: "Dismissals in the order they fell." }),
    ...contributors,
  })
  .openapi("FallOfWicketsStatistic");

export const partnershipsSchema = z
  .object({
    statisticId: statisticId("innings-0-partnerships"),
    type: type("partnerships"),
    partnerships: z
      .array(
        z.object({
          wicket: z.number().int().positive().openapi({
            description: "The stand's number: 1 for the opening stand; a dismissal or a retirement starts the next.",
            example: 1,
          }),
          runs: count("Every run scored during the stand, extras included.", 47),
          balls: count("Legal balls bowled during the stand.", 31),
          batters: z
            .array(participantRef)
            .length(2)
            .openapi({ description: "The two batters, the one on strike at its first ball first." }),
        }),
      )
      .openapi({ description: "Stands in order." }),
    ...contributors,
  })
  .openapi("PartnershipsStatistic");

export const oversStatisticSchema = z
  .object({
    statisticId: statisticId("innings-0-overs"),
    type: type("overs"),
    overs: z
      .array(
        z.object({
          overNumber: count("Zero-based over.", 0),
          runs: count("Runs scored in the over, extras included.", 9),
          wickets: count("Wickets fallen in the over.", 1),
          cumulativeRuns: count("Innings total at the end of the over (with penalty runs awarded before it).", 9),
          cumulativeWickets: count("Wickets down at the end of the over.", 1),
        }),
      )
      .openapi({ description: "Every over with a delivery, in order (runs and wickets per over)." }),
    ...contributors,
  })
  .openapi("OversStatistic");

export const inningsStatisticSchema = z
  .object({
    statisticId: statisticId("innings-0"),
    type: type("innings"),
    inningsId: z.string().openapi({ description: "Innings id (an events filter).", example: SAMPLE.inningsId }),
    ordinal: count("Zero-based order in the fixture, super overs included.", 0),
    battingCompetitor: competitorRef,
    bowlingCompetitor: competitorRef,
    superOver: z.boolean().openapi({
      description: "A super over (eliminator): shown here, never counted in player aggregates.",
      example: false,
    }),
    batting: battingCardSchema,
    bowling: bowlingCardSchema,
    extras: extrasStatisticSchema,
    total: totalStatisticSchema,
    fallOfWickets: fallOfWicketsSchema,
    partnerships: partnershipsSchema,
    overs: oversStatisticSchema,
    ...contributors,
  })
  .openapi("InningsStatistic");
