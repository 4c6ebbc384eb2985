import { z } from "@hono/zod-openapi";
import { FIGURES, queryDefinition } from "../questions/definition.js";
import { leaderboardSchema, participantAggregateSchema } from "../read-api/schemas/player-statistics.js";

/** The answers of query evaluation and of natural-language questions (docs/queries.md). */
const entity = z.enum(["question", "competition", "season", "participant", "statistic"]).openapi({
  description:
    "What did not match or matched several: the question as a whole, a competition, a season, a participant, or the statistic (a player with no figures in the scope).",
  example: "participant",
});

const unmatchedSchema = z
  .object({
    entity,
    text: z.string().openapi({ description: "The name or text as given.", example: "Xyzzy" }),
    message: z.string().openapi({ description: "Why it matched nothing.", example: "No player is known by this name" }),
  })
  .openapi("QueryUnmatched");

const candidateSchema = z
  .object({
    id: z
      .string()
      .openapi({ description: "Its id, to ask again with.", example: "1125e4ce-1f37-5e8e-995d-7f60f4bc6cf0" }),
    label: z.string().openapi({ description: "A readable label.", example: "V Kohli, 2008–2026, 324 matches" }),
  })
  .openapi("QueryCandidate");

const ambiguitySchema = z
  .object({
    entity,
    text: z.string().openapi({ description: "The name or text as given.", example: "Kohli" }),
    message: z.string().openapi({ description: "What to do about it.", example: '"Kohli" could be any of 2 players' }),
    candidates: z.array(candidateSchema).openapi({ description: "At most 10 candidates, the likeliest first." }),
    candidateCount: z.number().int().openapi({ description: "How many candidates there were in all.", example: 2 }),
  })
  .openapi("QueryAmbiguity");

const answeredSchema = z
  .object({
    outcome: z.literal("answered"),
    definition: queryDefinition,
    paraphrase: z.string().openapi({
      description: "How it was understood, in one line.",
      example: "most runs, Indian Premier League 2016",
    }),
    endpoint: z.string().openapi({
      description: "The published read that serves the resource, with its parameters.",
      example:
        "/api/v1/statistics/leaderboards?scope=season&seasonId=ae15dac4-43c7-58e1-845c-1cd6899a52c8&metric=most_runs&limit=10",
    }),
    statisticIds: z.array(z.string()).openapi({
      description: "The statistics used: the leaderboard metric, or the aggregate's statisticId.",
      example: ["most_runs"],
    }),
    figure: z
      .union([
        z.object({
          path: z.enum(FIGURES).openapi({ description: "The figure asked for.", example: "batting.runs" }),
          value: z
            .union([z.number(), z.string(), z.null()])
            .openapi({ description: "Its value in the resource.", example: 973 }),
        }),
        z.null(),
      ])
      .openapi({ description: "The one figure asked for, with its value; null when the whole resource was." }),
    resource: z
      .union([leaderboardSchema, z.object({ data: participantAggregateSchema })])
      .openapi({ description: "The published resource, exactly as `endpoint` serves it." }),
  })
  .openapi("QueryAnswered", {
    description:
      "The answer. `definition` is the one evaluated with every entity by its id: evaluating it again gives this answer.",
  });

const noMatchSchema = z
  .object({ outcome: z.literal("no_match"), unmatched: z.array(unmatchedSchema) })
  .openapi("QueryNoMatch");

const ambiguousSchema = z
  .object({ outcome: z.literal("ambiguous"), ambiguities: z.array(ambiguitySchema) })
  .openapi("QueryAmbiguous");

export const evaluationSchema = z
  .discriminatedUnion("outcome", [answeredSchema, noMatchSchema, ambiguousSchema])
  .openapi("QueryEvaluation", {
    description:
      "`answered` with the resource; `no_match` with what matched nothing; `ambiguous` with the candidates for each name that matched several.",
  });

export const interpretationSchema = z
  .union([
    z.object({
      definition: queryDefinition,
      paraphrase: z.string().openapi({ description: "The definition in one line.", example: "most runs, IPL 2016" }),
    }),
    z.null(),
  ])
  .openapi("QuestionInterpretation", {
    description:
      "What the question was translated into: the `definition`, names as written, and its `paraphrase`; null when it could not be (then `outcome` says why).",
  });
