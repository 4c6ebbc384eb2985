import { consumerCatalogue, consumerStream } from "../../../streams/consumer.js";
import { newApiKey } from "../../consumers/api-key.js";
import { highestConsumerId } from "../../consumers/queries.js";
import type { Sql } from "../../db/database.js";
import type { EventStore } from "../../event-store/port.js";
import type { ServerSecret } from "../../security/server-secret.js";
import { type CommandContext, type HandleResult, handleCommand } from "../handle.js";
import { type ConsumerCommand, consumerDecider } from "./decide.js";
import { ConsumerIdTaken } from "./errors.js";

/*
 * The consumer commands: draw a key where one is issued (randomness stays out of the
 * decider), then load, decide and append through handleCommand with the acting
 * administrator as the events' actor. Domain errors propagate unchanged.
 */

/** When, and in which request; the acting administrator is the actor. */
export type ConsumerContext = Omit<CommandContext, "actor">;

/** Where the events landed (for read-your-writes) and the consumer they are about. */
export type ConsumerOutcome = HandleResult & { consumerId: number };
/** Also the raw key, for the one response that shows it; it is in no event and no log. */
export type KeyOutcome = ConsumerOutcome & { apiKey: string };

export type ConsumerSettings = { name: string; rateLimitPerMinute: number; dailyQuota: number };

/**
 * How many consumer ids an issue tries. Each loss is to an issue that claimed the id since
 * the read model last showed one, so this many concurrent issues can all succeed.
 */
const MAX_ID_ATTEMPTS = 32;

/**
 * Issues a consumer and its first key. Its id is the next free positive integer: the read
 * model's highest id plus one, claimed by appending to a stream that must not exist yet
 * (the decider refuses a taken id), and on losing that race the next id, a bounded number
 * of times. The store's no-stream check makes the claim race-free across instances; the
 * read model only says where to start looking.
 */
export async function issueConsumer(
  store: EventStore,
  sql: Sql,
  secret: ServerSecret,
  { ownerAccountId, settings }: { ownerAccountId: string; settings: ConsumerSettings },
  context: ConsumerContext,
): Promise<KeyOutcome> {
  const { raw, ...key } = newApiKey(secret);
  let consumerId = (await highestConsumerId(sql)) + 1;
  for (let attempt = 1; ; attempt++, consumerId++) {
    try {
      const result = await handle(
        store,
        { type: "IssueConsumer", consumerId, ownerAccountId, ...settings, key },
        ownerAccountId,
        context,
      );
      return { ...result, apiKey: raw };
    } catch (error) {
      if (!(error instanceof ConsumerIdTaken) || attempt >= MAX_ID_ATTEMPTS) throw error;
    }
  }
}

/** Revokes every active key of the owner's consumer, then issues one. */
export async function rotateKeys(
  store: EventStore,
  secret: ServerSecret,
  { ownerAccountId, consumerId }: { ownerAccountId: string; consumerId: number },
  context: ConsumerContext,
): Promise<KeyOutcome> {
  const { raw, ...key } = newApiKey(secret);
  const result = await handle(store, { type: "RotateKeys", consumerId, ownerAccountId, key }, ownerAccountId, context);
  return { ...result, apiKey: raw };
}

/** Revokes one key of the owner's consumer; a revoked key stays revoked and nothing is appended. */
export function revokeKey(
  store: EventStore,
  { ownerAccountId, consumerId, keyId }: { ownerAccountId: string; consumerId: number; keyId: number },
  context: ConsumerContext,
): Promise<ConsumerOutcome> {
  return handle(store, { type: "RevokeKey", consumerId, ownerAccountId, keyId }, ownerAccountId, context);
}

async function handle(
  store: EventStore,
  command: ConsumerCommand,
  actor: string,
  context: ConsumerContext,
): Promise<ConsumerOutcome> {
  const result = await handleCommand(
    store,
    consumerCatalogue,
    consumerStream(command.consumerId),
    consumerDecider,
    command,
    {
      ...context,
      actor,
    },
  );
  return { ...result, consumerId: command.consumerId };
}
