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

const sessionSchema = z.object({ access_token: z.string().min(1) });
/** GoTrue's error bodies: `{code, error_code, msg}`, or the OAuth form `{error, error_description}`. */
const refusalSchema = z.object({ msg: z.string().optional(), error_description: z.string().optional() });

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
    // 400 is GoTrue's answer to wrong credentials (and an unconfirmed email); 422 to a malformed one.
    if (response.status === 400 || response.status === 422) {
      const refusal = refusalSchema.safeParse(body);
      const words = refusal.success ? (refusal.data.msg ?? refusal.data.error_description) : undefined;
      throw new SignInRefused(words ?? "The email or password is not right");
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
