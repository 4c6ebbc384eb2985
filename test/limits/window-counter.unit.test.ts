import { describe, expect, it } from "vitest";
import { memoryWindowCounter } from "../../src/limits/memory.js";
import { windowStart } from "../../src/limits/window-counter.js";

describe("windowStart", () => {
  it("aligns windows to multiples of their length since the epoch: UTC minutes and UTC days", () => {
    expect(windowStart(Date.UTC(2026, 0, 1, 12, 0, 59, 999), 60_000)).toBe(Date.UTC(2026, 0, 1, 12, 0));
    expect(windowStart(Date.UTC(2026, 0, 1, 12, 1, 0, 0), 60_000)).toBe(Date.UTC(2026, 0, 1, 12, 1));
    expect(windowStart(Date.UTC(2026, 5, 30, 23, 59, 59, 999), 86_400_000)).toBe(Date.UTC(2026, 5, 30));
    expect(windowStart(Date.UTC(2026, 6, 1), 86_400_000)).toBe(Date.UTC(2026, 6, 1));
  });

  it("refuses a window that is not a positive whole number of milliseconds", () => {
    for (const windowMs of [0, -60_000, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => windowStart(Date.now(), windowMs)).toThrow(RangeError);
    }
  });
});

describe("memoryWindowCounter", () => {
  it("forgets ended windows, so it holds only the windows still running", async () => {
    const counter = memoryWindowCounter();
    const start = Date.UTC(2026, 0, 1, 12);
    const daily = { key: "consumer:daily", windowMs: 86_400_000, limit: 10 };
    const minute = (i: number) => ({ key: `source:${i}`, windowMs: 60_000, limit: 10 });
    await counter.hit([daily], start);
    for (let i = 0; i < 1000; i++) await counter.hit([minute(i)], start + i);
    expect(counter.size()).toBe(1001);

    // A minute on, every per-minute window has ended; the day's is still counting.
    expect(await counter.hit([minute(0)], start + 60_000)).toEqual([{ count: 1, resetAt: start + 120_000 }]);
    expect(counter.size()).toBe(2);
    expect(await counter.hit([daily], start + 60_000)).toEqual([{ count: 2, resetAt: Date.UTC(2026, 0, 2) }]);
    await counter.close();
  });
});
