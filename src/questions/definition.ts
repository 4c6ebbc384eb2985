import { z } from "@hono/zod-openapi";
import { LEADERBOARD_DEFAULT_ROWS, LEADERBOARD_DEPTH, METRICS } from "../statistics/leaderboards.js";

/**
 * The query-definition language (docs/queries.md): what `POST /query-definitions/evaluate`
 * takes and what a natural-language question is translated into. A definition names one
 * published read, a leaderboard or a participant aggregate, and the entities it needs, each
 * by id or by name. Names are resolved against the reference data when it is evaluated.
 */

/** The longest name or id a definition may give. */
export const MAX_NAME_LENGTH = 200;

const text = (description: string, example: string) =>
  z.string().trim().min(1).max(MAX_NAME_LENGTH).openapi({ description, example });

const byIdOrName = <Id extends string>(what: string, idField: Id, example: { id: string; name: string }) =>
  z.union([
    z.strictObject({ [idField]: text(`The ${what}'s id.`, example.id) } as Record<Id, z.ZodString>),
    z.strictObject({
      name: text(`Any spelling of the ${what}'s name, case and accents ignored.`, example.name),
    }),
  ]);

export const competitionReference = byIdOrName("competition", "competitionId", {
  id: "6cf465cd-c5c7-50ea-8e09-c38910929c36",
  name: "IPL",
}).openapi("CompetitionReference", {
  description:
    "A competition by `competitionId`, or by `name`: its name, another spelling it has been played under, or an abbreviation (`IPL`, `T20 World Cup`).",
});

export const participantReference = byIdOrName("participant", "participantId", {
  id: "1125e4ce-1f37-5e8e-995d-7f60f4bc6cf0",
  name: "Virat Kohli",
}).openapi("ParticipantReference", {
  description:
    "A player by `participantId`, or by `name`: the name in the scorecards (`V Kohli`), a known-as name (`Virat Kohli`), a surname with or without initials, or a near spelling (`Kolhi`).",
});

const seasonName = z
  .string()
  .trim()
  .regex(/^\d{4}(?:[/-]\d{2}(?:\d{2})?)?$/, "a year (2016) or a split year (2007/08, 2020-21, 2020/2021)")
  .openapi({
    description:
      "The year it was played in (`2008`) or its source label (`2007/08`, also written `2007-08` or `2007/2008`).",
    example: "2016",
  });

export const seasonReference = z
  .union([
    z.strictObject({ seasonId: text("The season's id.", "ae15dac4-43c7-58e1-845c-1cd6899a52c8") }),
    z.strictObject({
      competition: competitionReference.optional(),
      name: seasonName,
    }),
    z.strictObject({
      competition: competitionReference,
      ordinal: z
        .number()
        .int()
        .min(-50)
        .max(50)
        .refine((n) => n !== 0, "ordinal is never 0")
        .openapi({
          description: "Counted by start date: 1 is the first season, 2 the second; -1 the latest, -2 the one before.",
          example: 1,
        }),
    }),
  ])
  .openapi("SeasonReference", {
    description:
      "A season by `seasonId`; by `name` in a competition (or in any competition, when only one has a season of that name); or by its `ordinal` in a competition.",
  });

export const LEADERBOARD_LIMIT = { min: 1, max: LEADERBOARD_DEPTH, default: LEADERBOARD_DEFAULT_ROWS } as const;

const leaderboardDefinition = z
  .strictObject({
    type: z.literal("leaderboard"),
    metric: z.enum(METRICS).openapi({ description: "The leaderboard metric.", example: "most_runs" }),
    scope: z.discriminatedUnion("type", [
      z.strictObject({ type: z.literal("season"), season: seasonReference }),
      z.strictObject({ type: z.literal("competition"), competition: competitionReference }),
    ]),
    limit: z
      .number()
      .int()
      .min(LEADERBOARD_LIMIT.min)
      .max(LEADERBOARD_LIMIT.max)
      .optional()
      .openapi({ description: "Rows, 1 to 50; 10 when absent.", example: 10 }),
  })
  .openapi("LeaderboardDefinition");

/** The figures of a participant aggregate a definition may ask for, as `<group>.<field>` paths. */
export const FIGURES = [
  "matches",
  "batting.innings",
  "batting.notOuts",
  "batting.dismissals",
  "batting.runs",
  "batting.balls",
  "batting.highestScore",
  "batting.average",
  "batting.strikeRate",
  "batting.fifties",
  "batting.hundreds",
  "batting.ducks",
  "batting.fours",
  "batting.sixes",
  "bowling.innings",
  "bowling.balls",
  "bowling.overs",
  "bowling.maidens",
  "bowling.runs",
  "bowling.wickets",
  "bowling.bestFigures",
  "bowling.average",
  "bowling.economy",
  "bowling.strikeRate",
  "bowling.fourWickets",
  "bowling.fiveWickets",
  "fielding.catches",
  "fielding.stumpings",
  "fielding.runOuts",
] as const;
export type FigurePath = (typeof FIGURES)[number];

const aggregateDefinition = z
  .strictObject({
    type: z.literal("participant_aggregate"),
    participant: participantReference,
    scope: z.discriminatedUnion("type", [
      z.strictObject({ type: z.literal("career") }),
      z.strictObject({ type: z.literal("season"), season: seasonReference }),
      z.strictObject({ type: z.literal("competition"), competition: competitionReference }),
    ]),
    figure: z.enum(FIGURES).optional().openapi({
      description: "One figure of the aggregate, whose value the answer gives beside it; every figure when absent.",
      example: "batting.runs",
    }),
  })
  .openapi("ParticipantAggregateDefinition");

export const queryDefinition = z
  .discriminatedUnion("type", [leaderboardDefinition, aggregateDefinition])
  .openapi("QueryDefinition", {
    description:
      "A leaderboard (a metric over a season or a competition) or one participant's aggregate (career, a competition or a season; one figure or all).",
  });

export type QueryDefinition = z.infer<typeof queryDefinition>;
export type LeaderboardDefinition = z.infer<typeof leaderboardDefinition>;
export type AggregateDefinition = z.infer<typeof aggregateDefinition>;
export type CompetitionReference = z.infer<typeof competitionReference>;
export type SeasonReference = z.infer<typeof seasonReference>;
export type ParticipantReference = z.infer<typeof participantReference>;
