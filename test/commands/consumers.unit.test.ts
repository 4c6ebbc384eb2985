import { describe, expect, it } from "vitest";
import { type ConsumerCommand, consumerDecider, type NewKey } from "../../src/commands/consumers/decide.js";
import { ApiKeyNotFound, ConsumerIdTaken, ConsumerNotFound } from "../../src/commands/consumers/errors.js";
import { type ConsumerEvent, consumerCatalogue } from "../../streams/consumer.js";
import { spec } from "../support/decider.js";

const OWNER = "admin-1";
const OTHER = "admin-2";
const CONSUMER = 7;

/** A key as commands carry it; `n` tells keys apart. */
const key = (n: number): NewKey => ({
  prefix: `ck_${String(n).padStart(10, "0")}`,
  digest: String(n).repeat(64).slice(0, 64),
});

const event = (type: string, data: unknown) => consumerCatalogue.event({ type, data });
const consumer = {
  issued: () =>
    event("ConsumerIssued", {
      consumerId: CONSUMER,
      ownerAccountId: OWNER,
      name: "Fantasy XI",
      rateLimitPerMinute: 60,
      dailyQuota: 10_000,
    }),
  keyIssued: (keyId: number, n = keyId) => event("ApiKeyIssued", { keyId, ...key(n) }),
  rotated: (keyId: number) => event("ApiKeyRevoked", { keyId, cause: "rotated" }),
  revoked: (keyId: number) => event("ApiKeyRevoked", { keyId, cause: "revoked" }),
};

const issue = (consumerId = CONSUMER): ConsumerCommand => ({
  type: "IssueConsumer",
  consumerId,
  ownerAccountId: OWNER,
  name: "Fantasy XI",
  rateLimitPerMinute: 60,
  dailyQuota: 10_000,
  key: key(1),
});
const rotate = (n: number, ownerAccountId = OWNER): ConsumerCommand => ({
  type: "RotateKeys",
  consumerId: CONSUMER,
  ownerAccountId,
  key: key(n),
});
const revoke = (keyId: number, ownerAccountId = OWNER): ConsumerCommand => ({
  type: "RevokeKey",
  consumerId: CONSUMER,
  ownerAccountId,
  keyId,
});

const given = (history: ConsumerEvent[]) => spec(consumerDecider).given(history);
const issued = [consumer.issued(), consumer.keyIssued(1)];

describe("issuing a consumer", () => {
  it("claims the consumer id and issues key 1 in the same decision", () =>
    given([])
      .when(issue())
      .thenEmits([consumer.issued(), consumer.keyIssued(1)]));

  it("refuses an id another issue has claimed, so the handler tries the next", () =>
    given(issued).when(issue()).thenThrows(ConsumerIdTaken));

  it("never puts a raw key in an event: only the prefix and digest it was given", () => {
    const [, keyEvent] = consumerDecider.decide(issue(), null);
    expect(Object.keys(keyEvent?.data as object).sort()).toEqual(["digest", "keyId", "prefix"]);
  });
});

describe("rotating keys", () => {
  it("revokes the active key, then issues the next key id", () =>
    given(issued)
      .when(rotate(2))
      .thenEmits([consumer.rotated(1), consumer.keyIssued(2)]));

  it("revokes every active key, skipping revoked ones, before the one new key", () =>
    given([...issued, consumer.rotated(1), consumer.keyIssued(2), consumer.revoked(2), consumer.keyIssued(3)])
      .when(rotate(4))
      .thenEmits([consumer.rotated(3), consumer.keyIssued(4)]));

  it("revokes each of several active keys, in key id order", () => {
    // Two active keys cannot arise through these commands today; the rule still holds if they do.
    const history = [...issued, consumer.keyIssued(2)];
    given(history)
      .when(rotate(3))
      .thenEmits([consumer.rotated(1), consumer.rotated(2), consumer.keyIssued(3)]);
  });

  it("gives a consumer without active keys just the new one, numbered after every earlier key", () =>
    given([...issued, consumer.revoked(1)])
      .when(rotate(2))
      .thenEmits([consumer.keyIssued(2)]));

  it("does not find a consumer that does not exist", () => given([]).when(rotate(2)).thenThrows(ConsumerNotFound));

  it("does not find another administrator's consumer, exactly as a missing one", () =>
    given(issued).when(rotate(2, OTHER)).thenThrows(ConsumerNotFound));
});

describe("revoking a key", () => {
  it("revokes an active key", () =>
    given(issued)
      .when(revoke(1))
      .thenEmits([consumer.revoked(1)]));

  it("changes nothing for a key already revoked, by rotation or on its own", () => {
    given([...issued, consumer.revoked(1)])
      .when(revoke(1))
      .thenEmits([]);
    given([...issued, consumer.rotated(1), consumer.keyIssued(2)])
      .when(revoke(1))
      .thenEmits([]);
  });

  it("leaves the consumer's other keys alone", () =>
    given([...issued, consumer.keyIssued(2)])
      .when(revoke(2))
      .thenEmits([consumer.revoked(2)]));

  it("does not find a key id the consumer never had", () => given(issued).when(revoke(2)).thenThrows(ApiKeyNotFound));

  it("does not find another administrator's consumer, whatever the key", () => {
    given(issued).when(revoke(1, OTHER)).thenThrows(ConsumerNotFound);
    given(issued).when(revoke(99, OTHER)).thenThrows(ConsumerNotFound);
  });

  it("does not find a consumer that does not exist", () => given([]).when(revoke(1)).thenThrows(ConsumerNotFound));
});
