import { z } from "zod";
import type { Secret, Settings } from "../config.js";

/**
 * The identity provider's admin API, as far as this service needs it: read users' emails
 * for the administrator list, hard-delete a user for account deletion. Server-only: it is
 * authorised by a secret that can act on every user of the provider.
 */
export type IdentityProviderAdmin = {
  /** Every user the provider holds. */
  listUsers(): Promise<ProviderUser[]>;
  /** Hard-deletes the user; a user the provider no longer knows counts as deleted. */
  deleteUser(subject: string): Promise<void>;
};

export type ProviderUser = { subject: string; email: string | null };

export type ProviderUnavailableReason =
  | "timeout"
  | "unreachable"
  | "unauthorized"
  | "http_status"
  | "unexpected_response";

/**
 * Every failure to get a trustworthy answer from the provider. The message is safe to show;
 * the upstream body never is (it may echo headers or internals).
 */
export class ProviderUnavailable extends Error {
  override readonly name = "ProviderUnavailable";
  constructor(
    readonly reason: ProviderUnavailableReason,
    /** The upstream status, when there was one. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super("The identity provider could not complete the request.", options);
  }
}

const usersPageSchema = z.object({
  users: z.array(z.object({ id: z.string().min(1), email: z.string().nullish() })),
});

/**
 * GoTrue's own error bodies: `{code, error_code, msg}` (older: `{error, error_description}`).
 * A 404 counts as "user already gone" only with one of these, so a mistyped AUTH_ADMIN_URL
 * (a gateway's or web server's 404) cannot pass for a successful deletion.
 */
const goTrueErrorSchema = z
  .object({ error_code: z.string().optional(), msg: z.string().optional(), error_description: z.string().optional() })
  .refine((body) => body.error_code !== undefined || body.msg !== undefined || body.error_description !== undefined);

export type SupabaseAdminOptions = {
  /** The auth API base, e.g. `https://<ref>.supabase.co/auth/v1`, or a self-hosted GoTrue's root. */
  url: string;
  secret: Secret;
  timeoutMs?: number;
  /** Users per page; GoTrue's default is 50 and it has no cap in page mode. */
  perPage?: number;
  fetch?: typeof fetch;
};

/** Pages beyond this mean the provider ignores `page` (the same full page again and again). */
const MAX_PAGES = 10_000;

/** The Supabase Auth (GoTrue) admin API adapter. */
export function supabaseAdmin(options: SupabaseAdminOptions): IdentityProviderAdmin {
  const { secret, timeoutMs = 5_000, perPage = 100, fetch: fetchImpl = fetch } = options;
  const base = options.url.endsWith("/") ? options.url : `${options.url}/`;

  async function call(method: "GET" | "DELETE", relative: string, body?: unknown): Promise<Response> {
    try {
      return await fetchImpl(new URL(relative, base), {
        method,
        // A new `sb_secret_` key may stand in Authorization only when equal to apikey; a legacy
        // service_role JWT works in both. Sending the same secret twice covers both kinds.
        headers: {
          apikey: secret.reveal(),
          authorization: `Bearer ${secret.reveal()}`,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: "error",
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new ProviderUnavailable(isTimeout(error) ? "timeout" : "unreachable", undefined, { cause: error });
    }
  }

  /** Reads the JSON body within the same timeout; anything but JSON is an unexpected response. */
  async function json(response: Response): Promise<unknown> {
    try {
      return await response.json();
    } catch (error) {
      const reason = isTimeout(error) ? "timeout" : "unexpected_response";
      throw new ProviderUnavailable(reason, response.status, { cause: error });
    }
  }

  function refuse(response: Response): never {
    void response.body?.cancel().catch(() => {});
    const reason = response.status === 401 || response.status === 403 ? "unauthorized" : "http_status";
    throw new ProviderUnavailable(reason, response.status);
  }

  return {
    async listUsers() {
      const users: ProviderUser[] = [];
      // Loop until a short page: GoTrue's Link header is not worth trusting (auth-js misparses it past page 9).
      for (let page = 1; page <= MAX_PAGES; page++) {
        const response = await call("GET", `admin/users?page=${page}&per_page=${perPage}`);
        if (!response.ok) refuse(response);
        const parsed = usersPageSchema.safeParse(await json(response));
        if (!parsed.success) throw new ProviderUnavailable("unexpected_response", response.status);
        users.push(...parsed.data.users.map((u) => ({ subject: u.id, email: u.email || null })));
        if (parsed.data.users.length < perPage) return users;
      }
      throw new ProviderUnavailable("unexpected_response");
    },

    async deleteUser(subject) {
      const response = await call("DELETE", `admin/users/${encodeURIComponent(subject)}`, {
        should_soft_delete: false,
      });
      if (response.ok) {
        // GoTrue answers `{}` (older versions the user): anything else, say a proxy's HTML
        // page, is no proof the user is gone, and the account must not be tombstoned on it.
        if (!z.looseObject({}).safeParse(await json(response)).success)
          throw new ProviderUnavailable("unexpected_response", response.status);
        return;
      }
      if (response.status === 404 && goTrueErrorSchema.safeParse(await json(response)).success) return;
      refuse(response);
    },
  };
}

export const isTimeout = (error: unknown) =>
  error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");

/** The configured admin adapter, or `undefined` when no admin URL and secret are set. */
export function openProviderAdmin(
  settings: Pick<Settings, "authAdminUrl" | "authAdminSecret">,
): IdentityProviderAdmin | undefined {
  if (!settings.authAdminUrl || !settings.authAdminSecret) return undefined;
  return supabaseAdmin({ url: settings.authAdminUrl, secret: settings.authAdminSecret });
}
