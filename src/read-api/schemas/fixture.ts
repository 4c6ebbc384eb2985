import { z } from "@hono/zod-openapi";
import { MATCH_TYPES } from "../../../streams/fixture.js";
import { SAMPLE } from "../../ingest/sample-ids.js";
import { competitionRef, competitorRef, nullableRef, participantRef } from "./reference.js";

const count = (description: string, example: number) => z.number().int().min(0).openapi({ description, example });

export const seasonRef = z
  .object({
    seasonId: z.string().openapi({ description: "Season id.", example: SAMPLE.seasonId }),
    label: z.string().nullable().openapi({ description: "The source's label.", example: "2007/08" }),
    name: z.string().nullable().openapi({ description: "Display name (see Season).", example: "2008" }),
  })
  .openapi("SeasonRef");

export const venueSchema = z
  .object({
    venueId: z.string().openapi({ description: "Venue id.", example: SAMPLE.venueId }),
    name: z.string().nullable().openapi({
      description: "Its name, as registered or as an administrator corrected it.",
      example: "Wankhede Stadium",
    }),
    city: z.string().nullable().openapi({ description: "City, when known.", example: "Mumbai" }),
    latitude: z.number().nullable().openapi({
      description:
        "Decimal degrees, when known: from a source, or found for the fixture weather by geocoding; cleared when the name or city changes.",
      example: 18.9389,
    }),
    longitude: z.number().nullable().openapi({ description: "Decimal degrees, when known.", example: 72.8258 }),
  })
  .openapi("Venue");

export const tossSchema = z
  .object({
    winner: competitorRef,
    decision: z.enum(["bat", "field"]).openapi({ description: "What the winner chose.", example: "field" }),
  })
  .openapi("Toss");

export const outcomeSchema = z
  .object({
    result: z.enum(["won", "tie", "draw", "no result"]).openapi({ description: "How it ended.", example: "won" }),
    winner: nullableRef(competitorRef, "The winner when `result` is `won`."),
    by: z
      .object({
        runs: count("Margin in runs.", 12).optional(),
        wickets: count("Margin in wickets.", 5).optional(),
        innings: count("Won by an innings (and `runs`).", 1).optional(),
      })
      .nullable()
      .openapi({ description: "Margin of a win.", example: { runs: 12 } }),
    method: z.string().nullable().openapi({ description: "e.g. `D/L` or `Awarded`.", example: null }),
    tieBreak: z
      .enum(["super over", "bowl-out"])
      .nullable()
      .openapi({ description: "How a tie was broken.", example: null }),
    tieBreakWinner: nullableRef(competitorRef, "Who won the tie-break."),
    playersOfMatch: z.array(participantRef).openapi({ description: "Player(s) of the match." }),
  })
  .openapi("Outcome");

export const inningsSummarySchema = z
  .object({
    inningsId: z.string().openapi({ description: "Innings id (an events filter).", example: SAMPLE.inningsId }),
    ordinal: count("Zero-based order in the fixture, super overs included.", 0),
    battingCompetitor: competitorRef,
    bowlingCompetitor: competitorRef,
    superOver: z.boolean().openapi({ description: "A super over (eliminator).", example: false }),
    declared: z.boolean().openapi({ description: "Declared closed.", example: false }),
    forfeited: z.boolean().openapi({ description: "Forfeited.", example: false }),
    target: z
      .object({
        runs: count("Runs to win.", 168),
        overs: z.number().nullable().openapi({ description: "Overs available, when revised.", example: 20 }),
      })
      .nullable()
      .openapi({ description: "Set or revised target, when the source gives one." }),
    runs: count("Total: every run of the current deliveries, extras and penalty runs included.", 167),
    wickets: count("Wickets fallen (retired hurt and retired not out are not wickets).", 6),
    legalBalls: count("Deliveries that were neither a wide nor a no-ball.", 120),
    overs: z.string().openapi({ description: "Legal balls as overs, `<overs>.<balls>`.", example: "20.0" }),
    deliveryCount: count("Current deliveries recorded in it.", 126),
  })
  .openapi("InningsSummary");

export const fixtureSchema = z
  .object({
    fixtureId: z.string().openapi({ description: "Opaque, stable id.", example: SAMPLE.fixtureId }),
    version: count(
      "The fixture's current version: its ledger revision, raised by every accepted change (deliveries, corrections, result). Also the start of the ETag of fixture-scoped responses.",
      412,
    ),
    competition: competitionRef,
    season: seasonRef,
    venue: nullableRef(venueSchema, "Where it was played; null when unknown."),
    competitors: z
      .array(competitorRef)
      .openapi({ description: "The two competitors, with the names they played under." }),
    startDate: z.iso.date().openapi({ description: "First day, YYYY-MM-DD.", example: "2024-04-01" }),
    endDate: z.iso.date().openapi({ description: "Last day, YYYY-MM-DD.", example: "2024-04-01" }),
    matchType: z.enum(MATCH_TYPES).openapi({ description: "Format.", example: "T20" }),
    teamType: z.enum(["club", "international"]).openapi({ description: "Club or international.", example: "club" }),
    gender: z.enum(["male", "female"]).openapi({ description: "Men's or women's fixture.", example: "male" }),
    ballsPerOver: z.number().int().openapi({ description: "Legal balls in an over.", example: 6 }),
    oversPerInnings: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Scheduled overs; null when unlimited.", example: 20 }),
    stage: z.string().nullable().openapi({ description: "Stage of the competition, e.g. `Final`.", example: null }),
    matchNumber: z.number().int().nullable().openapi({ description: "Number within the season.", example: 14 }),
    toss: nullableRef(tossSchema, "Null until recorded."),
    outcome: nullableRef(outcomeSchema, "Null until recorded."),
    innings: z.array(inningsSummarySchema).openapi({ description: "Innings in order, with totals." }),
    source: z
      .object({
        sourceId: z.string().openapi({ description: "Id in the source.", example: "cricsheet:match:1426312" }),
        revision: z.number().int().openapi({ description: "The source's revision of its file.", example: 2 }),
      })
      .nullable()
      .openapi({ description: "Where the data came from; null for data submitted here." }),
  })
  .openapi("Fixture");

export const fixtureDetailSchema = fixtureSchema
  .extend({
    squads: z
      .array(
        z.object({
          competitor: competitorRef,
          participants: z.array(participantRef).openapi({ description: "As named, in order." }),
        }),
      )
      .openapi({ description: "The squads the competitors named." }),
  })
  .openapi("FixtureDetail");

export const participationSchema = z
  .object({
    competitor: nullableRef(competitorRef, "The side whose squad named them; null if none did."),
    inSquad: z.boolean().openapi({ description: "Named in a squad.", example: true }),
    appeared: z.boolean().openapi({
      description: "Appears in a current delivery (as batter, bowler, player out or fielder).",
      example: true,
    }),
  })
  .openapi("Participation");

export const participantFixtureSchema = fixtureSchema
  .extend({ participation: participationSchema })
  .openapi("ParticipantFixture");

export type Fixture = z.infer<typeof fixtureSchema>;
export type FixtureDetail = z.infer<typeof fixtureDetailSchema>;
export type InningsSummary = z.infer<typeof inningsSummarySchema>;
export type ParticipantFixture = z.infer<typeof participantFixtureSchema>;
