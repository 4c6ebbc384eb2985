import { randomBytes, randomUUID } from "node:crypto";
import type { HttpBindings } from "@hono/node-server";
import type { Context, ErrorHandler, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { JsonTooDeep, nestsTooDeep } from "../bounded-json.js";
import type { VersionedCache } from "../cache/versioned-cache.js";
import { type DatabaseWatch, isDatabaseUnavailable } from "../db/availability.js";
import type { Sql } from "../db/database.js";
import type { EventStore } from "../event-store/port.js";
import type { Identity } from "../identity/open.js";
import { memoryWindowCounter } from "../limits/memory.js";
import type { WindowCounter } from "../limits/window-counter.js";
import { readModelsBehind } from "../projections/generations.js";
import { projectors } from "../projections/registry.js";
import type { ProjectionRunner } from "../projections/runner.js";
import type { ReadModelWatch } from "../projections/watch.js";
import type { QuestionLimits } from "../questions/limits.js";
import { type ServerSecret, serverSecret } from "../security/server-secret.js";
import type { UsageRecorder } from "../usage/recorder.js";
import type { Weather } from "../weather/weather.js";
import { createRouter, type Router } from "./api.js";
import { databaseAvailability, databaseUnavailable } from "./availability.js";
import { browserAccess } from "./cors.js";
import { ApiError, asApiError } from "./errors.js";
import { JSON_MEDIA_TYPE, notJson } from "./json-body.js";
import { keptAnswerStore } from "./kept-answers.js";
import type { Logger } from "./logging.js";
import { securityHeaders, withHeaders } from "./security-headers.js";
import { refuseDotSegments } from "./server.js";
import { unrouted } from "./unrouted.js";

export type AppDependencies = {
  logger: Logger;
  /**
   * The database the read models live in. Every route that reads data needs it; it is absent
   * only where the app is built for its OpenAPI document alone (`cricket openapi`).
   */
  sql?: Sql;
  /** The pool reads of the read models use (`Database.reads`); `sql` when not given. */
  reads?: Sql;
  /**
   * Whether the database answers (main.ts probes it): while it does not, requests are
   * refused at once with 503 instead of waiting on it. Without one, requests find out alone.
   */
  database?: DatabaseWatch;
  /**
   * The versioned cache of fixture statistics (`openVersionedCache`: Redis when REDIS_URL is
   * set). Without one, the app keeps an in-process cache of its own.
   */
  cache?: VersionedCache;
  /** Rendered answers of public reads (`keptAnswerStore`); without one, the app keeps its own. */
  answers?: VersionedCache;
  /**
   * Tells when the read models last changed, so values read from them are memoised until the
   * next change (main.ts follows its projection runner with it). Without one, every request
   * reads them again.
   */
  watch?: ReadModelWatch;
  /** The identity provider (token verifier, admin API); the application routes need it. */
  identity?: Identity;
  /** The event store commands append to; the application routes need it. */
  store?: EventStore;
  /** The projection runner, so a command's answer waits for its read models (read-your-writes). */
  projections?: ProjectionRunner;
  /** The rate-limit counter (`openWindowCounter`: Redis when REDIS_URL is set); without one, in-process. */
  rateLimits?: WindowCounter;
  /** The key of API-key and client-address digests (`openServerSecret`); without one, a random key of this app's. */
  secret?: ServerSecret;
  /** Limits of anonymous canonical reads (settings); without them anonymous reads are not limited. */
  anonymousLimits?: { perSourcePerMinute: number; platformPerMinute: number };
  /** Reverse proxies in front whose X-Forwarded-For entries are trusted (settings); 0 without. */
  trustedProxyHops?: number;
  /** Browser origins allowed by CORS (settings); none without. */
  corsOrigins?: readonly string[];
  /** Usage telemetry of keyed requests (main.ts opens one); without it nothing is recorded. */
  usage?: UsageRecorder;
  /** Weather and places from the provider, through their cache (main.ts builds it from settings); the weather routes need it. */
  weather?: Weather;
  /** Overrides of limits: of responses' sizes and export pages (tests use small ones), of the packages an account may send a minute and of natural-language questions (settings). */
  limits?: { exportEvents?: number; exportPage?: number; batchesPerMinute?: number; questions?: QuestionLimits };
};
export type RouteRegistration = (app: Router, deps: AppDependencies) => unknown;

export const MAX_BODY_BYTES = 1024 * 1024;

/** The whole HTTP surface: middleware, every route, and the one place errors become responses. */
export function createApp(given: AppDependencies, routes: readonly RouteRegistration[]): Router {
  const deps: AppDependencies = {
    ...given,
    rateLimits: given.rateLimits ?? memoryWindowCounter(),
    secret: given.secret ?? serverSecret(randomBytes(32)),
    answers: given.answers ?? keptAnswerStore(),
  };
  const app = createRouter();
  app.use(requestId);
  app.use(requestLog(deps.logger));
  app.use(securityHeaders(deps.trustedProxyHops ?? 0));
  app.use("/api/v1/*", apiVersion);
  if (deps.corsOrigins?.length) app.use("/api/v1/*", browserAccess(deps.corsOrigins));
  app.use(refuseDotSegments);
  app.use(limitBodies);
  app.use(boundJsonNesting);
  if (deps.database) app.use("/api/v1/*", databaseAvailability(deps.database));

  for (const register of routes) register(app, deps);

  app.notFound(unrouted(app));
  app.onError(onError(deps));
  return app;
}

const limitBody = (maxSize: number) =>
  bodyLimit({
    maxSize,
    // The rest of the body is not read, so the connection cannot serve another request.
    onError: () => {
      throw new ApiError("PAYLOAD_TOO_LARGE", `The request body is over ${maxSize} bytes`).withHeaders({
        Connection: "close",
      });
    },
  });
const limitJson = limitBody(MAX_BODY_BYTES);
/** A multipart body carries its file (checked against MAX_BODY_BYTES itself) and part headers. */
const limitMultipart = limitBody(MAX_BODY_BYTES + 64 * 1024);

/** A multi-file batch package: its files (each within MAX_BODY_BYTES) and manifest, 10 MB in all (docs/batches.md). */
export const MAX_BATCH_BYTES = 10 * 1024 * 1024;
const limitBatch = limitBody(MAX_BATCH_BYTES);

/**
 * Bodies are counted as they arrive, before parsing. GET and HEAD carry none, and skipping
 * them matters: touching the raw body makes the Node adapter build a full web Request,
 * which cost reads a large share of their throughput.
 */
const limitBodies: MiddlewareHandler = async (c, next) => {
  if (c.req.method === "GET" || c.req.method === "HEAD") return next();
  const multipart = /^multipart\/form-data/i.test(c.req.header("Content-Type") ?? "");
  const batch = multipart && c.req.method === "POST" && c.req.path === "/api/v1/batches";
  await (batch ? limitBatch : multipart ? limitMultipart : limitJson)(c, next);
  // Answered without reading the body (a 401 before an upload): read the rest, within the
  // limit, so the keep-alive connection serves the client's next request instead of being reset.
  if (c.req.raw.body && !c.req.raw.bodyUsed) await c.req.raw.arrayBuffer().catch(() => {});
};

/**
 * Refuses a JSON body that nests too deep before any route parses it (the validators and
 * `jsonBody` then parse the text read here: Hono keeps it).
 */
const boundJsonNesting: MiddlewareHandler = async (c, next) => {
  if (c.req.method !== "GET" && c.req.method !== "HEAD" && JSON_MEDIA_TYPE.test(c.req.header("Content-Type") ?? ""))
    if (nestsTooDeep(await c.req.text())) throw new ApiError("INVALID_JSON", new JsonTooDeep().message);
  await next();
};

const apiVersion: MiddlewareHandler = (c, next) => withHeaders(c, next, { "API-Version": "v1" });

/**
 * The request's id: the client's X-Request-Id when it is a plain token of at most 255
 * characters, else a fresh UUID; in the logs and on the answer.
 */
const requestId: MiddlewareHandler = (c, next) => {
  const given = c.req.header(REQUEST_ID);
  const id = given && given.length <= 255 && !/[^\w\-=]/.test(given) ? given : randomUUID();
  c.set("requestId", id);
  return withHeaders(c, next, { [REQUEST_ID]: id });
};
const REQUEST_ID = "X-Request-Id";

const requestLog =
  (logger: Logger): MiddlewareHandler =>
  async (c, next) => {
    const started = performance.now();
    await next();
    // Only these fields are logged: never headers, so no credential can leak into logs.
    logger.info(
      {
        requestId: c.get("requestId"),
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
      },
      "request",
    );
  };

const onError =
  ({ logger, sql }: Pick<AppDependencies, "logger" | "sql">): ErrorHandler =>
  async (error, c) => {
    const known = toApiError(error);
    if (known) return respond(c, known);
    if (clientLeft(c)) {
      // Its connection is gone: this answer reaches no one, and nothing here went wrong.
      logger.info({ requestId: c.get("requestId"), reason: error.message }, "client aborted the request");
      return respond(
        c,
        new ApiError("MALFORMED_REQUEST", "The client closed the connection before its request was read"),
      );
    }
    if (isDatabaseUnavailable(error)) {
      logger.warn({ requestId: c.get("requestId"), err: error }, "database unavailable");
      return respond(c, databaseUnavailable());
    }
    if (await readModelBehind(sql, error)) {
      logger.warn({ requestId: c.get("requestId"), err: error }, "a read model is being rebuilt for this version");
      return respond(
        c,
        new ApiError("NOT_READY", "A read model this answer needs is being rebuilt for this version; retry shortly"),
      );
    }
    logger.error({ requestId: c.get("requestId"), err: error }, "unhandled error");
    return respond(c, new ApiError("INTERNAL_SERVER_ERROR", "An unexpected error occurred"));
  };

/** Postgres's undefined_column and undefined_table: a query naming what its tables do not have. */
const OUT_OF_STEP = new Set(["42703", "42P01"]);

/**
 * Whether a query failed for naming a column or table the read models do not have because
 * they are of an older version than this code: after an upgrade, the new version's reads
 * reach the old generation's tables until the rebuild for the new one switches them
 * (docs/projections.md). At any other time the same error is a fault, answered 500.
 */
async function readModelBehind(sql: Sql | undefined, error: Error): Promise<boolean> {
  const code = (error as { code?: unknown }).code;
  if (!sql || typeof code !== "string" || !OUT_OF_STEP.has(code)) return false;
  return readModelsBehind(sql, projectors).catch(() => false);
}

/** Whether the client dropped the connection before its request had fully arrived. */
function clientLeft(c: Context): boolean {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  return incoming?.destroyed === true && !incoming.complete;
}

function toApiError(error: Error): ApiError | undefined {
  const reported = asApiError(error);
  if (reported) return reported;
  if (error instanceof HTTPException && error.status === 400 && /JSON/i.test(error.message)) {
    return new ApiError("INVALID_JSON", "The request body is not valid JSON");
  }
  // The JSON body validator refuses another media type with a bare 415.
  if (error instanceof HTTPException && error.status === 415) return notJson();
  return undefined;
}

const respond = (c: Context, error: ApiError) => c.json(error.toBody(), error.status, error.headers());

/** The secret of the keyed digests (API keys, client addresses): every app made by createApp has one. */
export function secretOf(deps: AppDependencies) {
  if (!deps.secret) throw new Error("this app was created without a server secret");
  return deps.secret;
}
