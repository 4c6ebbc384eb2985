/** How pages write times and counts, one way everywhere. */

/** A UTC time to the minute: `2026-11-27 13:05`. */
export const minute = (at: Date | string) =>
  (typeof at === "string" ? at : at.toISOString()).slice(0, 16).replace("T", " ");

/** A count with thousands separated: `12,345`. */
export const count = (n: number) => n.toLocaleString("en-US");
