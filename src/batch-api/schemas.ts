import { z } from "@hono/zod-openapi";
import { BATCH_STATUSES } from "../batches/queries.js";

/** The answers' shapes and the package's, as the contract documents them. */

const timestamp = (description: string) =>
  z.string().openapi({ description, format: "date-time", example: "2026-11-26T10:15:30.000Z" });

export const batchSchema = z
  .object({
    batchReference: z.string().openapi({
      description: "The batch's opaque reference.",
      example: "3f6d1c2a-8b4e-5f7a-9c0d-1e2f3a4b5c6d",
    }),
    packageId: z.string().openapi({ description: "The sender's label for the package.", example: "ipl-2024-week-3" }),
    contractVersion: z.enum(["1.0", "1.1"]).openapi({ example: "1.1" }),
    competitionId: z.string().openapi({ description: "The competition the package is for.", example: "ipl" }),
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
