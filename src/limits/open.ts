import { memoryWindowCounter } from "./memory.js";
import { redisWindowCounter } from "./redis.js";
import type { WindowCounter } from "./window-counter.js";

/** The counter the settings ask for: Redis, shared by every instance, when REDIS_URL is set; in-process otherwise. */
export const openWindowCounter = (redisUrl: string | undefined): WindowCounter =>
  redisUrl ? redisWindowCounter(redisUrl) : memoryWindowCounter();
