/**
 * Hits on the same windows, counted as one batch: each window is raised by the number of
 * hits that reach it (all of them for the first window, then only those the window before
 * admitted), in one step. A batch leaves every count where the same hits, one by one in
 * order, would have left it, and `countsOfEach` tells each hit what it would have seen.
 */

/**
 * What each of `hits` batched hits sees, in order: its count in each window it reached (the
 * last one the window that refused it, if any), from the windows' counts after the batch
 * (`totals`, as many as the batch reached) and their limits.
 */
export function countsOfEach(totals: readonly number[], limits: readonly number[], hits: number): number[][] {
  const each = Array.from({ length: hits }, (): number[] => []);
  let reaching = hits;
  for (let i = 0; i < totals.length && reaching > 0; i++) {
    const before = (totals[i] as number) - reaching;
    for (let hit = 0; hit < reaching; hit++) (each[hit] as number[]).push(before + hit + 1);
    reaching = admittedBy(limits[i] as number, before, reaching);
  }
  return each;
}

/** How many of `reaching` hits a window with `before` counted and `limit` admits: the first ones, up to the limit. */
const admittedBy = (limit: number, before: number, reaching: number) => Math.max(0, Math.min(reaching, limit - before));
