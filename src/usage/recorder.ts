import type { Sql } from "../db/database.js";
import type { Logger } from "../http/logging.js";
import { utcDate } from "./dates.js";
import { routeTemplate, statusClass, type UsageRecord } from "./telemetry.js";

/** One counter of the aggregate: a row of `api_usage` and the requests to add to it. */
type UsageCount = {
  usageDate: string;
  consumerId: number;
  keyId: number;
  method: string;
  route: string;
  statusClass: string;
  requests: number;
};

/**
 * A counter as `record` keeps it: the request's own fields, grouped by its UTC day number and
 * status class. Spelling them out as a row (date string, route template) is left to the
 * write, once per counter instead of once per request.
 */
type HeldCount = { day: number; request: UsageRecord; requests: number };

const DAY_MS = 86_400_000;

export type UsageRecorderOptions = {
  /** How often `start()` writes the aggregate. */
  flushEveryMs?: number;
  /** Most distinct counters held between writes; requests that would need another are dropped and counted. */
  maxCounters?: number;
};

/**
 * Usage telemetry kept off the request's critical path: `record` only adds to an in-memory
 * aggregate, and `flush` writes it in one statement (every `flushEveryMs` once started, and
 * on `close`). Counts are added to the stored ones, so what is written is never written twice
 * and several instances can flush into one table. A failed write keeps its counts for the
 * next one; memory stays bounded by `maxCounters`, past which requests are dropped, counted
 * and logged rather than held.
 */
export class UsageRecorder {
  private pending = new Map<string, HeldCount>();
  private droppedRequests = 0;
  /** The write in progress: flushes take turns, so a caller's flush includes every earlier record. */
  private writing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private readonly flushEveryMs: number;
  private readonly maxCounters: number;

  constructor(
    private readonly sql: Sql,
    private readonly logger: Logger,
    options: UsageRecorderOptions = {},
  ) {
    this.flushEveryMs = options.flushEveryMs ?? 5_000;
    this.maxCounters = options.maxCounters ?? 10_000;
  }

  /** Counts one answered keyed request. Synchronous and in memory only: it runs on every keyed request. */
  record(request: UsageRecord): void {
    const day = Math.floor(request.at.getTime() / DAY_MS);
    const { consumerId, keyId, method, routePath, status } = request;
    this.add(`${day}|${consumerId}|${keyId}|${method}|${routePath}|${Math.floor(status / 100)}`, day, request, 1);
  }

  /** Writes every request recorded so far (and any a failed write kept). Never rejects: a failure is logged. */
  flush(): Promise<void> {
    this.writing = this.writing.then(() => this.write());
    return this.writing;
  }

  /** Flushes every `flushEveryMs` until `close`, without keeping the process alive. */
  start(): void {
    if (this.timer) return;
    const tick = () => {
      this.timer = setTimeout(() => void this.flush().finally(() => this.timer && tick()), this.flushEveryMs);
      this.timer.unref();
    };
    tick();
  }

  /** Stops the timer and writes what is left. */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private add(key: string, day: number, request: UsageRecord, requests: number): void {
    const held = this.pending.get(key);
    if (held) held.requests += requests;
    else if (this.pending.size < this.maxCounters) this.pending.set(key, { day, request, requests });
    else this.droppedRequests += requests;
  }

  private async write(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    if (batch.size > 0) {
      try {
        await addCounts(this.sql, rows(batch.values()));
      } catch (error) {
        for (const [key, { day, request, requests }] of batch) this.add(key, day, request, requests);
        this.logger.warn({ err: error, counters: batch.size }, "usage telemetry not written; kept for the next flush");
      }
    }
    if (this.droppedRequests > 0) {
      this.logger.warn(
        { droppedRequests: this.droppedRequests, maxCounters: this.maxCounters },
        "usage telemetry dropped requests: too many distinct counters between flushes",
      );
      this.droppedRequests = 0;
    }
  }
}

/** The rows held counts add to; counts that spell the same row (`get` and `GET`) are summed. */
function rows(held: Iterable<HeldCount>): UsageCount[] {
  const byRow = new Map<string, UsageCount>();
  for (const { request, requests } of held) {
    const row = {
      usageDate: utcDate(request.at),
      consumerId: request.consumerId,
      keyId: request.keyId,
      method: request.method.toUpperCase(),
      route: routeTemplate(request.routePath),
      statusClass: statusClass(request.status),
    };
    const key = `${row.usageDate}|${row.consumerId}|${row.keyId}|${row.method}|${row.route}|${row.statusClass}`;
    const counted = byRow.get(key);
    if (counted) counted.requests += requests;
    else byRow.set(key, { ...row, requests });
  }
  return [...byRow.values()];
}

/**
 * One statement whatever the batch size: the columns travel as seven arrays, so the
 * statement text (and its prepared plan) is the same for every batch and no batch can reach
 * the bind-parameter limit.
 */
async function addCounts(sql: Sql, counts: UsageCount[]): Promise<void> {
  const column = <K extends keyof UsageCount>(name: K) => counts.map((c) => c[name]);
  await sql`
    insert into api_usage (usage_date, consumer_id, key_id, method, route, status_class, requests)
    select * from unnest(
      ${column("usageDate")}::date[], ${column("consumerId")}::integer[], ${column("keyId")}::integer[],
      ${column("method")}::text[], ${column("route")}::text[], ${column("statusClass")}::text[],
      ${column("requests")}::bigint[])
    on conflict (consumer_id, usage_date, key_id, method, route, status_class)
    do update set requests = api_usage.requests + excluded.requests`;
}
