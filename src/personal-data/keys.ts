import type { Sql, Tx } from "../db/database.js";
import { newKey } from "./cipher.js";

/*
 * The accounts' keys (`personal_data_keys`, src/db/migrations/004-personal-data-keys.sql),
 * in the service's database whichever adapter holds the events. Never cached in memory: a
 * destroyed key must stop opening values in every process at once.
 */

export type Keys = ReadonlyMap<string, Buffer>;

/** The keys of the given accounts, created for those that have none yet (their first personal event). */
export async function provideKeys(sql: Sql | Tx, accountIds: readonly string[]): Promise<Keys> {
  const ids = [...new Set(accountIds)];
  if (ids.length === 0) return new Map();
  const fresh = ids.map(() => newKey().toString("hex"));
  // Racing creators of one account's key: the first insert wins and both read its key.
  await sql`
    insert into personal_data_keys (account_id, key)
    select id, decode(k, 'hex') from unnest(${ids}::text[], ${fresh}::text[]) as n(id, k)
    on conflict (account_id) do nothing`;
  return findKeys(sql, ids);
}

/** The keys the given accounts have; an account without one never had personal data, or it was erased. */
export async function findKeys(sql: Sql | Tx, accountIds: readonly string[]): Promise<Keys> {
  const rows = await sql<{ account_id: string; key: Buffer }[]>`
    select account_id, key from personal_data_keys where account_id = any(${[...new Set(accountIds)]}::text[])`;
  return new Map(rows.map((r) => [r.account_id, r.key]));
}

/** Destroys the accounts' keys: every value sealed under them is unreadable from now on. */
export async function destroyKeys(sql: Sql | Tx, accountIds: readonly string[]): Promise<void> {
  await sql`delete from personal_data_keys where account_id = any(${[...accountIds]}::text[])`;
}
