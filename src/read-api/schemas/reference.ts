import { z } from "@hono/zod-openapi";
import { SAMPLE } from "../../ingest/sample-ids.js";

/**
 * Competitions, seasons, competitors and participants. Every resource names itself with
 * `<type>Id` (as the path parameters and filters do), and a reference to another resource
 * is `{<type>Id, name}`, the shape the specification gives `requestedCompetition`.
 * A name is null only while the reference data catches up with a fixture that names it.
 */
/**
 * A named component or null. (`.nullable()` on a named component loses the null in the
 * generated document; a union keeps it: `anyOf: [$ref, {type: null}]`.)
 */
export const nullableRef = <T extends z.ZodType>(schema: T, description: string) =>
  z.union([schema, z.null()]).openapi({ description });

const date = (description: string, example: string) => z.iso.date().openapi({ description, example });

export const alternativeNames = (example: string[]) =>
  z.array(z.string()).openapi({
    description: "Other spellings the source has used for it, sorted; never includes `name`.",
    example,
  });

export const sourceIds = (example: string) =>
  z.array(z.string()).openapi({
    description: "Identifiers in outside sources, `<namespace>:<entityType>:<value>` (e.g. the Cricsheet register).",
    example: [example],
  });

export const competitionRef = z
  .object({
    competitionId: z.string().openapi({ description: "Competition id.", example: SAMPLE.competitionId }),
    name: z.string().nullable().openapi({ description: "Its registered name.", example: "Indian Premier League" }),
  })
  .openapi("CompetitionRef");

export const competitorRef = z
  .object({
    competitorId: z.string().openapi({ description: "Competitor (team) id.", example: SAMPLE.competitorId }),
    name: z.string().nullable().openapi({ description: "The name it played under.", example: "Mumbai Indians" }),
  })
  .openapi("CompetitorRef");

export const participantRef = z
  .object({
    participantId: z.string().openapi({ description: "Participant id.", example: SAMPLE.participantId }),
    name: z.string().nullable().openapi({ description: "Registered name.", example: "RG Sharma" }),
  })
  .openapi("ParticipantRef");

export const competitionSchema = z
  .object({
    competitionId: z.string().openapi({ description: "Opaque, stable id.", example: SAMPLE.competitionId }),
    name: z.string().openapi({ description: "Registered name.", example: "Indian Premier League" }),
    alternativeNames: alternativeNames(["IPL"]),
    sourceIds: sourceIds("cricsheet:competition:indian-premier-league"),
  })
  .openapi("Competition");

export const seasonSchema = z
  .object({
    seasonId: z.string().openapi({ description: "Opaque, stable id.", example: SAMPLE.seasonId }),
    competition: competitionRef,
    label: z.string().openapi({
      description: "The source's own label, kept as given (Cricsheet labels IPL 2008 `2007/08`).",
      example: "2007/08",
    }),
    name: z.string().openapi({
      description:
        "Display name from the fixtures' start dates: `2008` when all start in one calendar year, `2019/20` when they span two; the label while the season has no fixture.",
      example: "2008",
    }),
    startDate: date("Start date of its first fixture; null without fixtures.", "2008-04-18").nullable(),
    endDate: date("End date of its last fixture; null without fixtures.", "2008-06-01").nullable(),
    fixtureCount: z.number().int().min(0).openapi({ description: "Fixtures scheduled in it.", example: 58 }),
  })
  .openapi("Season");

export const competitorSchema = z
  .object({
    competitorId: z.string().openapi({ description: "Opaque, stable id.", example: "delhi-capitals" }),
    name: z.string().openapi({ description: "Registered name.", example: "Delhi Daredevils" }),
    alternativeNames: alternativeNames(["Delhi Capitals"]),
    teamType: z.enum(["club", "international"]).openapi({ description: "Club or national side.", example: "club" }),
    gender: z.enum(["male", "female"]).openapi({ description: "Men's or women's side.", example: "male" }),
    sourceIds: sourceIds("cricsheet:team:delhi-capitals"),
  })
  .openapi("Competitor");

export const participantSchema = z
  .object({
    participantId: z.string().openapi({ description: "Opaque, stable id.", example: SAMPLE.participantId }),
    name: z.string().openapi({ description: "Registered name.", example: "NA Saini" }),
    alternativeNames: alternativeNames(["Navdeep Saini"]),
    sourceIds: sourceIds("cricsheet:participant:ba607b88"),
  })
  .openapi("Participant");

export type Competition = z.infer<typeof competitionSchema>;
export type Season = z.infer<typeof seasonSchema>;
export type Competitor = z.infer<typeof competitorSchema>;
export type Participant = z.infer<typeof participantSchema>;
