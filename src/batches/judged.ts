import type { JudgedItemData, REFERENCE_TYPES } from "../../streams/batch.js";
import type { PackageReference } from "../ingest/batches/package.js";
import type { Candidate } from "./references.js";

/**
 * What judging a package produces, and the two translations every rule of it needs: a
 * reference that names no candidate or several becomes a requirement, and a field the direct
 * submissions' checks name becomes the path the package gives it.
 */

/** A delivery of the package as judged: its outcome, faults and references to resolve (the `BatchItemsJudged` item). */
export type JudgedItem = JudgedItemData;
export type Outcome = JudgedItem["outcome"];
/** A reference that names no candidate, or several: the batch stays staged until it is resolved. */
export type Requirement = JudgedItem["requirements"][number];

/** The requirement of a reference at `referencePath` that matched `found` (none, or several) of the `type`. */
export function requirement(
  referencePath: string,
  submitted: PackageReference,
  found: readonly Candidate[],
  type: (typeof REFERENCE_TYPES)[number],
): Requirement {
  return {
    code: found.length === 0 ? "UNRESOLVED_REFERENCE" : "AMBIGUOUS_REFERENCE",
    referencePath,
    referenceType: type,
    submittedReference: submitted,
    candidates: found.slice(0, 10).map((c) => ({
      sourceId: `app:${type}:${c.id}`,
      label: c.name,
      candidateReference: Buffer.from(`${type}:${c.id}`).toString("base64url"),
    })),
    resolutionRequired: true,
  };
}

/** The innings an item's path lies in (`fixtures.0.innings.1`): where its fixture and innings faults are. */
export const inningsPathOf = (itemPath: string) => itemPath.replace(/\.events\.\d+$/, "");

/**
 * Where a field the direct submissions' checks name lies in the item at `itemPath`: an
 * innings id is the innings' ordinal, the people are references (`striker`, not
 * `strikerId`), and a correction's `event.` prefix is the item itself.
 */
export function packagePath(itemPath: string, field: string): string {
  const own = field.replace(/^event\./, "");
  if (own === "inningsId") return `${inningsPathOf(itemPath)}.context.ordinal`;
  const named = own
    .replace(/^strikerId$/, "striker")
    .replace(/^nonStrikerId$/, "nonStriker")
    .replace(/^bowlerId$/, "bowler")
    .replace(/^sequenceNumber$/, "occurrenceSequence")
    .replace(/^ballNumber$/, "ballLabel")
    .replace(/\.playerOutId$/, ".playerOut")
    .replace(/\.participantId$/, ".participant");
  return `${itemPath}.${named}`;
}
