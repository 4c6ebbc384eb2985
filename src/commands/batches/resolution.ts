import type {
  BatchEvent,
  BatchFixtureCreated,
  BatchItemsResubmitted,
  BatchReferencesMapped,
} from "../../../streams/batch.js";
import type { Batch } from "../../../streams/batch-state.js";
import type { EventData } from "../../../streams/types.js";
import { BatchNotResubmittable, BatchNotStaged, BatchRequestInvalid, ItemNotResubmittable } from "./errors.js";

/**
 * Resolution of a batch, as its stream decides it (docs/batches.md, "Resolution" and
 * "Resubmission"): the references of a staged batch mapped, and items that cannot be
 * published replaced by its sender. Pure: which references the mappings name, and that
 * each fits its path, were checked against the package before (./amendments.ts).
 */

/** Mappings of references, each by its path in the package, to the entity chosen for it. */
export type MapReferences = { type: "MapReferences" } & EventData<typeof BatchReferencesMapped>;

/**
 * Requirements of a mapping:
 * - only a `staged` batch takes mappings (409 BATCH_NOT_STAGED): one still validating has
 *   not said what it needs, and a validated, rejected or published one needs nothing;
 * - mappings that all stand already append nothing (a repeated request);
 * - otherwise they are recorded, and the batch is validated again with every mapping so far.
 */
export function mapReferences(command: MapReferences, batch: Batch): BatchEvent[] {
  stagedOrRefused(batch);
  const { type: _, ...data } = command;
  const standing = data.mappings.every((m) => {
    const held = batch.mappings.get(m.referencePath);
    return held?.entityId === m.entityId && held.referenceType === m.referenceType;
  });
  return standing ? [] : [{ type: "BatchReferencesMapped", data }];
}

/** A canonical fixture made of the package's fixture at `referencePath`: the reference now names it. */
export type RecordCanonicalFixture = { type: "RecordCanonicalFixture" } & EventData<typeof BatchFixtureCreated>;

/**
 * Requirements of a canonical fixture's record: the batch is staged (409 BATCH_NOT_STAGED);
 * then the reference names the fixture and the batch is validated again, even when it named
 * it already (a retry: the fixture may have been made after a round judged without it).
 */
export function recordCanonicalFixture(command: RecordCanonicalFixture, batch: Batch): BatchEvent[] {
  stagedOrRefused(batch);
  const { type: _, ...data } = command;
  return [{ type: "BatchFixtureCreated", data }];
}

export function resubmittableOrRefused(batch: Batch): void {
  const status = batch.validation?.completed ? batch.validation.status : "validating";
  if (batch.published || status === "validating")
    throw new BatchNotResubmittable(
      `Items are resubmitted once the batch is judged and until it is published; this one is ${batch.published ? "published" : status}`,
    );
}

export function stagedOrRefused(batch: Batch): void {
  const status = batch.validation?.completed ? batch.validation.status : "validating";
  if (batch.published || status !== "staged")
    throw new BatchNotStaged(
      `Only a staged batch takes reference mappings; this one is ${batch.published ? "published" : status}`,
    );
}

/** Replacements for items, by ordinal, each a delivery in the package's shape. */
export type ResubmitItems = { type: "ResubmitItems" } & EventData<typeof BatchItemsResubmitted>;

/**
 * Requirements of a resubmission:
 * - only the batch's sender resubmits (checked before: ./amendments.ts);
 * - the batch is judged (validated, staged or rejected by validation) and not published:
 *   one still validating has not said what is wrong, a published one is closed (409
 *   BATCH_NOT_RESUBMITTABLE);
 * - each ordinal names an item of the batch, once (422);
 * - each item cannot be published as it is: rejected, conflicting or unresolved in
 *   validation (a reference no mapping can reach, say a name two people of a fixture not
 *   made yet go by, is named again), or rejected by a reviewer; any other is 409
 *   ITEM_NOT_RESUBMITTABLE naming each (an accepted item waits for review, a duplicate is
 *   published already);
 * - the replacements are recorded, each replaced item's review no longer stands, and the
 *   batch is validated again.
 */
export function resubmitItems(command: ResubmitItems, batch: Batch): BatchEvent[] {
  resubmittableOrRefused(batch);
  const ordinals = command.items.map((i) => i.ordinal);
  const unknown = ordinals.flatMap((o, i) =>
    o >= batch.outcomes.length
      ? [{ code: "ITEM_NOT_FOUND", message: `The batch has no item ${o}`, field: `items.${i}.ordinal` }]
      : ordinals.indexOf(o) < i
        ? [{ code: "DUPLICATE_ITEM", message: `Item ${o} is replaced once a request`, field: `items.${i}.ordinal` }]
        : [],
  );
  if (unknown.length > 0) throw new BatchRequestInvalid("Items named for resubmission are not in the batch", unknown);
  const kept = ordinals.flatMap((o, i) => {
    const outcome = batch.outcomes[o];
    const rejected =
      outcome === "rejected" ||
      outcome === "conflicting" ||
      outcome === "unresolved" ||
      batch.reviews.get(o)?.decision === "rejected";
    return rejected
      ? []
      : [
          {
            code: "ITEM_NOT_RESUBMITTABLE",
            message: `Item ${o} is ${outcome}${batch.reviews.has(o) ? " and approved" : ""}: only rejected, conflicting or unresolved items are replaced`,
            field: `items.${i}.ordinal`,
          },
        ];
  });
  if (kept.length > 0)
    throw new ItemNotResubmittable(
      "Only items that cannot be published as they are are replaced; nothing was recorded",
      kept,
    );
  const { type: _, ...data } = command;
  return [{ type: "BatchItemsResubmitted", data }];
}
