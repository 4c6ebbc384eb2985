import { inspect } from "node:util";
import { z } from "zod";
import { QUESTION_LIMITS, type QuestionLimits } from "./questions/limits.js";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const urlWithScheme = (name: string, schemes: readonly string[]) =>
  z
    .string()
    .trim()
    .refine((value) => URL.canParse(value) && schemes.includes(new URL(value).protocol.slice(0, -1)), {
      message: `${name} must be a URL starting with ${schemes.map((s) => `${s}://`).join(" or ")}`,
    });

/** A browser origin (scheme, host, port), spelled as an Origin header spells it. */
const origin = (name: string) =>
  urlWithScheme(name, ["https", "http"])
    .refine(
      (value) => {
        const { pathname, search, hash } = new URL(value);
        return pathname === "/" && !search && !hash;
      },
      { message: `${name} must be an origin: scheme, host and port only, e.g. https://app.example` },
    )
    .transform((value) => new URL(value).origin);

const limitSetting = (name: string, fallback: number) =>
  z.coerce
    .number({ message: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .min(1, `${name} must be between 1 and 1000000`)
    .max(1_000_000, `${name} must be between 1 and 1000000`)
    .default(fallback);

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
  // Identity provider (docs/identity.md). Unset AUTH_JWKS_URL means the built-in development issuer.
  AUTH_JWKS_URL: urlWithScheme("AUTH_JWKS_URL", ["https", "http"]).optional(),
  AUTH_ISSUER: z.string().trim().optional(),
  AUTH_AUDIENCE: z.string().trim().default("authenticated"),
  AUTH_ADMIN_URL: urlWithScheme("AUTH_ADMIN_URL", ["https", "http"]).optional(),
  AUTH_ADMIN_SECRET: z.string().trim().optional(),
  AUTH_SIGN_IN_URL: urlWithScheme("AUTH_SIGN_IN_URL", ["https", "http"]).optional(),
  AUTH_PUBLISHABLE_KEY: z.string().trim().optional(),
  // Keys the digests of API keys and client addresses (docs/consumers.md); unset: a file in DATA_DIR.
  SERVER_SECRET: z.string().trim().min(32, "SERVER_SECRET must be at least 32 characters").optional(),
  ANONYMOUS_RATE_LIMIT_PER_MINUTE: limitSetting("ANONYMOUS_RATE_LIMIT_PER_MINUTE", 30),
  ANONYMOUS_PLATFORM_LIMIT_PER_MINUTE: limitSetting("ANONYMOUS_PLATFORM_LIMIT_PER_MINUTE", 600),
  BATCHES_PER_MINUTE: limitSetting("BATCHES_PER_MINUTE", 10),
  QUESTIONS_PER_MINUTE: limitSetting("QUESTIONS_PER_MINUTE", QUESTION_LIMITS.perSourcePerMinute),
  QUESTIONS_PER_DAY: limitSetting("QUESTIONS_PER_DAY", QUESTION_LIMITS.perSourcePerDay),
  QUESTIONS_PLATFORM_PER_DAY: limitSetting("QUESTIONS_PLATFORM_PER_DAY", QUESTION_LIMITS.platformPerDay),
  TRUSTED_PROXY_HOPS: z.coerce
    .number({ message: "TRUSTED_PROXY_HOPS must be a whole number" })
    .int("TRUSTED_PROXY_HOPS must be a whole number")
    .min(0, "TRUSTED_PROXY_HOPS must be between 0 and 10")
    .max(10, "TRUSTED_PROXY_HOPS must be between 0 and 10")
    .default(0),
  // Weather provider (docs/weather.md): Open-Meteo's public hosts unless set; the key only for a subscription's hosts.
  WEATHER_FORECAST_URL: urlWithScheme("WEATHER_FORECAST_URL", ["https", "http"]).default("https://api.open-meteo.com"),
  WEATHER_ARCHIVE_URL: urlWithScheme("WEATHER_ARCHIVE_URL", ["https", "http"]).default(
    "https://archive-api.open-meteo.com",
  ),
  WEATHER_GEOCODING_URL: urlWithScheme("WEATHER_GEOCODING_URL", ["https", "http"]).default(
    "https://geocoding-api.open-meteo.com",
  ),
  WEATHER_API_KEY: z.string().trim().optional(),
  CORS_ORIGINS: z
    .string()
    .transform((list) =>
      list
        .split(",")
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(z.array(origin("Each of CORS_ORIGINS")))
    .default([]),
});

/** Settings whose value never appears in a message, not even an error about them. */
const SECRET_KEYS = new Set(["AUTH_ADMIN_SECRET", "SERVER_SECRET", "WEATHER_API_KEY"]);

/**
 * A server-only credential. It prints as `[redacted]` through JSON (pino) and `util.inspect`
 * (console), so logging the settings cannot leak it; `reveal()` is the one way to read it.
 */
export class Secret {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  reveal(): string {
    return this.#value;
  }
  toJSON() {
    return "[redacted]";
  }
  toString() {
    return "[redacted]";
  }
  [inspect.custom]() {
    return "Secret([redacted])";
  }
}

export type Settings = {
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  eventStoreUrl: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  /** Whether this API process also runs the projectors (off for API replicas beside a worker). */
  runProjectors: boolean;
  /** The identity provider's JWKS; unset means the built-in development issuer in `dataDir`. */
  authJwksUrl: string | undefined;
  /** The `iss` every accepted token carries (required with `authJwksUrl`). */
  authIssuer: string | undefined;
  /** The `aud` every accepted token carries. */
  authAudience: string;
  /** The provider's auth API base (e.g. `https://<ref>.supabase.co/auth/v1`) for its admin endpoints. */
  authAdminUrl: string | undefined;
  /** The server-only admin credential; without it account deletion is unavailable. */
  authAdminSecret: Secret | undefined;
  /** The provider's auth API base for the web UI's email and password sign-in (GoTrue's password grant). */
  authSignInUrl: string | undefined;
  /** The provider project's publishable key, sent with a sign-in (public: it identifies the project). */
  authPublishableKey: string | undefined;
  /** The key of the keyed digests (API keys, client addresses); unset means a file in `dataDir`. */
  serverSecret: Secret | undefined;
  /** Canonical reads without an API key: per client address, and all of them together. */
  anonymousLimits: { perSourcePerMinute: number; platformPerMinute: number };
  /** Batch packages one account may send per UTC minute. */
  batchesPerMinute: number;
  /** Natural-language questions: per client a UTC minute and a UTC day, and for all clients a UTC day. */
  questionLimits: QuestionLimits;
  /** How many reverse proxies in front of the service append to X-Forwarded-For (0: none, use the peer). */
  trustedProxyHops: number;
  /** Browser origins allowed to call the API (CORS); none by default. */
  corsOrigins: string[];
  /** The weather provider's hosts (forecast, archive, geocoding) and a subscription's key, if any. */
  weather: { forecastUrl: string; archiveUrl: string; geocodingUrl: string; apiKey: Secret | undefined };
};

/**
 * Identity settings only make sense together: a JWKS needs the issuer it vouches for, the
 * admin URL needs its secret, and provider settings without a JWKS would leave the
 * development issuer trusted while an operator believes the real provider is in charge.
 */
function identityProblems(present: Record<string, string>): string[] {
  const problems: string[] = [];
  if (present.AUTH_JWKS_URL) {
    if (!present.AUTH_ISSUER) problems.push("AUTH_ISSUER is required with AUTH_JWKS_URL (the iss claim tokens carry)");
  } else {
    for (const key of [
      "AUTH_ISSUER",
      "AUTH_AUDIENCE",
      "AUTH_ADMIN_URL",
      "AUTH_ADMIN_SECRET",
      "AUTH_SIGN_IN_URL",
      "AUTH_PUBLISHABLE_KEY",
    ]) {
      if (present[key])
        problems.push(`${key} only applies with AUTH_JWKS_URL; without it the built-in development issuer is used`);
    }
  }
  if (Boolean(present.AUTH_ADMIN_URL) !== Boolean(present.AUTH_ADMIN_SECRET))
    problems.push("AUTH_ADMIN_URL and AUTH_ADMIN_SECRET must be set together");
  if (Boolean(present.AUTH_SIGN_IN_URL) !== Boolean(present.AUTH_PUBLISHABLE_KEY))
    problems.push("AUTH_SIGN_IN_URL and AUTH_PUBLISHABLE_KEY must be set together");
  if (present.AUTH_SIGN_IN_URL && URL.canParse(present.AUTH_SIGN_IN_URL)) {
    const { search, hash } = new URL(present.AUTH_SIGN_IN_URL);
    if (search || hash) problems.push("AUTH_SIGN_IN_URL must be the auth API's base, without a query or fragment");
  }
  // The publishable key is sent from here on every sign-in; a secret one would act on every user.
  if (present.AUTH_PUBLISHABLE_KEY?.startsWith("sb_secret_"))
    problems.push("AUTH_PUBLISHABLE_KEY holds a secret key (sb_secret_…): give the project's publishable key");
  return problems;
}

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
  const problems = [
    ...(parsed.error?.issues ?? []).map((issue) => {
      const key = String(issue.path[0]);
      return SECRET_KEYS.has(key) ? issue.message : `${issue.message} (got ${JSON.stringify(present[key])})`;
    }),
    ...identityProblems(present),
    ...(present.REDIS_URL && !present.SERVER_SECRET
      ? [
          "SERVER_SECRET is required with REDIS_URL: the instances sharing one Redis must key API-key and client digests alike, or a key issued on one fails on the others",
        ]
      : []),
  ];
  if (!parsed.success || problems.length > 0) throw new InvalidSettings(`Invalid settings: ${problems.join("; ")}`);
  const s = parsed.data;
  return {
    port: s.PORT,
    dataDir: s.DATA_DIR,
    databaseUrl: s.DATABASE_URL,
    redisUrl: s.REDIS_URL,
    eventStoreUrl: s.EVENTSTORE_URL,
    logLevel: s.LOG_LEVEL,
    runProjectors: s.PROJECTORS === "on",
    authJwksUrl: s.AUTH_JWKS_URL,
    authIssuer: s.AUTH_ISSUER,
    authAudience: s.AUTH_AUDIENCE,
    authAdminUrl: s.AUTH_ADMIN_URL,
    authAdminSecret: s.AUTH_ADMIN_SECRET === undefined ? undefined : new Secret(s.AUTH_ADMIN_SECRET),
    authSignInUrl: s.AUTH_SIGN_IN_URL,
    authPublishableKey: s.AUTH_PUBLISHABLE_KEY,
    serverSecret: s.SERVER_SECRET === undefined ? undefined : new Secret(s.SERVER_SECRET),
    anonymousLimits: {
      perSourcePerMinute: s.ANONYMOUS_RATE_LIMIT_PER_MINUTE,
      platformPerMinute: s.ANONYMOUS_PLATFORM_LIMIT_PER_MINUTE,
    },
    batchesPerMinute: s.BATCHES_PER_MINUTE,
    questionLimits: {
      perSourcePerMinute: s.QUESTIONS_PER_MINUTE,
      perSourcePerDay: s.QUESTIONS_PER_DAY,
      platformPerDay: s.QUESTIONS_PLATFORM_PER_DAY,
    },
    trustedProxyHops: s.TRUSTED_PROXY_HOPS,
    corsOrigins: s.CORS_ORIGINS,
    weather: {
      forecastUrl: s.WEATHER_FORECAST_URL,
      archiveUrl: s.WEATHER_ARCHIVE_URL,
      geocodingUrl: s.WEATHER_GEOCODING_URL,
      apiKey: s.WEATHER_API_KEY === undefined ? undefined : new Secret(s.WEATHER_API_KEY),
    },
  };
}
