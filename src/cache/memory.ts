import type { VersionedCache } from "./versioned-cache.js";

export type MemoryCacheOptions = {
  /** Most entries kept; the least recently used goes first. */
  maxEntries?: number;
  /** Most characters kept over all values (a fixture document of a Test is a few hundred kB). */
  maxChars?: number;
  /** Clock in milliseconds (tests move it). */
  now?: () => number;
};

/**
 * The in-process adapter, for a single instance (the embedded default): a Map in least
 * recently used order with per-entry expiry, bounded in entries and in size so a crawl
 * over every fixture cannot grow the heap without limit.
 */
export class MemoryCache implements VersionedCache {
  readonly kind = "memory" as const;
  private readonly entries = new Map<string, { value: string; expiresAt: number }>();
  private chars = 0;
  private readonly maxEntries: number;
  private readonly maxChars: number;
  private readonly now: () => number;

  constructor({ maxEntries = 500, maxChars = 32 * 1024 * 1024, now = Date.now }: MemoryCacheOptions = {}) {
    this.maxEntries = maxEntries;
    this.maxChars = maxChars;
    this.now = now;
  }

  async get(key: string): Promise<string | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.remove(key);
    if (entry.expiresAt <= this.now()) return undefined;
    this.entries.set(key, entry); // most recently used last
    this.chars += entry.value.length;
    return entry.value;
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    this.remove(key);
    if (value.length > this.maxChars) return;
    this.entries.set(key, { value, expiresAt: this.now() + ttlSeconds * 1000 });
    this.chars += value.length;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries && this.chars <= this.maxChars) break;
      this.remove(oldest);
    }
  }

  /** Keys currently held, least recently used first (expired ones included until read or evicted). */
  keys(): string[] {
    return [...this.entries.keys()];
  }

  get size() {
    return { entries: this.entries.size, chars: this.chars };
  }

  async close(): Promise<void> {
    this.entries.clear();
    this.chars = 0;
  }

  private remove(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.chars -= entry.value.length;
  }
}

export const memoryCache = (options?: MemoryCacheOptions) => new MemoryCache(options);
