import { randomUUID } from "node:crypto";
import type { BearerClient } from "./account-api.js";
import type { CompetitionBuilder } from "./cricket-builders.js";

/** A batch package for `competition`, named by its canonical id and its name; `overrides` replace fields of it. */
export const aPackage = (
  competition: Pick<CompetitionBuilder, "id" | "name">,
  overrides: Record<string, unknown> = {},
) => ({
  contractVersion: "1.1",
  packageId: `package-${randomUUID().slice(0, 8)}`,
  competition: { sourceId: `app:competition:${competition.id}`, context: { name: competition.name } },
  fixtures: [],
  ...overrides,
});

/** POST /batches as `token` under `key` (a new one unless given); a string body is sent as it is. */
export const sendBatch = (
  api: BearerClient,
  body: unknown,
  { token, key = randomUUID(), type = "application/json" }: { token?: string; key?: string | null; type?: string },
) =>
  api.post("/api/v1/batches", typeof body === "string" ? body : JSON.stringify(body), {
    token,
    headers: { "content-type": type, ...(key === null ? {} : { "idempotency-key": key }) },
  });

export type ApiBatch = {
  batchReference: string;
  packageId: string;
  contractVersion: string;
  competitionId: string;
  submittedBy: string;
  status: string;
  checksum: string;
  fileCount: number;
  byteCount: number;
  receivedAt: string;
  updatedAt: string;
  links: { status: string; report: string };
};
