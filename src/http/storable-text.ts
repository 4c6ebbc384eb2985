/*
 * Input is checked for text the database cannot hold (`storable`) where it enters, so such
 * a string is the client's error and never a failed query (`refuseUnstorable`).
 */
import { storable } from "../../streams/shared.js";

export const UNSTORABLE_MESSAGE = "Text must not contain U+0000 or an unpaired surrogate";

/** The path of every key and string in `value` that is not storable, depth first. */
export function unstorablePaths(value: unknown, path: string[] = []): string[][] {
  if (typeof value === "string") return storable(value) ? [] : [path];
  if (typeof value !== "object" || value === null) return [];
  const found: string[][] = [];
  for (const [key, item] of Object.entries(value)) {
    if (!storable(key)) found.push([...path, key]);
    else found.push(...unstorablePaths(item, [...path, key]));
  }
  return found;
}
