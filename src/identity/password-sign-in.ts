import { z } from "zod";
import type { Settings } from "../config.js";
import { isTimeout, ProviderUnavailable } from "./provider-admin.js";

/**
 * Signing in at the identity provider with an email and a password, for the web UI's
 * sign-in page: GoTrue's password grant (`POST {auth}/token?grant_type=password`, with the
 * project's publishable key as `apikey`, as the provider's own clients send it). The answer's
 * access token is what the service trusts afterwards, verified like any bearer token; the
 * password only passes through, never stored or logged.
 */
export type PasswordSignIn = (email: string, password: string) => Promise<string>;

/** The provider refused the credentials (a wrong password, an unconfirmed email): its words, safe to show. */
export class SignInRefused extends Error {
  override readonly name = "SignInRefused";
}

/** The provider's own limit on sign-ins was reached (it counts them all as this server's). */
export class SignInThrottled extends Error {
  override readonly name = "SignInThrottled";
  constructor(readonly retryAfterSeconds: number) {
    super("The identity provider takes no more sign-ins just now");
  }
}

const sessionSchema = z.object({ access_token: z.string().min(1) });
/** GoTrue's error bodies: `{code, error_code, msg}`, or the OAuth form `{error, error_description}`. */
const refusalSchema = z.object({
  error_code: z.string().optional(),
  msg: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
});
/**
 * Refusals that are about the credentials, shown in the provider's words; any other 400 (a
 * wrong URL, a CAPTCHA the project requires, a proxy's page) is the configuration's problem.
 */
const CREDENTIAL_REFUSALS = new Set(["invalid_credentials", "email_not_confirmed", "invalid_grant", "user_banned"]);

export type PasswordSignInOptions = {
  /** The auth API base, e.g. `https://<ref>.supabase.co/auth/v1`. */
  url: string;
  /** The project's publishable (or legacy anon) key: public, it identifies the project. */
  publishableKey: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
};

export function passwordSignIn(options: PasswordSignInOptions): PasswordSignIn {
  const { publishableKey, timeoutMs = 5_000, fetch: fetchImpl = fetch } = options;
  const endpoint = new URL("token?grant_type=password", options.url.endsWith("/") ? options.url : `${options.url}/`);
  return async (email, password) => {
    let response: Response;
    let body: unknown;
    try {
      response = await fetchImpl(endpoint, {
        method: "POST",
        headers: { apikey: publishableKey, "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ email, password }),
        redirect: "error",
        signal: AbortSignal.timeout(timeoutMs),
      });
      body = await response.json().catch(() => undefined);
    } catch (error) {
      throw new ProviderUnavailable(isTimeout(error) ? "timeout" : "unreachable", undefined, { cause: error });
    }
    if (response.ok) {
      const session = sessionSchema.safeParse(body);
      if (!session.success) throw new ProviderUnavailable("unexpected_response", response.status);
      return session.data.access_token;
    }
    // GoTrue answers wrong credentials (and an unconfirmed email) with 400.
    const refusal = refusalSchema.safeParse(body);
    const code = refusal.success ? (refusal.data.error_code ?? refusal.data.error) : undefined;
    if ((response.status === 400 || response.status === 422) && code !== undefined && CREDENTIAL_REFUSALS.has(code))
      throw new SignInRefused(
        (refusal.success ? (refusal.data.msg ?? refusal.data.error_description) : undefined) ??
          "The email or password is not right",
      );
    if (response.status === 429) {
      const seconds = Number(response.headers.get("retry-after"));
      throw new SignInThrottled(Number.isInteger(seconds) && seconds > 0 ? seconds : 60);
    }
    throw new ProviderUnavailable(
      response.status === 401 || response.status === 403 ? "unauthorized" : "http_status",
      response.status,
    );
  };
}

/** The configured sign-in, or `undefined` when no sign-in URL and publishable key are set. */
export function openPasswordSignIn(
  settings: Pick<Settings, "authSignInUrl" | "authPublishableKey">,
): PasswordSignIn | undefined {
  if (!settings.authSignInUrl || !settings.authPublishableKey) return undefined;
  return passwordSignIn({ url: settings.authSignInUrl, publishableKey: settings.authPublishableKey });
}
