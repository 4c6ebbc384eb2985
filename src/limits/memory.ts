import { type WindowCount, type WindowCounter, windowId, windowStart } from "./window-counter.js";

/** Ended windows are dropped at most this often: a sweep walks every window held. */
const SWEEP_INTERVAL_MS = 1000;

export type MemoryWindowCounter = WindowCounter & {
  readonly kind: "memory";
  /** Windows held (a gauge of the memory used; ended windows linger until the next sweep). */
  size(): number;
};

/** The in-process adapter, for a single instance: a Map of the windows not yet ended. */
export const memoryWindowCounter = (): MemoryWindowCounter => {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let nextSweepAt = Number.NEGATIVE_INFINITY;

  return {
    kind: "memory",
    hit(counted, now) {
      if (now >= nextSweepAt) {
        for (const [id, window] of windows) if (window.resetAt <= now) windows.delete(id);
        nextSweepAt = now + SWEEP_INTERVAL_MS;
      }
      const counts: WindowCount[] = [];
      for (const { key, windowMs, limit } of counted) {
        const start = windowStart(now, windowMs);
        const id = windowId(key, windowMs, start);
        const window = windows.get(id) ?? { count: 0, resetAt: start + windowMs };
        window.count += 1;
        windows.set(id, window);
        counts.push({ ...window });
        if (window.count > limit) break;
      }
      // Counted at once, answered on the next turn of the event loop, as a Redis round trip
      // would be. Measured (bench access): answering within the same turn left keyed reads at
      // 0.77x of unlimited anonymous ones under load, yielding brings them to 0.98x; the
      // server reads more waiting requests between responses.
      return new Promise((resolve) => setImmediate(resolve, counts));
    },
    size: () => windows.size,
    async close() {
      windows.clear();
    },
  };
};
