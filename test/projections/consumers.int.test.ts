import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueConsumer, revokeKey, rotateKeys } from "../../src/commands/consumers/handlers.js";
import { findActiveKey, findOwnedConsumer, listOwnedConsumers } from "../../src/consumers/queries.js";
import { consumers } from "../../src/projections/consumers.js";
import { serverSecret } from "../../src/security/server-secret.js";
import { consumerStream } from "../../streams/consumer.js";
import { CricketWorld } from "../support/cricket-world.js";
import { backends, type TestDatabase } from "../support/databases.js";
import { anEvent } from "../support/events.js";
import { replayWholeLog, snapshot } from "../support/read-models.js";

const at = (minute: number) => ({ now: new Date(Date.UTC(2026, 10, 22, 10, minute)) });
const time = (minute: number) => at(minute).now;
const secret = serverSecret("the int-test server secret, thirty-two characters");
const settings = (name: string) => ({ name, rateLimitPerMinute: 60, dailyQuota: 10_000 });

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`consumers read model and commands on ${backend.name}`, () => {
    let db: TestDatabase;
    let world: CricketWorld;
    const keys: Record<string, string> = {};

    beforeAll(async () => {
      db = await backend.open();
      world = new CricketWorld(db.sql, [consumers]);
      await world.catchUp(); // the read model exists before the first issue asks it for the highest id
      const { store } = world;
      const issue = async (owner: string, name: string, minute: number) => {
        const outcome = await issueConsumer(
          store,
          db.sql,
          secret,
          { ownerAccountId: owner, settings: settings(name) },
          at(minute),
        );
        await world.catchUp(outcome.position);
        return outcome;
      };
      // ada: issued, rotated, the new key revoked; bob: issued only
      const ada = await issue("owner-a", "Ada's app", 1);
      keys.ada1 = ada.apiKey;
      keys.ada2 = (
        await rotateKeys(store, secret, { ownerAccountId: "owner-a", consumerId: ada.consumerId }, at(2))
      ).apiKey;
      await revokeKey(store, { ownerAccountId: "owner-a", consumerId: ada.consumerId, keyId: 2 }, at(3));
      keys.bob1 = (await issue("owner-b", "Bob's app", 4)).apiKey;
      await world.catchUp(await store.head());
    });
    afterAll(() => db?.close());

    it("keeps each consumer's owner, limits and keys, with when each key was issued and revoked", async () => {
      expect(await db.sql`select * from api_consumer order by consumer_id`).toEqual([
        row(1, "owner-a", "Ada's app", time(1), 4),
        row(2, "owner-b", "Bob's app", time(4), 1),
      ]);
      expect(
        await db.sql`select consumer_id, key_id, created_at, revoked_at from api_key order by consumer_id, key_id`,
      ).toEqual([
        { consumer_id: 1, key_id: 1, created_at: time(1), revoked_at: time(2) },
        { consumer_id: 1, key_id: 2, created_at: time(2), revoked_at: time(3) },
        { consumer_id: 2, key_id: 1, created_at: time(4), revoked_at: null },
      ]);
    });

    it("finds only active keys, by the raw key, with the consumer's limits", async () => {
      expect(await findActiveKey(db.sql, secret, keys.bob1 as string)).toEqual({
        consumerId: 2,
        keyId: 1,
        rateLimitPerMinute: 60,
        dailyQuota: 10_000,
      });
      expect(await findActiveKey(db.sql, secret, keys.ada1 as string)).toBeUndefined();
      expect(await findActiveKey(db.sql, secret, keys.ada2 as string)).toBeUndefined();
      // The right prefix with another secret part, or the right key under another server secret.
      const forged = `${(keys.bob1 as string).slice(0, 14)}${"A".repeat(43)}`;
      expect(await findActiveKey(db.sql, secret, forged)).toBeUndefined();
      const otherSecret = serverSecret("another server secret, thirty-two characters");
      expect(await findActiveKey(db.sql, otherSecret, keys.bob1 as string)).toBeUndefined();
      expect(await findActiveKey(db.sql, secret, "not a key")).toBeUndefined();
    });

    it("shows a consumer to its owner only, and lists an owner's consumers a page at a time", async () => {
      expect(await findOwnedConsumer(db.sql, "owner-a", 1)).toMatchObject({ consumerId: 1, revision: 4 });
      expect(await findOwnedConsumer(db.sql, "owner-b", 1)).toBeUndefined();
      expect(await findOwnedConsumer(db.sql, "owner-a", 99)).toBeUndefined();
      expect((await listOwnedConsumers(db.sql, "owner-b", { take: 10 })).map((c) => c.consumerId)).toEqual([2]);
      expect(await listOwnedConsumers(db.sql, "owner-a", { after: 1, take: 10 })).toEqual([]);
    });

    it("claims the next free id when the read model lags behind the streams", async () => {
      // Consumer 3 exists in the log, but the read model has not seen it.
      await world.store.append(
        consumerStream(3),
        [anEvent({ type: "ConsumerIssued", data: { consumerId: 3, ownerAccountId: "x", ...settings("Lagging") } })],
        "no_stream",
      );
      const outcome = await issueConsumer(
        world.store,
        db.sql,
        secret,
        { ownerAccountId: "owner-c", settings: settings("Next") },
        at(5),
      );
      expect(outcome.consumerId).toBe(4);
      await world.catchUp(outcome.position);
    });

    it("changes nothing when the whole log is applied again", async () => {
      const before = await snapshot(db.sql, consumers.tables);
      await replayWholeLog(db.sql, world.store, consumers);
      expect(await snapshot(db.sql, consumers.tables)).toEqual(before);
    });
  });
}

function row(consumerId: number, owner: string, name: string, createdAt: Date, revision: number) {
  return {
    consumer_id: consumerId,
    owner_account_id: owner,
    name,
    rate_limit_per_minute: 60,
    daily_quota: 10_000,
    created_at: createdAt,
    revision,
  };
}
