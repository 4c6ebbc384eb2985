import { z } from "@hono/zod-openapi";
import { ITEM_OUTCOMES, REFERENCE_TYPES, REVIEW_DECISIONS } from "../../streams/batch.js";
import { BATCH_STATUSES, type BatchView } from "../batches/queries.js";
import { timestampField as timestamp } from "../http/dates.js";
import { errorResponse } from "../http/errors.js";
import { SAMPLE } from "../ingest/sample-ids.js";

/** The answers' shapes and the package's, as the contract documents them. */

export const batchSchema = z
  .object({
    batchReference: z.string().openapi({
      description: "The batch's opaque reference.",
      example: "3f6d1c2a-8b4e-5f7a-9c0d-1e2f3a4b5c6d",
    }),
    packageId: z.string().openapi({ description: "The sender's label for the package.", example: "ipl-2024-week-3" }),
    contractVersion: z.enum(["1.0", "1.1"]).openapi({ example: "1.1" }),
    competitionId: z
      .string()
      .openapi({ description: "The competition the package is for.", example: SAMPLE.competitionId }),
    submittedBy: z.string().openapi({ description: "The sender's account id." }),
    status: z.enum(BATCH_STATUSES).openapi({
      description: 'Where the batch is in its lifecycle (docs/batches.md, "States").',
      example: "received",
    }),
    checksum: z.string().openapi({
      description: "SHA-256 (lowercase hex) of the package as received: the body's bytes as UTF-8.",
      example: "9b74c9897bac770ffc029102a200c5de4a6d3b1c8e4f1a2b3c4d5e6f7a8b9c0d",
    }),
    fileCount: z.number().int().openapi({ description: "Files the package arrived as.", example: 1 }),
    byteCount: z.number().int().openapi({ description: "Their bytes in all.", example: 48213 }),
    receivedAt: timestamp("When the package was stored."),
    updatedAt: timestamp("When the batch last changed state or progressed."),
    progress: z
      .object({
        itemsDone: z.number().int().openapi({ description: "Items validation has judged.", example: 0 }),
        itemsTotal: z
          .number()
          .int()
          .nullable()
          .openapi({ description: "Items in the package; null until validation has counted them.", example: null }),
      })
      .openapi({ description: "How far validation has come." }),
    counts: z
      .object({
        accepted: z.number().int(),
        rejected: z.number().int(),
        unresolved: z.number().int(),
        duplicate: z.number().int(),
        conflicting: z.number().int(),
      })
      .openapi({ description: "Items by outcome, as validation has judged them so far." }),
    review: z
      .object({
        approved: z.number().int().openapi({ example: 120 }),
        rejected: z.number().int().openapi({ example: 3 }),
        undecided: z.number().int().openapi({ description: "Accepted items waiting for a decision.", example: 0 }),
      })
      .openapi({ description: "Accepted items by the reviewer's decision standing on them." }),
    publication: z
      .object({
        published: z.number().int().openapi({ description: "Items put in the ledger.", example: 118 }),
        refused: z.number().int().openapi({
          description: "Approved items the ledger no longer took at publication (it changed since validation).",
          example: 2,
        }),
        publishedAt: timestamp("When the batch was published."),
      })
      .nullable()
      .openapi({ description: "What publication did; null until the batch is published." }),
    links: z
      .object({
        status: z.string().openapi({ description: "This batch's status URI." }),
        report: z.string().openapi({ description: "Its report's URI." }),
      })
      .openapi({ description: "Where to follow the batch." }),
  })
  .openapi("Batch");

const reference = z
  .object({
    sourceId: z.string().optional().openapi({
      description: "`<namespace>:<entityType>:<value>`: `app:<type>:<id>` names a canonical id.",
      example: "cricsheet:participant:ba607b88",
    }),
    context: z
      .looseObject({ name: z.string().optional() })
      .optional()
      .openapi({ description: "Readable names, matched within the enclosing scope." }),
  })
  .openapi("BatchReference", { description: "At least one of sourceId and context." });

/**
 * The package as senders write it (docs/batches.md, "The package"). Intake reads its head;
 * validation the rest, and reports every problem of it.
 */
export const batchPackageSchema = z
  .looseObject({
    contractVersion: z.enum(["1.0", "1.1"]).openapi({ description: "Other versions are refused.", example: "1.1" }),
    packageId: z
      .string()
      .openapi({ description: "The sender's stable label for the package.", example: "ipl-2024-w3" }),
    competition: reference.openapi({ description: "Named by context.name, optionally with a sourceId." }),
    season: reference.optional(),
    fixtures: z.array(z.looseObject({})).openapi({
      description: 'Fixtures with their innings and events (docs/batches.md, "The package").',
    }),
  })
  .openapi("BatchPackage");

/** Where a CSV or XLSX package holds an item or a fault. */
const tablePlace = {
  sheet: z.string().optional().openapi({ description: "The sheet of an XLSX package.", example: "Week 3" }),
  row: z
    .number()
    .int()
    .optional()
    .openapi({ description: "The row of a CSV or XLSX package (1 is the header's line).", example: 38 }),
};

export const faultSchema = z
  .object({
    code: z.string().openapi({ description: "The rule's stable code.", example: "INVALID_PARTICIPANT" }),
    message: z.string().openapi({ example: "Not in the batting side's squad" }),
    path: z.string().openapi({
      description: "JSON path in the package (in `file`, when it came as several files).",
      example: "fixtures.0.innings.1.events.37.striker",
    }),
    file: z
      .string()
      .optional()
      .openapi({ description: "The manifest path of the file the path is in.", example: "week-3.json" }),
    ...tablePlace,
    column: z.string().optional().openapi({
      description: "The column of a CSV or XLSX package that holds what is wrong.",
      example: "striker",
    }),
  })
  .openapi("BatchFault");

export const batchItemSchema = z
  .object({
    ordinal: z.number().int().openapi({ description: "Position in the package's reading order, from 0.", example: 37 }),
    path: z.string().openapi({
      description: "Its JSON path, and the paths of its faults and requirements: within `file` when there is one.",
      example: "fixtures.0.innings.1.events.37",
    }),
    file: z
      .string()
      .optional()
      .openapi({ description: "The manifest path of the file it is in.", example: "week-3.json" }),
    ...tablePlace,
    eventId: z.string().nullable().openapi({ description: "The delivery's eventId; null when it was unreadable." }),
    outcome: z.enum(ITEM_OUTCOMES).openapi({ example: "accepted" }),
    context: z
      .object({
        fixture: z.string().nullable().openapi({ example: "2024-04-01 Mumbai Indians v Chennai Super Kings" }),
        innings: z.number().int().nullable().openapi({ description: "Zero-based innings ordinal.", example: 1 }),
        over: z.number().int().nullable().openapi({ example: 6 }),
        ball: z.string().nullable().openapi({ example: "6.2" }),
      })
      .openapi({ description: "Where the delivery is, for people." }),
    faults: z.array(faultSchema),
    requirements: z.array(
      z
        .object({
          code: z.enum(["UNRESOLVED_REFERENCE", "AMBIGUOUS_REFERENCE"]),
          referencePath: z.string().openapi({
            description: "Where the reference is (within the item's `file`): what a mapping names.",
            example: "fixtures.0.innings.1.events.37.striker",
          }),
          referenceType: z.enum(REFERENCE_TYPES).optional().openapi({
            description: "What it must name: a fixture of the competition, one of its seasons, or a participant.",
            example: "participant",
          }),
          column: z.string().optional().openapi({
            description: "The column of a CSV or XLSX package that holds the reference.",
            example: "striker",
          }),
          submittedReference: z.record(z.string(), z.unknown()),
          candidates: z.array(
            z.object({
              sourceId: z.string().openapi({ example: "app:participant:ba607b88" }),
              label: z.string().openapi({ example: "RG Sharma" }),
              candidateReference: z.string().openapi({
                description: "Opaque: what a reference mapping names as its `candidate`.",
                example: "cGFydGljaXBhbnQ6YmE2MDdiODg",
              }),
            }),
          ),
          resolutionRequired: z.boolean(),
        })
        .openapi("ResolutionRequirement"),
    ),
    review: z
      .object({
        decision: z.enum(REVIEW_DECISIONS),
        reason: z.string().openapi({ example: "Checked against the scorer's sheet" }),
        reviewedBy: z.string().openapi({ description: "The reviewer's account id." }),
        reviewedAt: timestamp("When the decision was taken."),
      })
      .nullable()
      .openapi({ description: "The decision standing on an accepted item; null until it is reviewed." }),
    publication: z
      .discriminatedUnion("status", [
        z.object({
          status: z.literal("published"),
          fixtureId: z.string().openapi({ example: "1082591" }),
          eventId: z.string().openapi({ description: "The delivery's public event id." }),
          revision: z
            .number()
            .int()
            .openapi({ description: "1 for a new delivery; the new revision for a correction.", example: 2 }),
        }),
        z.object({
          status: z.literal("refused"),
          code: z.string().openapi({ description: "The rule the ledger now breaks.", example: "EVENT_CONFLICT" }),
          message: z.string(),
        }),
      ])
      .nullable()
      .openapi({
        description:
          "What publication did with an approved item: published (the delivery at `/api/v1/fixtures/{fixtureId}/events/{eventId}`) or refused; null otherwise.",
      }),
  })
  .openapi("BatchItem");

export const reportSummarySchema = z
  .object({
    status: z.enum(BATCH_STATUSES),
    counts: batchSchema.shape.counts,
    rules: z
      .array(z.object({ code: z.string(), count: z.number().int() }))
      .openapi({ description: "Each rule code broken, with how many items (or package faults) broke it; most first." }),
    faults: z
      .array(faultSchema)
      .openapi({ description: "Faults outside any delivery: of the head, a fixture or an innings." }),
  })
  .openapi("BatchReportSummary");

/** The path parameter of one batch's operations. */
export const batchReferenceParams = z.object({
  batchReference: z.string().openapi({
    param: { name: "batchReference", in: "path" },
    description: "The batch reference of the receipt.",
    example: "3f6d1c2a-8b4e-5f7a-9c0d-1e2f3a4b5c6d",
  }),
});

/** How a read of one batch refuses a batch the caller may not see. */
export const unseenBatch = {
  ...errorResponse(
    403,
    "FORBIDDEN: a disabled account, or a batch that is not the caller's (an unknown reference answers the same)",
  ),
  ...errorResponse(
    404,
    "NOT_FOUND: a reference holding text no reference can (U+0000, a lone surrogate), refused as every path parameter is",
  ),
};

/** A batch as the API shows it. */
export const toApi = (batch: BatchView) => {
  const self = `/api/v1/batches/${batch.batchReference}`;
  return {
    batchReference: batch.batchReference,
    packageId: batch.packageId,
    contractVersion: batch.contractVersion,
    competitionId: batch.competitionId,
    submittedBy: batch.ownerAccountId,
    status: batch.status,
    checksum: batch.checksum,
    fileCount: batch.fileCount,
    byteCount: batch.byteCount,
    receivedAt: batch.receivedAt.toISOString(),
    updatedAt: batch.updatedAt.toISOString(),
    progress: batch.progress,
    counts: batch.counts,
    review: batch.review,
    publication: batch.publication && {
      ...batch.publication,
      publishedAt: batch.publication.publishedAt.toISOString(),
    },
    links: { status: self, report: `${self}/report` },
  };
};
