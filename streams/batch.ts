import { v5 as uuidv5 } from "uuid";
import { z } from "zod";
import { defineEvent, EventCatalogue, type EventOf } from "./catalogue.js";
import { streamId } from "./envelope.js";
import { id } from "./shared.js";

/**
 * A batch package a submitter sent for review: what arrived (every file's bytes, so the
 * batch can be validated, re-validated and traced without the sender), who sent it, under
 * which idempotency key, and each step of its lifecycle (docs/batches.md).
 */
export const batchStream = (batchReference: string) => streamId("batch", batchReference);

const NAMESPACE = "6f1c9a52-3d7e-4b08-9a41-c2e5b7d0f813";

/**
 * The reference of the batch an account sends under an idempotency key, derived rather than
 * drawn: two requests with the same key decide on the same stream, and only one batch is
 * received. Keys are the sender's, so the account is part of the name.
 */
export const batchReferenceFor = (ownerAccountId: string, idempotencyKey: string) =>
  uuidv5(`batch\u001f${ownerAccountId}\u001f${idempotencyKey}`, NAMESPACE);

export const CONTRACT_VERSIONS = ["1.0", "1.1"] as const;

/** Lowercase hex SHA-256. */
export const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, "Lowercase hex SHA-256");

/** `Idempotency-Key`: 1 to 255 visible ASCII characters. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** One file as it arrived: a JSON or CSV body is one file; a manifest's files are many. */
const receivedFile = z.strictObject({
  /** The name it was sent under (a manifest's relative path), or the one given to a body. */
  name: z.string().min(1).max(255),
  mediaType: z.string().min(1).max(127),
  size: z.number().int().min(0),
  sha256: sha256Hex,
  /** The bytes: text as it was sent (UTF-8), or base64 for a binary format. */
  content: z.string(),
  contentEncoding: z.enum(["utf8", "base64"]),
});
export type ReceivedFile = z.infer<typeof receivedFile>;

/**
 * The package is stored as it arrived, before the 202: a crash after the answer never
 * loses it. Its competition was resolved at intake, since who may send and see the batch
 * depends on it; everything else is for validation to judge.
 */
export const BatchReceived = defineEvent({
  type: "BatchReceived",
  category: "batch",
  version: 1,
  schema: z.strictObject({
    batchReference: z.uuid(),
    ownerAccountId: id,
    idempotencyKey: z.string().regex(IDEMPOTENCY_KEY),
    /** SHA-256 of the request body's bytes: the same key with another checksum is another batch. */
    checksum: sha256Hex,
    contractVersion: z.enum(CONTRACT_VERSIONS),
    packageId: z.string().min(1).max(200),
    competitionId: id,
    files: z.array(receivedFile).min(1),
  }),
});

/** A fault of the package: a stable rule code, what is wrong, and the JSON path where. */
const fault = z.strictObject({
  code: z.string().min(1),
  message: z.string(),
  path: z.string(),
  /** The package file the path is in, when the package came as several. */
  file: z.string().optional(),
  /** Where a CSV or XLSX package holds it: the sheet (XLSX), the row (1 is the first line) and the column. */
  sheet: z.string().optional(),
  row: z.number().int().min(1).optional(),
  column: z.string().optional(),
});

/** What a reference names: a fixture of the competition, one of its seasons, or a participant. */
export const REFERENCE_TYPES = ["fixture", "season", "participant"] as const;

const reference = z.strictObject({
  sourceId: z.string().optional(),
  context: z.looseObject({ name: z.string().optional() }).optional(),
});

export const ITEM_OUTCOMES = ["accepted", "rejected", "unresolved", "duplicate", "conflicting"] as const;

/** One delivery of the package as validation judged it. */
const judgedItem = z.strictObject({
  /** Position in the package's reading order, from 0: where the report lists it, never its identity. */
  ordinal: z.number().int().min(0),
  /** Its JSON path, and every path of its faults and requirements: within `file` when there is one. */
  path: z.string(),
  file: z.string().optional(),
  /** The sheet and row of a CSV or XLSX package that hold it. */
  sheet: z.string().optional(),
  row: z.number().int().min(1).optional(),
  eventId: z.string().nullable(),
  outcome: z.enum(ITEM_OUTCOMES),
  context: z.strictObject({
    fixture: z.string().nullable(),
    innings: z.number().int().nullable(),
    over: z.number().int().nullable(),
    ball: z.string().nullable(),
  }),
  faults: z.array(fault),
  requirements: z.array(
    z.strictObject({
      code: z.enum(["UNRESOLVED_REFERENCE", "AMBIGUOUS_REFERENCE"]),
      referencePath: z.string(),
      /** What it must name (absent in items judged before types were recorded). */
      referenceType: z.enum(REFERENCE_TYPES).optional(),
      /** The column that holds the reference, in a CSV or XLSX package. */
      column: z.string().optional(),
      submittedReference: reference,
      candidates: z.array(z.strictObject({ sourceId: z.string(), label: z.string(), candidateReference: z.string() })),
      resolutionRequired: z.literal(true),
    }),
  ),
});
export type JudgedItemData = z.infer<typeof judgedItem>;

/**
 * Which validation of the batch a step belongs to: 0 for the first, one more after each
 * mapping of references or resubmission of items (a batch is validated again with them).
 * Absent means 0.
 */
const round = z.number().int().min(0).optional();

/** Validation has counted the package's items and begun judging them. */
export const BatchValidationStarted = defineEvent({
  type: "BatchValidationStarted",
  category: "batch",
  version: 1,
  schema: z.strictObject({ itemsTotal: z.number().int().min(0), round }),
});

/** The next items in reading order, judged: `from` is the ordinal of the first. Progress shows as they come. */
export const BatchItemsJudged = defineEvent({
  type: "BatchItemsJudged",
  category: "batch",
  version: 1,
  schema: z.strictObject({ from: z.number().int().min(0), items: z.array(judgedItem).min(1), round }),
});

const VALIDATED_STATUSES = ["validated", "staged", "rejected"] as const;

const tally = z.number().int().min(0);
const counts = z.strictObject({
  accepted: tally,
  rejected: tally,
  unresolved: tally,
  duplicate: tally,
  conflicting: tally,
});

/**
 * Every item is judged: `validated` (waiting for review), `staged` (a reference is
 * unresolved), or `rejected` (nothing in it can be published). `faults` are those outside
 * any delivery: of the head, a fixture or an innings.
 */
export const BatchValidated = defineEvent({
  type: "BatchValidated",
  category: "batch",
  version: 1,
  schema: z.strictObject({ status: z.enum(VALIDATED_STATUSES), counts, faults: z.array(fault), round }),
});

/**
 * The sender or an administrator chose what unresolved or ambiguous references of a staged
 * batch name, each by its path in the package (as validation reads it, across files). The
 * batch is validated again, a new round, with every mapping so far; a later mapping of a
 * path replaces an earlier one.
 */
export const BatchReferencesMapped = defineEvent({
  type: "BatchReferencesMapped",
  category: "batch",
  version: 1,
  schema: z.strictObject({
    mappings: z
      .array(
        z.strictObject({
          referencePath: z.string().min(1),
          referenceType: z.enum(REFERENCE_TYPES),
          entityId: id,
        }),
      )
      .min(1),
    mappedByAccountId: id,
    mappedAt: z.iso.datetime({ offset: true }),
  }),
});

/**
 * An administrator made a canonical fixture of a staged 1.1 batch's fixture the
 * competition did not have, from its proposal: the fixture the reference at
 * `referencePath` (`fixtures.N`) now names, and who made it. Like a mapping of the
 * reference to it, the batch is validated again (a new round).
 */
export const BatchFixtureCreated = defineEvent({
  type: "BatchFixtureCreated",
  category: "batch",
  version: 1,
  schema: z.strictObject({
    referencePath: z.string().regex(/^fixtures\.\d+$/),
    fixtureId: id,
    createdByAccountId: id,
    createdAt: z.iso.datetime({ offset: true }),
  }),
});

/**
 * The batch's sender sent replacements for items that cannot be published as they are
 * (rejected by validation or by a reviewer, or conflicting): each a delivery in the
 * package's shape, in the place of the item of that ordinal. The batch is validated again
 * with them, a new round; a replaced item's review no longer stands.
 */
export const BatchItemsResubmitted = defineEvent({
  type: "BatchItemsResubmitted",
  category: "batch",
  version: 1,
  schema: z.strictObject({
    items: z
      .array(z.strictObject({ ordinal: z.number().int().min(0), event: z.record(z.string(), z.unknown()) }))
      .min(1),
    resubmittedByAccountId: id,
    resubmittedAt: z.iso.datetime({ offset: true }),
  }),
});

export const REVIEW_DECISIONS = ["approved", "rejected"] as const;

/** What a reviewer says of items, and why: the reason is recorded with every item it covers. */
export const reviewSchema = z.strictObject({
  reviewerAccountId: id,
  decision: z.enum(REVIEW_DECISIONS),
  reason: z.string().trim().min(1).max(1000),
  reviewedAt: z.iso.datetime({ offset: true }),
});
export type Review = z.infer<typeof reviewSchema>;

/**
 * An administrator approved or rejected accepted items of a validated batch, named by their
 * ordinals (a whole-batch decision names every accepted item). A later decision on an item
 * replaces an earlier one until the batch is published; each stays in the log.
 */
export const BatchItemsReviewed = defineEvent({
  type: "BatchItemsReviewed",
  category: "batch",
  version: 1,
  schema: reviewSchema.extend({ ordinals: z.array(z.number().int().min(0)).min(1) }),
});

export const PUBLISHED_STATUSES = ["published", "partially_published", "rejected"] as const;

/**
 * The batch's approved items went to the fixtures' ledgers (docs/batches.md, "Publication"):
 * `published` when every item of the package is published, `partially_published` when some
 * are and some are not, `rejected` when none is. An approved item the ledger no longer takes
 * (it moved since validation) is `refused`, with the rule it broke.
 */
export const BatchPublished = defineEvent({
  type: "BatchPublished",
  category: "batch",
  version: 1,
  schema: z.strictObject({
    status: z.enum(PUBLISHED_STATUSES),
    published: z.array(
      z.strictObject({
        ordinal: z.number().int().min(0),
        fixtureId: id,
        eventId: z.uuid(),
        /** 1 for a new delivery; the new revision for a correction. */
        revision: z.number().int().min(1),
      }),
    ),
    refused: z.array(
      z.strictObject({ ordinal: z.number().int().min(0), code: z.string().min(1), message: z.string() }),
    ),
  }),
});

export const batchEvents = [
  BatchReceived,
  BatchValidationStarted,
  BatchItemsJudged,
  BatchValidated,
  BatchReferencesMapped,
  BatchFixtureCreated,
  BatchItemsResubmitted,
  BatchItemsReviewed,
  BatchPublished,
] as const;
export type BatchEvent = EventOf<(typeof batchEvents)[number]>;
export const batchCatalogue = new EventCatalogue(batchEvents);
