import { Redis } from "ioredis";

/** A key prefix of this test file's own, so files running in parallel never count each other's hits. */
export const uniquePrefix = () => `limit-test:${crypto.randomUUID()}`;

/** Drops what a test run left under its prefix (windows of fixed past dates can live up to a day). */
export async function dropKeys(url: string, prefix: string) {
  const client = new Redis(url);
  try {
    const keys = await client.keys(`${prefix}:*`);
    if (keys.length > 0) await client.del(...keys);
  } finally {
    client.disconnect();
  }
}
