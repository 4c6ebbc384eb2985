import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import type { AppDependencies } from "../../src/http/app.js";
import { cricsheetIds } from "../../src/ingest/cricsheet/ids.js";
import { importCricsheet } from "../../src/ingest/cricsheet/import.js";
import { serverSecret } from "../../src/security/server-secret.js";
import { type BearerClient, openAccountApi, type Person } from "./account-api.js";
import type { ApiResponse } from "./contract.js";

/** A consumer as an administrator issued it: its id and the raw key shown once. */
export type IssuedConsumer = { consumerId: number; apiKey: string; keyId: number };

export type ConsumerApi = Awaited<ReturnType<typeof openConsumerApi>>;

/** The Cricsheet sample every keyed-read test reads: a whole IPL match with its statistics. */
export const SAMPLE_MATCH = "1298152";

/**
 * The application with API consumers over a real database holding one real match: an
 * administrator who issues consumers over HTTP, and keyed and anonymous reads. Every app
 * built here shares one server secret, as the instances of a deployment do.
 */
export async function openConsumerApi(deps: Partial<AppDependencies> = {}) {
  const accounts = await openAccountApi({ deps: { secret: serverSecret(randomBytes(32)), ...deps } });
  const file = fileURLToPath(new URL(`../../samples/cricsheet/${SAMPLE_MATCH}.json`, import.meta.url));
  const imported = await importCricsheet(accounts.world.store, [file]);
  expect(imported.failed).toEqual([]);
  await accounts.world.catchUp();
  const admin = await accounts.anAdmin();

  /** POST /admin/api-consumers as `by` (the administrator by default), asserting 201. */
  async function aConsumer(
    body: { name?: string; rateLimitPerMinute?: number; dailyQuota?: number } = {},
    by: Person = admin,
  ): Promise<IssuedConsumer> {
    const res = await accounts.api.post(
      "/api/v1/admin/api-consumers",
      { name: "Fantasy XI", ...body },
      {
        token: by.token,
      },
    );
    expect(res.status, res.text).toBe(201);
    return issued(res);
  }

  /** POST …/keys/rotate: the replacement key. */
  async function rotate(consumerId: number, by: Person = admin): Promise<IssuedConsumer> {
    const res = await accounts.api.post(`/api/v1/admin/api-consumers/${consumerId}/keys/rotate`, undefined, {
      token: by.token,
    });
    expect(res.status, res.text).toBe(200);
    return issued(res);
  }

  async function revoke(consumerId: number, keyId: number, by: Person = admin) {
    const res = await accounts.api.delete(`/api/v1/admin/api-consumers/${consumerId}/keys/${keyId}`, undefined, {
      token: by.token,
    });
    expect(res.status, res.text).toBe(204);
  }

  /** GET `path` with `key` in X-API-Key (none: anonymous), through `client` (the main app by default). */
  const read = (
    path: string,
    {
      key,
      headers = {},
      client = accounts.api,
    }: { key?: string; headers?: Record<string, string>; client?: BearerClient } = {},
  ): Promise<ApiResponse> =>
    client.get(path, { headers: { ...(key === undefined ? {} : { "x-api-key": key }), ...headers } });

  return {
    ...accounts,
    admin,
    fixtureId: cricsheetIds.fixture(SAMPLE_MATCH),
    aConsumer,
    rotate,
    revoke,
    read,
  };
}

/** The consumer and its one active key from an issue or rotate answer. */
function issued(res: ApiResponse): IssuedConsumer {
  const { data } = res.body as {
    data: { consumerId: number; apiKey: string; keys: { keyId: number; revokedAt: string | null }[] };
  };
  const active = data.keys.filter((k) => k.revokedAt === null);
  expect(active).toHaveLength(1);
  return { consumerId: data.consumerId, apiKey: data.apiKey, keyId: (active[0] as { keyId: number }).keyId };
}

/** A response header, asserting it is there. */
export function header(res: ApiResponse, name: string): string {
  const value = res.headers.get(name);
  expect(value, `${name} in ${[...res.headers.keys()].join(", ")}`).not.toBeNull();
  return value as string;
}

/** The limit and quota headers of an answer, by name, those absent left out. */
export function limitHeaders(res: ApiResponse): Record<string, string> {
  const names = [
    "ratelimit-limit",
    "ratelimit-remaining",
    "ratelimit-reset",
    "x-quota-limit",
    "x-quota-remaining",
    "x-quota-reset",
    "retry-after",
  ];
  return Object.fromEntries(names.flatMap((n) => (res.headers.has(n) ? [[n, res.headers.get(n) as string]] : [])));
}
