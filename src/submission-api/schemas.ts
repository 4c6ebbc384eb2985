import { z } from "@hono/zod-openapi";
import { timestampField as timestamp } from "../http/dates.js";
import { SAMPLE } from "../ingest/sample-ids.js";

/** Response bodies of the submission routes (the request bodies are in src/submissions/schema.ts). */

const id = (description: string, example: string) => z.string().openapi({ description, example });
export const acceptanceResultSchema = z
  .object({
    submissionId: id("Id of this submission.", "5f0c8f7e-2b1a-4c3d-9e8f-7a6b5c4d3e2f"),
    fixtureId: id("The fixture the events were added to.", SAMPLE.fixtureId),
    submitterId: id("Account id of the submitter.", "0d5f1c1e-6c0b-5b8e-9a53-7b1d0f3a2c11"),
    status: z.literal("accepted").openapi({ example: "accepted" }),
    receivedAt: timestamp("When the submission was received."),
    schemaVersion: z.literal("1.0").openapi({ example: "1.0" }),
    eventCount: z.number().int().min(1).openapi({ description: "Events accepted.", example: 6 }),
  })
  .openapi("SubmissionAcceptanceResult");

export const refreshScopeSchema = z
  .object({
    scope: z.enum(["fixture", "season", "competition", "career"]).openapi({ example: "season" }),
    fixtureId: id("With scope fixture.", SAMPLE.fixtureId).optional(),
    participantId: id("With player scopes.", SAMPLE.participantId).optional(),
    seasonId: id("With scope season.", SAMPLE.seasonId).optional(),
    competitionId: id("With scope competition.", SAMPLE.competitionId).optional(),
    path: id("Where the scope's statistics are read.", "/api/v1/participants/ba607b88/statistics/season-ipl-2024"),
  })
  .openapi("RefreshScope", {
    description:
      "A statistics scope whose values depend on the change: the fixture, or a player's season, competition or career aggregate.",
  });

const runs = z.object({
  offBat: z.number().int(),
  extras: z.number().int(),
  total: z.number().int(),
  nonBoundary: z.boolean().optional(),
});
const wicket = z.object({
  kind: z.string(),
  playerOutId: z.string(),
  fielders: z.array(z.object({ participantId: z.string(), substitute: z.boolean() })),
});

export const revisionStateSchema = z
  .object({
    eventId: z.uuid(),
    inningsId: z.string(),
    sequenceNumber: z.number().int(),
    overNumber: z.number().int(),
    positionInOver: z.number().int(),
    ballNumber: z.string().nullable(),
    strikerId: z.string(),
    nonStrikerId: z.string(),
    bowlerId: z.string(),
    runs,
    extras: z.record(z.string(), z.number().int()),
    wickets: z.array(wicket),
  })
  .openapi("DeliveryRevisionState", { description: "A revision's whole state, in the submitted event's fields." });

export const correctionResultSchema = z
  .object({
    eventId: z.uuid(),
    fixtureId: z.string(),
    revision: z.number().int().min(1).openapi({ description: "The live revision now.", example: 2 }),
    previousRevision: z.number().int().min(1).openapi({ example: 1 }),
    changed: z.boolean().openapi({
      description: "false when the replacement equalled the live state: nothing was appended (a repeated PUT).",
    }),
    refreshedScopes: z.array(refreshScopeSchema).openapi({
      description:
        "The statistics scopes the change touches: the fixture, then the season, competition and career aggregates of everyone in the old or new state. Empty when nothing changed.",
    }),
  })
  .openapi("CorrectionResult");

export const actor = z
  .object({
    id: id("An account id, or the name of a system process such as `cricsheet-import`.", "0d5f1c1e"),
    name: z.string().nullable().openapi({ description: "The account's display name; null for a process." }),
  })
  .openapi("Requester");

const origin = z
  .object({
    submissionId: z.string(),
    position: z.number().int().min(0).openapi({ description: "Zero-based index in the submission's events." }),
  })
  .nullable()
  .openapi("SubmissionPosition", { description: "Where the delivery was first submitted; null for imported data." });

export const historySchema = z
  .object({
    eventId: z.uuid(),
    fixtureId: z.string(),
    currentRevision: z.number().int().min(1),
    recorded: z.object({
      deliveryId: id("Id of revision 1.", "8c1e4e59-a8e5-4f0c-9b7a-410b3f9a52d2"),
      revision: z.literal(1),
      recordedBy: actor,
      recordedAt: timestamp("When revision 1 was accepted."),
      originalSubmission: origin,
      state: revisionStateSchema,
    }),
    corrections: z.array(
      z
        .object({
          previousDeliveryId: z.string(),
          replacementDeliveryId: z.string(),
          previousRevision: z.number().int(),
          revision: z.number().int(),
          requestedBy: actor,
          correctedAt: timestamp("When the correction was accepted."),
          reason: z.string(),
          previousState: revisionStateSchema,
          resultingState: revisionStateSchema,
          originalSubmission: origin,
          batchItemId: z
            .string()
            .nullable()
            .openapi({ description: "The batch item that carried it; null when direct." }),
          review: z
            .object({
              reviewer: z.string(),
              decision: z.string(),
              reviewedAt: z.string(),
              reason: z.string().nullable(),
            })
            .nullable()
            .openapi({ description: "The review a batch correction passed; null for a direct correction." }),
          refreshedScopes: z.array(refreshScopeSchema),
        })
        .openapi("CorrectionHistoryEntry"),
    ),
  })
  .openapi("DeliveryHistory");
