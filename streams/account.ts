import { v5 as uuidv5 } from "uuid";
import { z } from "zod";
import { defineEvent, EventCatalogue, type EventOf } from "./catalogue.js";
import { streamId } from "./envelope.js";
import { id, name } from "./shared.js";

/**
 * A user of the application: role, submitter-access request, granted competition scope and
 * deletion. Every access decision is an event here, so who decided what, when, is replayable.
 * Email is never stored: it stays with the identity provider. The subject and display names
 * are personal data: sealed under the account's key, erased with it (docs/accounts.md).
 */
export const accountStream = (accountId: string) => streamId("account", accountId);

const NAMESPACE = "2b7f3a4e-9c1d-4e8a-b6f0-5d2c8e1a7b93";

/**
 * The account id of an identity-provider subject, derived rather than drawn: two requests
 * seeing a new subject at once decide on the same stream, and only one creation is appended.
 */
export const accountIdForSubject = (subject: string) => uuidv5(`subject\u001f${subject}`, NAMESPACE);

export const ROLES = ["viewer", "submitter", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** The spec's request states. An account that never asked has none: null. */
export const APPROVAL_STATES = ["pending", "approved", "rejected"] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

/** The identity-provider user id (`sub`). */
const subject = z.string().min(1).max(255);

/** A personal field: written as its value, read as null once the account's key is destroyed. */
const erasable = <Schema extends z.ZodType>(schema: Schema) => schema.nullable();
/** An account id, or `cli` for `cricket admin promote`. */
const decidedBy = z.string().min(1).max(128);
const competitionIds = z.array(id).min(1);

/** First sight of a subject: a viewer with no request. */
export const AccountCreated = defineEvent({
  type: "AccountCreated",
  category: "account",
  version: 1,
  schema: z.strictObject({ accountId: id, subject: erasable(subject), displayName: erasable(name) }),
  personal: ["subject", "displayName"],
});

/** The provider reported another display name at a later sign-in. */
export const AccountProfileSynced = defineEvent({
  type: "AccountProfileSynced",
  category: "account",
  version: 1,
  schema: z.strictObject({ displayName: erasable(name) }),
  personal: ["displayName"],
});

export const SubmitterAccessRequested = defineEvent({
  type: "SubmitterAccessRequested",
  category: "account",
  version: 1,
  schema: z.strictObject({ competitionId: id }),
});

/** The account becomes a submitter with exactly the requested competition as its scope. */
export const SubmitterAccessApproved = defineEvent({
  type: "SubmitterAccessApproved",
  category: "account",
  version: 1,
  schema: z.strictObject({ competitionIds, decidedBy }),
});

export const SubmitterAccessRejected = defineEvent({
  type: "SubmitterAccessRejected",
  category: "account",
  version: 1,
  schema: z.strictObject({ decidedBy }),
});

/** Every scope removed; back to viewer, the approved decision kept as history. */
export const SubmitterAccessRevoked = defineEvent({
  type: "SubmitterAccessRevoked",
  category: "account",
  version: 1,
  schema: z.strictObject({ decidedBy }),
});

export const SubmitterScopeReplaced = defineEvent({
  type: "SubmitterScopeReplaced",
  category: "account",
  version: 1,
  schema: z.strictObject({ competitionIds, decidedBy }),
});

export const AccountPromoted = defineEvent({
  type: "AccountPromoted",
  category: "account",
  version: 1,
  schema: z.strictObject({ role: z.literal("admin"), decidedBy }),
});

/** First step of deletion: the account is locked out and its role, request and scope revoked. */
export const AccountDisabled = defineEvent({
  type: "AccountDisabled",
  category: "account",
  version: 1,
  schema: z.strictObject({ reason: z.literal("deletion-requested") }),
});

/**
 * Last step of deletion, once the provider deleted the user: identity fields become a
 * tombstone, and the account's key is destroyed, so its personal fields read as null.
 */
export const AccountTombstoned = defineEvent({
  type: "AccountTombstoned",
  category: "account",
  version: 1,
  schema: z.strictObject({}),
  erasesPersonalData: true,
});

/** What a tombstoned account shows instead of its identity. */
export const TOMBSTONE = { subject: null, displayName: "Deleted account" } as const;

export const accountEvents = [
  AccountCreated,
  AccountProfileSynced,
  SubmitterAccessRequested,
  SubmitterAccessApproved,
  SubmitterAccessRejected,
  SubmitterAccessRevoked,
  SubmitterScopeReplaced,
  AccountPromoted,
  AccountDisabled,
  AccountTombstoned,
] as const;
export type AccountEvent = EventOf<(typeof accountEvents)[number]>;
export const accountCatalogue = new EventCatalogue(accountEvents);
