import { z } from "zod";

/**
 * The parts of a Cricsheet match file (data_version 1.0.0 to 1.2.0) the importer reads.
 * Fields we do not use (officials, powerplays, reviews, replacements…) pass through
 * unchecked, so a new optional field in a later data version does not break imports.
 */
const runs = z.object({
  batter: z.number().int().min(0),
  extras: z.number().int().min(0),
  total: z.number().int().min(0),
  non_boundary: z.boolean().optional(),
});

const extras = z.object({
  wides: z.number().int().min(0).optional(),
  noballs: z.number().int().min(0).optional(),
  byes: z.number().int().min(0).optional(),
  legbyes: z.number().int().min(0).optional(),
  penalty: z.number().int().min(0).optional(),
});

const wicket = z.object({
  kind: z.string().min(1),
  player_out: z.string().min(1),
  fielders: z.array(z.object({ name: z.string().min(1).optional(), substitute: z.boolean().optional() })).optional(),
});

const delivery = z.object({
  batter: z.string().min(1),
  bowler: z.string().min(1),
  non_striker: z.string().min(1),
  runs,
  extras: extras.optional(),
  wickets: z.array(wicket).optional(),
});

const innings = z.object({
  team: z.string().min(1),
  overs: z.array(z.object({ over: z.number().int().min(0), deliveries: z.array(delivery) })).default([]),
  super_over: z.boolean().optional(),
  declared: z.boolean().optional(),
  forfeited: z.boolean().optional(),
  target: z.object({ runs: z.number().int().min(0), overs: z.number().positive().optional() }).optional(),
  penalty_runs: z
    .object({ pre: z.number().int().min(0).optional(), post: z.number().int().min(0).optional() })
    .optional(),
  absent_hurt: z.array(z.string()).optional(),
  // A few files write the ball count as a string ("5").
  miscounted_overs: z.record(z.string(), z.object({ balls: z.coerce.number().int().min(0) })).optional(),
});

const outcome = z.object({
  winner: z.string().optional(),
  result: z.enum(["tie", "no result", "draw"]).optional(),
  by: z
    .object({
      runs: z.number().int().optional(),
      wickets: z.number().int().optional(),
      innings: z.number().int().optional(),
    })
    .optional(),
  method: z.string().optional(),
  eliminator: z.string().optional(),
  bowl_out: z.string().optional(),
});

export const cricsheetMatchSchema = z.object({
  meta: z.object({
    data_version: z.string().regex(/^1\.[0-2]\.\d+$/, "unsupported data_version (1.0.0 to 1.2.x are supported)"),
    created: z.iso.date(),
    revision: z.number().int().positive(),
  }),
  info: z.object({
    balls_per_over: z.number().int().min(1).max(12).default(6),
    city: z.string().optional(),
    dates: z.array(z.iso.date()).min(1),
    event: z
      .object({ name: z.string().min(1), match_number: z.number().int().optional(), stage: z.string().optional() })
      .optional(),
    gender: z.enum(["male", "female"]),
    match_type: z.enum(["T20", "IT20", "ODI", "ODM", "Test", "MDM"]),
    outcome,
    overs: z.number().int().positive().optional(),
    player_of_match: z.array(z.string()).optional(),
    players: z.record(z.string(), z.array(z.string())),
    registry: z.object({ people: z.record(z.string(), z.string()) }),
    season: z.union([z.string(), z.number()]).transform(String),
    team_type: z.enum(["club", "international"]),
    teams: z.array(z.string().min(1)).length(2),
    toss: z.object({ winner: z.string(), decision: z.enum(["bat", "field"]) }).optional(),
    venue: z.string().min(1).optional(),
  }),
  innings: z.array(innings).default([]),
});

export type CricsheetMatch = z.infer<typeof cricsheetMatchSchema>;
