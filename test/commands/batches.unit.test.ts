import { describe, expect, it } from "vitest";
import { batchDecider, type ReceiveBatch } from "../../src/commands/batches/decide.js";
import { IdempotencyKeyReused } from "../../src/commands/batches/errors.js";
import { batchCatalogue, batchReferenceFor } from "../../streams/batch.js";
import { spec } from "../support/decider.js";

const REFERENCE = batchReferenceFor("submitter-1", "key-1");
const checksum = (n: number) => String(n).repeat(64).slice(0, 64);

const receive = (n = 1): ReceiveBatch => ({
  type: "ReceiveBatch",
  batchReference: REFERENCE,
  ownerAccountId: "submitter-1",
  idempotencyKey: "key-1",
  checksum: checksum(n),
  contractVersion: "1.1",
  packageId: "week-3",
  competitionId: "ipl",
  files: [
    {
      name: "package.json",
      mediaType: "application/json",
      size: 2,
      sha256: checksum(n),
      content: "{}",
      contentEncoding: "utf8",
    },
  ],
});
const received = (n = 1) => {
  const { type: _, ...data } = receive(n);
  return batchCatalogue.event({ type: "BatchReceived", data });
};

const batches = spec(batchDecider);

describe("receiving a batch", () => {
  it("stores a package under a new key as it came", () => batches.given([]).when(receive()).thenEmits([received()]));

  it("receives nothing new for the same content under the same key", () =>
    batches.given([received()]).when(receive()).thenEmits([]));

  it("refuses other content under a key already used", () =>
    batches
      .given([received(1)])
      .when(receive(2))
      .thenThrows(IdempotencyKeyReused));
});

describe("the batch reference", () => {
  it("is one per sender and key, and another for another sender or key", () => {
    expect(batchReferenceFor("submitter-1", "key-1")).toBe(REFERENCE);
    expect(batchReferenceFor("submitter-2", "key-1")).not.toBe(REFERENCE);
    expect(batchReferenceFor("submitter-1", "key-2")).not.toBe(REFERENCE);
  });
});
