import { z } from "@hono/zod-openapi";
import { timestampField as timestamp } from "../http/dates.js";
import { paginationSchema } from "../http/pagination.js";
import { SAMPLE } from "../ingest/sample-ids.js";
import { AGGREGATE_PARTS } from "../read-api/queries/aggregate-provenance.js";
import { actor, revisionStateSchema } from "../submission-api/schemas.js";

/** Response bodies of the provenance routes. */

const sha256 = (description: string) =>
  z.string().openapi({
    description,
    pattern: "^[0-9a-f]{64}$",
    example: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  });
const link = (description: string, example: string) => z.string().openapi({ description, example });

const cricsheetSource = z
  .object({
    kind: z.literal("cricsheet"),
    sourceId: z.string().openapi({ description: "The Cricsheet match file.", example: "cricsheet:fixture:1298152" }),
    revision: z.number().int().min(1).openapi({ description: "The file's `meta.revision`.", example: 2 }),
    dataVersion: z.string().nullable().openapi({
      description: "The file's `meta.data_version`; null for re-issued files imported before it was kept.",
      example: "1.1.0",
    }),
    createdOn: z.string().openapi({ description: "The file's `meta.created`.", example: "2022-04-10" }),
  })
  .openapi("CricsheetRevisionSource", { description: "A Cricsheet match file, as imported or re-issued." });

const submissionSource = z
  .object({
    kind: z.literal("submission"),
    submissionId: z.string().openapi({ example: "5f0c8f7e-2b1a-4c3d-9e8f-7a6b5c4d3e2f" }),
    position: z.number().int().min(0).openapi({
      description: "Zero-based index in the submission's events (its data row, for a CSV upload).",
      example: 4,
    }),
    submittedBy: actor,
    provenance: link(
      "The submission's provenance.",
      "/api/v1/provenance/submissions/5f0c8f7e-2b1a-4c3d-9e8f-7a6b5c4d3e2f",
    ),
  })
  .openapi("SubmissionRevisionSource", { description: "A direct submission (JSON body or upload)." });

const correctionSource = z
  .object({
    kind: z.literal("correction"),
    correctedBy: actor,
    reason: z.string().openapi({ example: "three, not two" }),
  })
  .openapi("CorrectionRevisionSource", { description: "A direct correction (PUT /submissions/events/{eventId})." });

const batchSource = z
  .object({
    kind: z.literal("batch"),
    batchReference: z.string().openapi({ example: "0b6c1f7e-3d2a-4c5b-9e8f-7a6d5c4b3a21" }),
    ordinal: z.number().int().min(0).openapi({ description: "The item's ordinal in the batch's report.", example: 37 }),
    publishedBy: actor,
    review: z
      .object({
        reviewedBy: actor,
        decision: z.literal("approved"),
        reason: z.string().openapi({ example: "Checked against the scorer's sheet" }),
        reviewedAt: timestamp("When the item was approved."),
      })
      .openapi({ description: "The approval the item was published under." }),
    batch: link(
      "The batch (its status; its report holds the item).",
      "/api/v1/batches/0b6c1f7e-3d2a-4c5b-9e8f-7a6d5c4b3a21",
    ),
  })
  .openapi("BatchRevisionSource", { description: "A batch item, approved by a reviewer and published." });

export const revisionSourceSchema = z
  .discriminatedUnion("kind", [cricsheetSource, submissionSource, batchSource, correctionSource])
  .nullable()
  .openapi("RevisionSource", {
    description:
      "Where the revision came from, by `kind`. More kinds may be added; a client should accept an unknown one. Null only when the log names no source.",
  });

export const eventProvenanceSchema = z
  .object({
    eventId: z.uuid(),
    fixtureId: z.string().openapi({ example: SAMPLE.fixtureId }),
    currentRevision: z.number().int().min(1).openapi({ example: 2 }),
    revisions: z.array(
      z
        .object({
          revision: z.number().int().min(1).openapi({ example: 1 }),
          deliveryId: link("Id of the event holding this revision.", "8c1e4e59-a8e5-4f0c-9b7a-410b3f9a52d2"),
          recordedBy: actor,
          recordedAt: timestamp("When the revision was accepted."),
          reason: z
            .string()
            .nullable()
            .openapi({ description: "Why it replaced the one before; null for revision 1." }),
          source: revisionSourceSchema,
          // A union, not .nullable(): a nullable reference would lose its null in the document.
          previousState: z.union([revisionStateSchema, z.null()]).openapi({ description: "Null for revision 1." }),
          resultingState: revisionStateSchema,
        })
        .openapi("RevisionProvenance"),
    ),
  })
  .openapi("EventProvenance");

export const submissionProvenanceSchema = z
  .object({
    submissionId: z.string().openapi({ example: "5f0c8f7e-2b1a-4c3d-9e8f-7a6b5c4d3e2f" }),
    fixtureId: z.string().openapi({ example: SAMPLE.fixtureId }),
    submittedBy: actor,
    receivedAt: timestamp("When the submission was received."),
    schemaVersion: z.string().openapi({ example: "1.0" }),
    payloadSha256: sha256("SHA-256 of the validated submission in canonical JSON (RFC 8785)."),
    upload: z
      .object({
        filename: z.string().openapi({ description: "The file's name as uploaded.", example: "deliveries.csv" }),
        mediaType: z.string().openapi({ example: "text/csv" }),
        byteLength: z.number().int().min(0).openapi({ description: "Size of the uploaded bytes.", example: 1843 }),
        sha256: sha256("SHA-256 of the uploaded bytes."),
      })
      .nullable()
      .openapi({ description: "The uploaded file; null for a JSON body." }),
    items: z
      .array(
        z
          .object({
            position: z.number().int().min(0).openapi({ example: 0 }),
            eventId: z.uuid(),
            outcome: z.literal("accepted").openapi({
              description: "A submission is atomic: every event of an accepted one was accepted.",
            }),
            currentRevision: z.number().int().min(1).openapi({ example: 1 }),
            provenance: link(
              "The event's revision provenance.",
              "/api/v1/provenance/events/0b3f9a52-8c1e-4e59-a8e5-1f0c2d9b7a41",
            ),
          })
          .openapi("SubmissionProvenanceItem"),
      )
      .openapi({ description: "Every event of the submission, in submitted order." }),
  })
  .openapi("SubmissionProvenance");

const contributorSchema = z
  .object({
    eventId: z.uuid(),
    currentRevision: z
      .number()
      .int()
      .min(1)
      .openapi({ description: "The revision the statistic is computed from.", example: 2 }),
    revisions: z
      .array(
        z
          .object({
            revision: z.number().int().min(1).openapi({ example: 1 }),
            deliveryId: link("Id of the event holding this revision.", "8c1e4e59-a8e5-4f0c-9b7a-410b3f9a52d2"),
            recordedBy: actor,
            recordedAt: timestamp("When the revision was accepted."),
            reason: z.string().nullable().openapi({ description: "Null for revision 1." }),
            source: revisionSourceSchema,
          })
          .openapi("ContributorRevision"),
      )
      .openapi({ description: "Every revision of the delivery, oldest first." }),
    provenance: link(
      "The delivery's event provenance, with the complete states.",
      "/api/v1/provenance/events/0b3f9a52-8c1e-4e59-a8e5-1f0c2d9b7a41",
    ),
  })
  .openapi("StatisticContributor");

export const statisticProvenanceSchema = z
  .object({
    data: z
      .array(contributorSchema)
      .openapi({ description: "The contributing deliveries of this page, in occurrence order." }),
    fixtureId: z.string().openapi({ example: SAMPLE.fixtureId }),
    statisticId: z.string().openapi({ example: SAMPLE.batterStatisticId }),
    fixtureVersion: z
      .number()
      .int()
      .min(0)
      .openapi({ description: "The fixture version the trace is read at.", example: 412 }),
    count: z.number().int().min(0).openapi({ description: "Contributing deliveries in all pages.", example: 24 }),
    pagination: paginationSchema,
  })
  .openapi("StatisticProvenance");

export const aggregateProvenanceSchema = z
  .object({
    data: z
      .array(
        contributorSchema
          .extend({
            fixtureId: z.string().openapi({ example: SAMPLE.fixtureId }),
            fixtureVersion: z
              .number()
              .int()
              .min(0)
              .openapi({ description: "The version of its fixture the trace is read at.", example: 412 }),
          })
          .openapi("AggregateContributor"),
      )
      .openapi({
        description: "The contributing deliveries of this page: fixtures by date, each in occurrence order.",
      }),
    participantId: z.string().openapi({ example: SAMPLE.participantId }),
    statisticId: z.string().openapi({ example: SAMPLE.participantStatisticId }),
    part: z.enum(AGGREGATE_PARTS).openapi({ example: "batting" }),
    traceVersion: z.string().openapi({
      description: "A fingerprint of the trace (its deliveries and their revisions), which its cursors hold to.",
      example: "3f9a52d28c1e4e59",
    }),
    count: z.number().int().min(0).openapi({ description: "Contributing deliveries in all pages.", example: 412 }),
    pagination: paginationSchema,
  })
  .openapi("AggregateProvenance");
