import type { ReportItem } from "../batches/queries.js";

/** Most places one mapping form sends: the API's most mappings a request. */
export const MAX_MAPPED_PLACES = 500;

/** Where a reference is in the package: its path, within a file when the package has several. */
export type Place = { file?: string | undefined; referencePath: string };

/** One reference as submitted (a name, a source id), and every place it needs resolving, with what it could name. */
export type OpenReference = {
  referenceType: string;
  /** How the package named it: its name and source id, as given. */
  submitted: string;
  candidates: readonly { label: string; candidateReference: string; sourceId: string }[];
  places: Place[];
};

const submittedAs = (reference: ReportItem["requirements"][number]["submittedReference"]) =>
  [reference?.context?.name, reference?.sourceId].filter(Boolean).join(", ") || "(no name)";

/**
 * The unresolved and ambiguous references of a batch's items, one entry a reference as
 * submitted (the same name with the same candidates, wherever it recurs): a person named at
 * a hundred deliveries is resolved once. In the order they first occur.
 */
export function openReferences(items: readonly ReportItem[]): OpenReference[] {
  const open = new Map<string, OpenReference>();
  for (const item of items)
    for (const requirement of item.requirements) {
      const submitted = submittedAs(requirement.submittedReference);
      const referenceType = requirement.referenceType ?? "reference";
      const key = JSON.stringify([referenceType, submitted, requirement.candidates.map((c) => c.sourceId)]);
      const entry = open.get(key) ?? { referenceType, submitted, candidates: requirement.candidates, places: [] };
      const place = {
        ...(item.file === undefined ? {} : { file: item.file }),
        referencePath: requirement.referencePath,
      };
      // A fixture's or season's reference is one place, however many of its deliveries report it.
      if (!entry.places.some((p) => placeValue(p) === placeValue(place))) entry.places.push(place);
      open.set(key, entry);
    }
  return [...open.values()];
}

/** A place as a form field's value, and back: its file and path together, whatever characters they hold. */
export const placeValue = (place: Place) => JSON.stringify([place.file ?? null, place.referencePath]);

export function placeOf(value: string): Place | undefined {
  try {
    const place: unknown = JSON.parse(value);
    if (!Array.isArray(place) || place.length !== 2) return undefined;
    const [file, referencePath] = place as unknown[];
    if (typeof referencePath !== "string" || (file !== null && typeof file !== "string")) return undefined;
    return file === null ? { referencePath } : { file, referencePath };
  } catch {
    return undefined;
  }
}
