import { EventEmitter } from "node:events";
import type { Sql } from "./database.js";

/**
 * postgres.js codes of a connection that failed or broke, and the SQLSTATE classes that say
 * the server cannot take work (08 connection exceptions, 57P0x shutdowns, too many
 * connections, a statement cancelled by its timeout): the database is unavailable, the
 * statement itself was not wrong.
 */
const UNREACHABLE = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
]);
const NOT_TAKING_WORK = /^(08...|57P0[1-3]|53300|57014)$/;

export function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "string" && (UNREACHABLE.has(code) || NOT_TAKING_WORK.test(code));
}

export type DatabaseHealth = {
  up: boolean;
  checkedAt: Date | undefined;
  latencyMs: number | undefined;
  error?: string;
};

/**
 * Probes the database (`select 1`) every `everyMs`, so requests can be refused at once
 * while it is away instead of each waiting on it: a stopped server refuses connections, but
 * a hung one (or a partition) accepts them and never answers. A probe without an answer
 * within `answerWithinMs` marks it down; only one probe is out at a time, so a hung server
 * holds one connection of the pool, and the moment that probe is answered marks it up.
 */
export class DatabaseWatch {
  private health: DatabaseHealth = { up: true, checkedAt: undefined, latencyMs: undefined };
  private probing = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly changes = new EventEmitter();

  constructor(
    private readonly sql: Sql,
    private readonly options = { everyMs: 500, answerWithinMs: 1000 },
  ) {
    this.changes.setMaxListeners(0);
  }

  start(): void {
    this.probe();
    this.timer = setInterval(() => this.probe(), this.options.everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  get available(): boolean {
    return this.health.up;
  }

  get state(): DatabaseHealth {
    return this.health;
  }

  /** A promise that rejects when the database is next found unavailable, and its disposal. */
  lost(): { promise: Promise<never>; dispose: () => void } {
    let onDown: (error: Error) => void = () => {};
    const promise = new Promise<never>((_, reject) => {
      onDown = reject;
      this.changes.once("down", onDown);
    });
    promise.catch(() => {});
    return { promise, dispose: () => this.changes.off("down", onDown) };
  }

  private probe() {
    if (this.probing) return;
    this.probing = true;
    const started = performance.now();
    const deadline = setTimeout(
      () => this.mark(false, started, new Error(`no answer within ${this.options.answerWithinMs} ms`)),
      this.options.answerWithinMs,
    );
    this.sql`select 1`
      .then(
        () => this.mark(true, started),
        (error: Error) => this.mark(false, started, error),
      )
      .finally(() => {
        clearTimeout(deadline);
        this.probing = false;
      });
  }

  private mark(up: boolean, started: number, error?: Error) {
    const wasUp = this.health.up;
    this.health = {
      up,
      checkedAt: new Date(),
      latencyMs: up ? Math.round(performance.now() - started) : undefined,
      ...(error ? { error: error.message } : {}),
    };
    if (wasUp && !up) this.changes.emit("down", error);
  }
}
