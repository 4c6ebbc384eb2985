import { v5 as uuidv5 } from "uuid";
import { z } from "zod";
import { defineEvent, EventCatalogue, type EventOf } from "./catalogue.js";
import { streamId } from "./envelope.js";
import { id, isoDate, name, sourceId } from "./shared.js";
import type { EventData } from "./types.js";

/** The fixture ledger: set-up, squads, innings, every delivery revision and the result. */
export const fixtureStream = (fixtureId: string) => streamId("fixture", fixtureId);

const count = z.number().int().min(0);

export const MATCH_TYPES = ["T20", "IT20", "ODI", "ODM", "Test", "MDM"] as const;

export const FixtureScheduled = defineEvent({
  type: "FixtureScheduled",
  category: "fixture",
  version: 1,
  schema: z.strictObject({
    fixtureId: id,
    competitionId: id,
    seasonId: id,
    venueId: id.nullable(),
    /** The two competitors, with the names they played under in this fixture. */
    competitors: z.array(z.strictObject({ competitorId: id, name })).length(2),
    startDate: isoDate,
    endDate: isoDate,
    matchType: z.enum(MATCH_TYPES),
    teamType: z.enum(["club", "international"]),
    gender: z.enum(["male", "female"]),
    ballsPerOver: z.number().int().min(1).max(12),
    oversPerInnings: z.number().int().positive().nullable(),
    stage: z.string().trim().min(1).max(100).nullable(),
    matchNumber: z.number().int().positive().nullable(),
    source: z
      .strictObject({ sourceId, revision: z.number().int().positive(), dataVersion: z.string(), createdOn: isoDate })
      .nullable(),
  }),
});

export const SquadNamed = defineEvent({
  type: "SquadNamed",
  category: "fixture",
  version: 1,
  schema: z.strictObject({ competitorId: id, participantIds: z.array(id) }),
});

export const TossRecorded = defineEvent({
  type: "TossRecorded",
  category: "fixture",
  version: 1,
  schema: z.strictObject({ winnerId: id, decision: z.enum(["bat", "field"]) }),
});

export const InningsOpened = defineEvent({
  type: "InningsOpened",
  category: "fixture",
  version: 1,
  schema: z.strictObject({
    inningsId: id,
    /** Zero-based order of the innings in the fixture, super overs included. */
    ordinal: count,
    battingCompetitorId: id,
    bowlingCompetitorId: id,
    superOver: z.boolean(),
    /** Revised or set target, when the source gives one (D/L). */
    target: z.strictObject({ runs: count, overs: z.number().positive().nullable() }).nullable(),
    declared: z.boolean(),
    forfeited: z.boolean(),
    /** Penalty runs awarded before the innings began and after it ended. */
    penaltyRuns: z.strictObject({ pre: count, post: count }),
    absentHurtIds: z.array(id),
    /** Overs the umpires miscounted: the number of legal balls actually bowled. */
    miscountedOvers: z.array(z.strictObject({ overNumber: count, balls: count })),
  }),
});

export const extrasSchema = z.strictObject({
  wides: count.optional(),
  noBalls: count.optional(),
  byes: count.optional(),
  legByes: count.optional(),
  penalty: count.optional(),
});

export const wicketSchema = z.strictObject({
  kind: z.string().trim().min(1).max(60),
  playerOutId: id,
  fielders: z.array(z.strictObject({ participantId: id, substitute: z.boolean() })),
});

/** What a delivery says happened; corrections replace all of it but the sequence. */
export const deliveryStateSchema = z.strictObject({
  inningsId: id,
  overNumber: z.number().int().min(0).max(32767),
  positionInOver: count,
  ballNumber: z
    .string()
    .regex(/^\d+\.\d+$/)
    .nullable(),
  strikerId: id,
  nonStrikerId: id,
  bowlerId: id,
  runs: z.strictObject({ offBat: count, extras: count, total: count, nonBoundary: z.boolean().optional() }),
  extras: extrasSchema,
  wickets: z.array(wicketSchema),
});
export type DeliveryState = z.infer<typeof deliveryStateSchema>;

export const DeliveryRecorded = defineEvent({
  type: "DeliveryRecorded",
  category: "fixture",
  version: 1,
  schema: deliveryStateSchema.extend({
    eventId: z.uuid(),
    /** Occurrence order within the innings, from 1. */
    sequenceNumber: z.number().int().positive(),
    submissionId: id.nullable(),
  }),
});

const RECORDING_NAMESPACE = "9a4e2c71-5b3d-4f08-8e6a-1c7d9b2f4a60";

/**
 * A delivery's `DeliveryRecorded` is appended under an id derived from its event id. The
 * store refuses an id it holds from another append, so one delivery can be recorded only
 * once in the whole log, whichever fixture two racing submissions name.
 */
export const recordingId = (eventId: string) => uuidv5(eventId, RECORDING_NAMESPACE);

export const recordDelivery = (data: EventData<typeof DeliveryRecorded>) => ({
  id: recordingId(data.eventId),
  type: DeliveryRecorded.type,
  data,
});

/** A new immutable revision of an accepted delivery. */
export const DeliveryCorrected = defineEvent({
  type: "DeliveryCorrected",
  category: "fixture",
  version: 1,
  schema: z.strictObject({
    eventId: z.uuid(),
    revision: z.number().int().min(2),
    reason: z.string().trim().min(1).max(1000),
    delivery: deliveryStateSchema,
  }),
});

export const OutcomeRecorded = defineEvent({
  type: "OutcomeRecorded",
  category: "fixture",
  version: 1,
  schema: z.strictObject({
    result: z.enum(["won", "tie", "draw", "no result"]),
    winnerId: id.nullable(),
    by: z.strictObject({ runs: count.optional(), wickets: count.optional(), innings: count.optional() }).nullable(),
    /** e.g. "D/L", "Awarded". */
    method: z.string().trim().min(1).max(60).nullable(),
    /** Who won a tie on a super over (eliminator) or a bowl-out. */
    tieBreakWinnerId: id.nullable(),
    tieBreak: z.enum(["super over", "bowl-out"]).nullable(),
    playerOfMatchIds: z.array(id),
  }),
});

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, "expected a lowercase hex SHA-256");

/**
 * A direct submission was accepted; its deliveries follow it in the same append, so the
 * record of who sent what can never be missing or stale. `eventIds` keep the submitted
 * order: an id's index is its position in the submission (its data row, for a CSV upload).
 */
export const SubmissionAccepted = defineEvent({
  type: "SubmissionAccepted",
  category: "fixture",
  version: 1,
  schema: z.strictObject({
    submissionId: z.uuid(),
    submitterId: id,
    receivedAt: z.iso.datetime({ offset: true }),
    schemaVersion: z.literal("1.0"),
    /** SHA-256 of the validated submission in canonical JSON (RFC 8785). */
    payloadSha256: sha256,
    eventIds: z.array(z.uuid()).min(1).max(1000),
    upload: z
      .strictObject({
        filename: z.string().min(1).max(255),
        mediaType: z.enum(["application/json", "text/csv"]),
        byteLength: count,
        sha256,
      })
      .nullable(),
  }),
});

/**
 * Approved items of a batch were published into this fixture; their deliveries and
 * corrections follow it in the same append, as a direct submission's follow its record. The
 * fixture stream's own record of what a batch published here, so a retried publication
 * publishes nothing twice. `items` keep the batch's ordinals beside the event ids.
 */
export const BatchItemsPublished = defineEvent({
  type: "BatchItemsPublished",
  category: "fixture",
  version: 1,
  schema: z.strictObject({
    batchReference: z.uuid(),
    items: z
      .array(z.strictObject({ ordinal: count, eventId: z.uuid(), revision: z.number().int().positive() }))
      .min(1)
      .max(1000),
    /** The approval each item was published under (one per reviewer decision). */
    reviews: z.array(
      z.strictObject({
        ordinals: z.array(count).min(1),
        reviewerAccountId: id,
        reason: z.string().trim().min(1).max(1000),
        reviewedAt: z.iso.datetime({ offset: true }),
      }),
    ),
  }),
});

/** The source re-issued the fixture; what changed follows as corrections. */
export const FixtureSourceRevised = defineEvent({
  type: "FixtureSourceRevised",
  category: "fixture",
  version: 1,
  schema: z.strictObject({
    revision: z.number().int().positive(),
    createdOn: isoDate,
    /** The re-issued file's data version; absent from events written before provenance needed it. */
    dataVersion: z.string().optional(),
  }),
});

/**
 * The actor of every event the Cricsheet import writes: its corrections are the changes of a
 * re-issued source file, not anyone's request.
 */
export const CRICSHEET_IMPORT_ACTOR = "cricsheet-import";

export const fixtureEvents = [
  FixtureScheduled,
  SquadNamed,
  TossRecorded,
  InningsOpened,
  DeliveryRecorded,
  DeliveryCorrected,
  OutcomeRecorded,
  FixtureSourceRevised,
  SubmissionAccepted,
  BatchItemsPublished,
] as const;
export type FixtureEvent = EventOf<(typeof fixtureEvents)[number]>;
export const fixtureCatalogue = new EventCatalogue(fixtureEvents);
