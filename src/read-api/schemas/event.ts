import { z } from "@hono/zod-openapi";
import { SAMPLE } from "../../ingest/sample-ids.js";

/**
 * The public event: the current accepted revision of one delivery. Its fields mirror the
 * direct-submission event (same names, same `runs`, `extras` and `wickets` structures), with
 * the names of the people beside their ids and the revision it is at.
 */
const count = (description: string, example: number) => z.number().int().min(0).openapi({ description, example });
const name = (example: string) =>
  z.string().nullable().openapi({ description: "Registered name of the participant beside it.", example });

export const runsSchema = z
  .object({
    offBat: count("Runs scored off the bat.", 4),
    extras: count("Runs from extras.", 0),
    total: count("offBat + extras.", 4),
    nonBoundary: z
      .boolean()
      .optional()
      .openapi({ description: "Present and true when 4 or 6 runs were run, not a boundary.", example: true }),
  })
  .openapi("Runs");

export const extrasSchema = z
  .object({
    wides: count("Wide runs.", 1).optional(),
    noBalls: count("No-ball runs.", 1).optional(),
    byes: count("Byes.", 1).optional(),
    legByes: count("Leg byes.", 1).optional(),
    penalty: count("Penalty runs.", 5).optional(),
  })
  .openapi("Extras", { description: "Only the kinds of extra the delivery had.", example: { wides: 1 } });

export const fielderSchema = z
  .object({
    participantId: z.string().openapi({ description: "Fielder's participant id.", example: "c4487b84" }),
    name: name("SA Yadav"),
    substitute: z.boolean().openapi({ description: "Fielding as a substitute.", example: false }),
  })
  .openapi("Fielder");

export const wicketSchema = z
  .object({
    kind: z.string().openapi({ description: "Dismissal kind, from the dismissal_kind vocabulary.", example: "caught" }),
    playerOutId: z
      .string()
      .openapi({ description: "Participant id of the player out.", example: SAMPLE.participantId }),
    playerOutName: name("V Kohli"),
    fielders: z.array(fielderSchema).openapi({ description: "Fielders credited, if any." }),
  })
  .openapi("Wicket");

export const eventSchema = z
  .object({
    eventId: z.uuid().openapi({
      description: "The delivery's stable id (the submitter's UUID); corrections keep it.",
      example: SAMPLE.eventId,
    }),
    fixtureId: z.string().openapi({ description: "Fixture id.", example: SAMPLE.fixtureId }),
    inningsId: z.string().openapi({ description: "Innings id.", example: SAMPLE.inningsId }),
    inningsOrdinal: count("Zero-based order of the innings in the fixture; first key of occurrence order.", 0),
    sequenceNumber: z.number().int().positive().openapi({
      description: "Occurrence order within the innings, from 1; second key of occurrence order.",
      example: 37,
    }),
    revision: z
      .number()
      .int()
      .positive()
      .openapi({ description: "1 as recorded; each accepted correction adds one.", example: 1 }),
    overNumber: count("Zero-based over.", 5),
    positionInOver: count("Zero-based position in the over, wides and no-balls included.", 2),
    ballNumber: z
      .string()
      .nullable()
      .openapi({ description: "Display label `<over>.<ball>`; never an identity or order key.", example: "5.3" }),
    strikerId: z.string().openapi({ description: "Striker's participant id.", example: SAMPLE.participantId }),
    strikerName: name("V Kohli"),
    nonStrikerId: z.string().openapi({ description: "Non-striker's participant id.", example: "e2e2a2b1" }),
    nonStrikerName: name("F du Plessis"),
    bowlerId: z.string().openapi({ description: "Bowler's participant id.", example: SAMPLE.bowlerId }),
    bowlerName: name("JJ Bumrah"),
    runs: runsSchema,
    extras: extrasSchema,
    wickets: z.array(wicketSchema).openapi({ description: "Dismissals on this delivery; usually none." }),
  })
  .openapi("Event");

export type Event = z.infer<typeof eventSchema>;
