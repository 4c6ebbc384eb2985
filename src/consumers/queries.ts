import type { Sql } from "../db/database.js";
import type { ServerSecret } from "../security/server-secret.js";
import { digestApiKey, parseApiKey, sameDigest } from "./api-key.js";

/**
 * Reads of the `api_consumer` and `api_key` read models (src/projections/consumers.ts):
 * the admin routes' consumers with safe key metadata, and the key lookup of every keyed
 * request. Digests never leave this module.
 */

/** Safe metadata of a key: what the list shows. No raw key (never stored) and no digest. */
export type ApiKeyView = { keyId: number; prefix: string; createdAt: Date; revokedAt: Date | null };

export type ConsumerView = {
  consumerId: number;
  ownerAccountId: string;
  name: string;
  rateLimitPerMinute: number;
  dailyQuota: number;
  createdAt: Date;
  /** The consumer stream's revision the read model has applied. */
  revision: number;
  /** Every key, revoked ones included, in key id order. */
  keys: ApiKeyView[];
};

/** What a keyed request runs under: the consumer's policy, and the key for telemetry. */
export type ActiveKey = { consumerId: number; keyId: number; rateLimitPerMinute: number; dailyQuota: number };

type ConsumerRow = {
  consumer_id: number;
  owner_account_id: string;
  name: string;
  rate_limit_per_minute: number;
  daily_quota: number;
  created_at: Date;
  revision: number;
};
type KeyRow = { consumer_id: number; key_id: number; prefix: string; created_at: Date; revoked_at: Date | null };

/** The owner's consumers in consumer id order, strictly after `after`: the admin list, a page at a time. */
export async function listOwnedConsumers(
  sql: Sql,
  ownerAccountId: string,
  { after, take }: { after?: number | undefined; take: number },
): Promise<ConsumerView[]> {
  const rows = await sql<ConsumerRow[]>`
    select * from api_consumer
    where owner_account_id = ${ownerAccountId} ${after === undefined ? sql`` : sql`and consumer_id > ${after}`}
    order by consumer_id
    limit ${take}`;
  return withKeys(sql, rows);
}

/** The consumer when `ownerAccountId` owns it; a missing one and another owner's are both undefined. */
export async function findOwnedConsumer(
  sql: Sql,
  ownerAccountId: string,
  consumerId: number,
): Promise<ConsumerView | undefined> {
  const rows = await sql<ConsumerRow[]>`
    select * from api_consumer where consumer_id = ${consumerId}::bigint and owner_account_id = ${ownerAccountId}`;
  return (await withKeys(sql, rows))[0];
}

/**
 * The active key `rawKey` is, with its consumer's limits; undefined when it is malformed,
 * unknown or revoked (the caller cannot tell which). One lookup on the partial index of
 * active prefixes, then a constant-time digest comparison. Prefixes are random, not unique
 * by constraint: should two active keys ever share one, the digest still tells them apart.
 */
export async function findActiveKey(sql: Sql, secret: ServerSecret, rawKey: string): Promise<ActiveKey | undefined> {
  const prefix = parseApiKey(rawKey);
  if (prefix === undefined) return undefined;
  const candidates = await sql<(ActiveKey & { digest: string })[]>`
    select k.consumer_id as "consumerId", k.key_id as "keyId", k.digest,
           c.rate_limit_per_minute as "rateLimitPerMinute", c.daily_quota as "dailyQuota"
    from api_key k join api_consumer c on c.consumer_id = k.consumer_id
    where k.prefix = ${prefix} and k.revoked_at is null`;
  const digest = digestApiKey(secret, rawKey);
  const match = candidates.find((candidate) => sameDigest(candidate.digest, digest));
  return (
    match && {
      consumerId: match.consumerId,
      keyId: match.keyId,
      rateLimitPerMinute: match.rateLimitPerMinute,
      dailyQuota: match.dailyQuota,
    }
  );
}

/** The highest consumer id the read model knows (0 when none): where the next issue starts looking. */
export async function highestConsumerId(sql: Sql): Promise<number> {
  const [row] = await sql<
    { highest: number }[]
  >`select coalesce(max(consumer_id), 0)::int as highest from api_consumer`;
  return row?.highest ?? 0;
}

async function withKeys(sql: Sql, rows: readonly ConsumerRow[]): Promise<ConsumerView[]> {
  if (rows.length === 0) return [];
  const keys = await sql<KeyRow[]>`
    select consumer_id, key_id, prefix, created_at, revoked_at from api_key
    where consumer_id = any(${rows.map((r) => r.consumer_id)}::int[])
    order by consumer_id, key_id`;
  return rows.map((r) => ({
    consumerId: r.consumer_id,
    ownerAccountId: r.owner_account_id,
    name: r.name,
    rateLimitPerMinute: r.rate_limit_per_minute,
    dailyQuota: r.daily_quota,
    createdAt: r.created_at,
    revision: r.revision,
    keys: keys
      .filter((k) => k.consumer_id === r.consumer_id)
      .map((k) => ({ keyId: k.key_id, prefix: k.prefix, createdAt: k.created_at, revokedAt: k.revoked_at })),
  }));
}
