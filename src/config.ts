import { z } from "zod";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const urlWithScheme = (name: string, schemes: readonly string[]) =>
  z
    .string()
    .trim()
    .refine((value) => URL.canParse(value) && schemes.includes(new URL(value).protocol.slice(0, -1)), {
      message: `${name} must be a URL starting with ${schemes.map((s) => `${s}://`).join(" or ")}`,
    });

const settingsSchema = z.object({
  PORT: z.coerce
    .number({ message: "PORT must be a whole number" })
    .int("PORT must be a whole number")
    .min(0, "PORT must be between 0 and 65535")
    .max(65535, "PORT must be between 0 and 65535")
    .default(3000),
  DATA_DIR: z.string().trim().min(1, "DATA_DIR must not be empty").default("./data"),
  DATABASE_URL: urlWithScheme("DATABASE_URL", ["postgres", "postgresql"]).optional(),
  REDIS_URL: urlWithScheme("REDIS_URL", ["redis", "rediss"]).optional(),
  EVENTSTORE_URL: urlWithScheme("EVENTSTORE_URL", [
    "kurrentdb",
    "kurrentdb+discover",
    "esdb",
    "esdb+discover",
  ]).optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}` }).default("info"),
  PROJECTORS: z.enum(["on", "off"], { message: "PROJECTORS must be on or off" }).default("on"),
});

export type Settings = {
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  eventStoreUrl: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  /** Whether this API process also runs the projectors (off for API replicas beside a worker). */
  runProjectors: boolean;
};

export class InvalidSettings extends Error {
  override readonly name = "InvalidSettings";
}

/**
 * Reads the runtime settings from the environment. Empty variables count as unset, so a
 * blank `DATABASE_URL=` in a shell file falls back to the embedded database. Every problem is
 * reported in one message, so an operator fixes them all in one go.
 */
export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const present = Object.fromEntries(
    Object.keys(settingsSchema.shape).flatMap((key) => {
      const value = env[key];
      return value === undefined || value.trim() === "" ? [] : [[key, value]];
    }),
  );
  const parsed = settingsSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const key = String(issue.path[0]);
      return `${issue.message} (got ${JSON.stringify(present[key])})`;
    });
    throw new InvalidSettings(`Invalid settings: ${problems.join("; ")}`);
  }
  const s = parsed.data;
  return {
    port: s.PORT,
    dataDir: s.DATA_DIR,
    databaseUrl: s.DATABASE_URL,
    redisUrl: s.REDIS_URL,
    eventStoreUrl: s.EVENTSTORE_URL,
    logLevel: s.LOG_LEVEL,
    runProjectors: s.PROJECTORS === "on",
  };
}
