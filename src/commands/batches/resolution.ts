import type { BatchEvent, BatchReferencesMapped } from "../../../streams/batch.js";
import type { Batch } from "../../../streams/batch-state.js";
import type { EventData } from "../../../streams/types.js";
import { BatchNotStaged } from "./errors.js";

/**
 * Resolution of a staged batch's references, as the batch stream decides it
 * (docs/batches.md, "Resolution"). Pure: which references the mappings name, and that each
 * fits its path, were checked against the package before (./map-references.ts).
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

export function stagedOrRefused(batch: Batch): void {
  const status = batch.validation?.completed ? batch.validation.status : "validating";
  if (batch.published || status !== "staged")
    throw new BatchNotStaged(
      `Only a staged batch takes reference mappings; this one is ${batch.published ? "published" : status}`,
    );
}
