import { accountCatalogue, accountIdForSubject, accountStream, type Role } from "../../../streams/account.js";
import { type Account, type AccountState, evolveAccount } from "../../../streams/account-state.js";
import { competitionStream } from "../../../streams/competition.js";
import { fitName } from "../../../streams/shared.js";
import type { EventStore } from "../../event-store/port.js";
import { FoldedStreams, foldsPerStore } from "../folded-streams.js";
import { type CommandContext, type HandleResult, handleCommand } from "../handle.js";
import { type AccountCommand, type Actor, accountDecider } from "./decide.js";

/*
 * The account commands. Each resolves the facts its decision needs (does a competition
 * exist, is the actor an active admin), then loads, decides and appends through
 * handleCommand with the acting account as the events' actor. Domain errors (DomainErrors,
 * see errors.ts) propagate unchanged; nothing is written when one is thrown.
 */

/** When, and in which request; each handler sets the actor itself. */
export type AccountContext = Omit<CommandContext, "actor">;

/**
 * Where the events landed (pass `position` to ProjectionRunner.waitFor(["accounts"], …)
 * before answering) and the account as the decision left it; `events` is empty when
 * nothing changed.
 */
export type AccountOutcome = HandleResult & { account: Account };

/** The body of PATCH submitter-access. */
export type SubmitterAccessDecision = { approved: true; competitionIds?: string[] | undefined } | { approved: false };

/**
 * Sign-in: creates the account on first sight of the subject, syncs its display name later
 * (the provider's, else the subject, fitted to what an account holds). Never promotes.
 */
export function ensureAccount(
  store: EventStore,
  identity: { subject: string; displayName: string | null },
  context: AccountContext,
): Promise<AccountOutcome> {
  const accountId = accountIdForSubject(identity.subject);
  const displayName = fitName(identity.displayName ?? identity.subject);
  return handle(
    store,
    { type: "EnsureAccount", accountId, subject: identity.subject, displayName },
    accountId,
    context,
  );
}

export async function requestSubmitterAccess(
  store: EventStore,
  { accountId, competitionId }: { accountId: string; competitionId: string },
  context: AccountContext,
): Promise<AccountOutcome> {
  const competitionExists = (await existingCompetitions(store, [competitionId])).length > 0;
  return handle(
    store,
    { type: "RequestSubmitterAccess", accountId, competitionId, competitionExists },
    accountId,
    context,
  );
}

/** Approve a pending request, replace an approved submitter's scope, or revoke it (approved false). */
export async function decideSubmitterAccess(
  store: EventStore,
  { actorId, accountId, decision }: { actorId: string; accountId: string; decision: SubmitterAccessDecision },
  context: AccountContext,
): Promise<AccountOutcome> {
  const [actor, current] = await Promise.all([actorOf(store, actorId), loadAccount(store, accountId)]);
  const named = decision.approved ? (decision.competitionIds ?? []) : [];
  const stored = current?.requestedCompetitionId;
  const existingCompetitionIds = await existingCompetitions(store, stored ? [...named, stored] : named);
  const command: AccountCommand = decision.approved
    ? { type: "DecideSubmitterAccess", accountId, actor, existingCompetitionIds, ...decision }
    : { type: "DecideSubmitterAccess", accountId, actor, existingCompetitionIds, approved: false };
  return handle(store, command, actorId, context);
}

export async function rejectSubmitterAccess(
  store: EventStore,
  { actorId, accountId }: { actorId: string; accountId: string },
  context: AccountContext,
): Promise<AccountOutcome> {
  const actor = await actorOf(store, actorId);
  return handle(store, { type: "RejectSubmitterAccess", accountId, actor }, actorId, context);
}

/** PATCH role: only `admin` is accepted; other roles are refused by the decider (409). */
export async function changeRole(
  store: EventStore,
  { actorId, accountId, role }: { actorId: string; accountId: string; role: Role },
  context: AccountContext,
): Promise<AccountOutcome> {
  const actor = await actorOf(store, actorId);
  return handle(store, { type: "ChangeRole", accountId, actor, role }, actorId, context);
}

/** `cricket admin promote <subject>`: creates the account if absent and makes it admin; actor `cli`. */
export function bootstrapAdmin(store: EventStore, subject: string, context: AccountContext): Promise<AccountOutcome> {
  const accountId = accountIdForSubject(subject);
  return handle(store, { type: "BootstrapAdmin", accountId, subject }, "cli", context);
}

/** First step of DELETE /account: disables the account; again changes nothing. */
export function requestDeletion(
  store: EventStore,
  accountId: string,
  context: AccountContext,
): Promise<AccountOutcome> {
  return handle(store, { type: "RequestDeletion", accountId }, accountId, context);
}

/** Last step, after the provider deleted the user: tombstones the identity; again changes nothing. */
export function finaliseDeletion(
  store: EventStore,
  accountId: string,
  context: AccountContext,
): Promise<AccountOutcome> {
  return handle(store, { type: "FinaliseDeletion", accountId }, accountId, context);
}

/**
 * Accounts folded so far, up to this many: every bearer request loads its caller's, and
 * then reads only what its stream gained since (usually nothing), not the whole stream.
 */
const ACCOUNTS_KEPT = 10_000;
const accountFolds = foldsPerStore(
  (store) => new FoldedStreams(store, accountCatalogue, accountDecider, ACCOUNTS_KEPT),
);

/** The account as its stream says now (null when it does not exist): authoritative, unlike the read model. */
export async function loadAccount(store: EventStore, accountId: string): Promise<AccountState> {
  return (await accountFolds(store).load(accountStream(accountId))).state;
}

/** An actor is an admin only while its account says so and is active. */
async function actorOf(store: EventStore, actorId: string): Promise<Actor> {
  const account = await loadAccount(store, actorId);
  return { accountId: actorId, isAdmin: account?.role === "admin" && !account.disabled };
}

/** The given competitions that are registered (competitions are never removed, so this only grows). */
async function existingCompetitions(store: EventStore, competitionIds: readonly string[]): Promise<string[]> {
  const unique = [...new Set(competitionIds)];
  const found = await Promise.all(
    unique.map(async (id) =>
      (await store.readStream(competitionStream(id))).some((e) => e.type === "CompetitionRegistered"),
    ),
  );
  return unique.filter((_, i) => found[i]);
}

async function handle(
  store: EventStore,
  command: AccountCommand,
  actor: string,
  context: AccountContext,
): Promise<AccountOutcome> {
  // The state the (last) decision was taken on; the appended events are folded onto it.
  const decidedOn: { state: AccountState } = { state: null };
  const decider = {
    ...accountDecider,
    decide: (c: AccountCommand, state: AccountState) => {
      decidedOn.state = state;
      return accountDecider.decide(c, state);
    },
  };
  const result = await handleCommand(
    store,
    accountCatalogue,
    accountStream(command.accountId),
    decider,
    command,
    { ...context, actor },
    accountFolds(store).load,
  );
  const account = result.events.reduce(evolveAccount, decidedOn.state);
  if (!account) throw new Error(`account ${command.accountId} has no state after ${command.type}`);
  return { ...result, account };
}
