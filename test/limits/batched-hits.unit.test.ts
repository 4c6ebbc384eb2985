import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countsOfEach } from "../../src/limits/batched-hits.js";

/**
 * Hits one by one, as the WindowCounter contract describes them: each raises the windows in
 * turn and stops after the first it takes over its limit. Returns each hit's counts and the
 * windows' counts afterwards.
 */
function oneByOne(start: readonly number[], limits: readonly number[], hits: number) {
  const counts = [...start];
  const each = Array.from({ length: hits }, () => {
    const seen: number[] = [];
    for (const [i, limit] of limits.entries()) {
      counts[i] = (counts[i] as number) + 1;
      seen.push(counts[i] as number);
      if ((counts[i] as number) > limit) break;
    }
    return seen;
  });
  return { each, counts };
}

/** What the batch script leaves: each window raised by the hits that reach it, stopping at one that admits none. */
function asBatch(start: readonly number[], limits: readonly number[], hits: number) {
  const totals: number[] = [];
  let reaching = hits;
  for (const [i, limit] of limits.entries()) {
    const before = start[i] as number;
    totals.push(before + reaching);
    reaching = Math.max(0, Math.min(reaching, limit - before));
    if (reaching === 0) break;
  }
  return totals;
}

describe("countsOfEach", () => {
  it("tells each hit of a batch what it would have seen hitting alone, in order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ start: fc.nat(12), limit: fc.integer({ min: 1, max: 12 }) }), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.integer({ min: 1, max: 20 }),
        (windows, hits) => {
          const start = windows.map((w) => w.start);
          const limits = windows.map((w) => w.limit);
          const expected = oneByOne(start, limits, hits);
          const totals = asBatch(start, limits, hits);
          expect(countsOfEach(totals, limits, hits)).toEqual(expected.each);
          // The batch leaves every window where the hits one by one would have.
          expect(totals).toEqual(expected.counts.slice(0, totals.length));
          expect(expected.counts.slice(totals.length)).toEqual(start.slice(totals.length));
        },
      ),
    );
  });

  it("passes a consumer's minute on to its quota only for the hits the minute admits", () => {
    // Minute at 58 of 60, quota at 100 of 1,000: of 4 hits the first two reach the quota.
    expect(countsOfEach([62, 102], [60, 1000], 4)).toEqual([[59, 101], [60, 102], [61], [62]]);
  });
});
