import { expect } from "vitest";
import type { AppDependencies } from "../../src/http/app.js";
import { testApp } from "./app.js";
import { type ApiResponse, contractClient } from "./contract.js";
import { CricketWorld } from "./cricket-world.js";
import { openTestDatabase, type TestDatabase } from "./databases.js";

export type ReadApi = {
  db: TestDatabase;
  world: CricketWorld;
  api: ReturnType<typeof contractClient>;
  /** The app itself, for what the contract client cannot do (read a body a chunk at a time). */
  app: ReturnType<typeof testApp>["app"];
  close(): Promise<void>;
};

/** A database given cricket through the real projectors, and the real app reading it through the contract client. */
export async function openReadApi(limits?: AppDependencies["limits"]): Promise<ReadApi> {
  const db = await openTestDatabase();
  const world = new CricketWorld(db.sql);
  await world.catchUp(); // creates every read model (and its public views) before the first request
  const { app } = testApp(undefined, { sql: db.sql, reads: db.reads, ...(limits ? { limits } : {}) });
  return { db, world, api: contractClient(app), app, close: () => db.close() };
}

type Page<T> = { data: T[]; pagination: { limit: number; nextCursor: string | null } };

/**
 * Follows `nextCursor` from the first page to the last, checking every page is full but
 * the last, and returns every item in the order served.
 */
export async function everyPage<T>(api: ReadApi["api"], path: string, limit: number): Promise<T[]> {
  const items: T[] = [];
  const separator = path.includes("?") ? "&" : "?";
  let cursor: string | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const url = `${path}${separator}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const res = await api.get(url);
    expect(res.status, `${url}: ${res.text}`).toBe(200);
    const page = res.body as Page<T>;
    expect(page.pagination.limit).toBe(limit);
    items.push(...page.data);
    cursor = page.pagination.nextCursor;
    if (cursor === null) return items;
    expect(page.data).toHaveLength(limit);
  }
  throw new Error(`${path}: more than 1000 pages`);
}

/** The sort key a cursor continues after. */
export const keyOf = (cursor: string): unknown[] =>
  (JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { k: unknown[] }).k;

/** `cursor` with another sort key: what a client can forge, the cursor's scope digest being no secret. */
export function rekeyed(cursor: string, key: unknown[]): string {
  const { s } = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { s: string };
  return Buffer.from(JSON.stringify({ s, k: key })).toString("base64url");
}

/** The detail of a 400 VALIDATION_FAILED, by field. */
export function invalidFields(res: ApiResponse): string[] {
  expect(res.status, res.text).toBe(400);
  const error = (res.body as { error: { code: string; details: { field: string }[] } }).error;
  expect(error.code).toBe("VALIDATION_FAILED");
  return error.details.map((d) => d.field);
}
