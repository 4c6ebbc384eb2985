import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type CryptoKey,
  exportJWK,
  exportSPKI,
  generateKeyPair,
  type JWK,
  type JWTHeaderParameters,
  type JWTPayload,
  SignJWT,
} from "jose";

/** How the fake provider misbehaves, per surface. */
export type FailureMode = "status_500" | "html" | "wrong_shape" | "hang" | "throttled" | "bad_request";

type SigningKey = {
  kid: string;
  alg: "ES256" | "RS256";
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
  published: boolean;
};
type User = { id: string; email: string | null; password?: string; name?: string };

/**
 * A local identity provider on 127.0.0.1 shaped like Supabase Auth (GoTrue): real signed
 * tokens, a JWKS at `/auth/v1/.well-known/jwks.json`, and the admin user endpoints, each with
 * switchable failure modes. Real HTTP on loopback, so the adapters' own fetch, timeouts and
 * parsing are what the tests exercise.
 */
export async function startIdentityProvider(options: { secret?: string } = {}) {
  const secret = options.secret ?? `sb_secret_${randomUUID()}`;
  /** The project's publishable key, which a password sign-in sends as `apikey`. */
  const publishableKey = `sb_publishable_${randomUUID()}`;
  const keys = new Map<string, SigningKey>();
  const users = new Map<string, User>();
  const requests = { jwks: 0, adminList: 0, adminDelete: 0, signIn: 0 };
  const failures: { jwks?: FailureMode; admin?: FailureMode; signIn?: FailureMode } = {};

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
  };

  /** Answers in the failure mode, if one is set; true when it did. */
  const misbehave = (res: ServerResponse, mode: FailureMode | undefined, wrongShape: unknown): boolean => {
    if (mode === "hang") return true; // never answers; close() ends the socket
    if (mode === "status_500") send(res, 500, { code: 500, msg: "Internal Server Error" });
    if (mode === "html")
      res.writeHead(200, { "content-type": "text/html" }).end("<html><body>Bad gateway</body></html>");
    if (mode === "wrong_shape") send(res, 200, wrongShape);
    // GoTrue's own limit, and a 400 that is not about credentials (a wrong grant, a required CAPTCHA).
    if (mode === "throttled")
      send(
        res,
        429,
        { code: 429, error_code: "over_request_rate_limit", msg: "Request rate limit reached" },
        { "retry-after": "17" },
      );
    if (mode === "bad_request")
      send(res, 400, { code: 400, error_code: "captcha_failed", msg: "captcha protection: request disallowed" });
    return mode !== undefined;
  };

  const authorised = (req: IncomingMessage) =>
    req.headers.apikey === secret && req.headers.authorization === `Bearer ${secret}`;

  /** GoTrue's password grant: the session of a user whose email and password match, else its 400. */
  const signIn = async (req: IncomingMessage, res: ServerResponse) => {
    requests.signIn++;
    if (req.headers.apikey !== publishableKey)
      return send(res, 401, {
        message: "Invalid API key",
        hint: "Double check your Supabase `anon` or `service_role` API key.",
      });
    let body = "";
    for await (const chunk of req) body += chunk;
    if (misbehave(res, failures.signIn, { session: "none" })) return;
    const { email, password } = JSON.parse(body) as { email?: string; password?: string };
    const user = [...users.values()].find(
      (u) => u.email === email && u.password !== undefined && u.password === password,
    );
    if (!user)
      return send(res, 400, { code: 400, error_code: "invalid_credentials", msg: "Invalid login credentials" });
    const access = await provider.accessToken({
      sub: user.id,
      email: user.email ?? "",
      user_metadata: { name: user.name },
    });
    return send(res, 200, {
      access_token: access,
      token_type: "bearer",
      expires_in: 3600,
      expires_at: Math.floor(Date.now() / 1000) + 3600,
      refresh_token: randomUUID().slice(0, 12),
      user: { id: user.id, aud: "authenticated", role: "authenticated", email: user.email ?? "" },
    });
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "POST" && url.pathname === "/auth/v1/token" && url.searchParams.get("grant_type") === "password")
      return void signIn(req, res);
    if (req.method === "GET" && url.pathname === "/auth/v1/.well-known/jwks.json") {
      requests.jwks++;
      if (misbehave(res, failures.jwks, { keys: "none" })) return;
      const published = [...keys.values()].filter((k) => k.published).map((k) => k.publicJwk);
      return send(res, 200, { keys: published }, { "cache-control": "public, max-age=600" });
    }
    if (url.pathname.startsWith("/auth/v1/admin/users")) {
      if (!authorised(req)) return send(res, 401, { code: 401, error_code: "no_authorization", msg: "Unauthorized" });
      if (req.method === "GET" && url.pathname === "/auth/v1/admin/users") {
        requests.adminList++;
        if (misbehave(res, failures.admin, { data: [] })) return;
        const page = Number(url.searchParams.get("page") ?? 1);
        const perPage = Number(url.searchParams.get("per_page") ?? 50);
        const all = [...users.values()];
        const slice = all.slice((page - 1) * perPage, page * perPage);
        return send(
          res,
          200,
          {
            users: slice.map((u) => ({ id: u.id, aud: "authenticated", role: "authenticated", email: u.email ?? "" })),
            aud: "authenticated",
          },
          // Present, as GoTrue sends them; the adapter must not need them.
          {
            "x-total-count": String(all.length),
            link: `</admin/users?page=${page + 1}&per_page=${perPage}>; rel="next"`,
          },
        );
      }
      const id = /^\/auth\/v1\/admin\/users\/([^/]+)$/.exec(url.pathname)?.[1];
      if (req.method === "DELETE" && id) {
        requests.adminDelete++;
        if (misbehave(res, failures.admin, { deleted: "maybe" })) return;
        if (!users.delete(decodeURIComponent(id)))
          return send(res, 404, { code: 404, error_code: "user_not_found", msg: "User not found" });
        return send(res, 200, {});
      }
    }
    res.writeHead(404, { "content-type": "text/plain" }).end("Not Found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = `${origin}/auth/v1`;

  const provider = {
    origin,
    /** The issuer (`iss`) and admin API base, as Supabase uses one URL for both. */
    issuer,
    authUrl: issuer,
    jwksUrl: `${issuer}/.well-known/jwks.json`,
    secret,
    publishableKey,
    requests,
    failures,

    /** Creates and publishes a signing key; returns its kid. */
    async addKey(alg: "ES256" | "RS256" = "ES256"): Promise<string> {
      const { privateKey, publicKey } = await generateKeyPair(alg);
      const kid = `${alg.toLowerCase()}-${randomUUID()}`;
      const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: "sig" };
      keys.set(kid, { kid, alg, privateKey, publicKey, publicJwk, published: true });
      return kid;
    },
    /** Stops publishing a key (rotation), keeping it for signing old-looking tokens. */
    unpublishKey(kid: string) {
      const key = keys.get(kid);
      if (key) key.published = false;
    },
    /** The public key as PEM: what an attacker has, to try HS256 "signed" with it. */
    async publicKeyPem(kid: string): Promise<string> {
      const key = keys.get(kid);
      if (!key) throw new Error(`no key ${kid}`);
      return exportSPKI(key.publicKey);
    },

    /** Signs exactly these claims with the key `kid` (the first key by default). */
    async sign(claims: JWTPayload, opts: { kid?: string; header?: Partial<JWTHeaderParameters> } = {}) {
      const key = opts.kid ? keys.get(opts.kid) : keys.values().next().value;
      if (!key) throw new Error("the provider has no signing key; call addKey first");
      return new SignJWT(claims)
        .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: "JWT", ...opts.header })
        .sign(key.privateKey);
    },

    /**
     * A Supabase-shaped access token, signed in `signedInSecondsAgo` ago. `claims` override
     * the defaults; an override of `undefined` removes that claim.
     */
    async accessToken(claims: Record<string, unknown> = {}, opts: { kid?: string; signedInSecondsAgo?: number } = {}) {
      const now = Math.floor(Date.now() / 1000);
      const base: Record<string, unknown> = {
        iss: issuer,
        aud: "authenticated",
        sub: randomUUID(),
        iat: now,
        exp: now + 3600,
        role: "authenticated",
        aal: "aal1",
        session_id: randomUUID(),
        email: "user@example.com",
        phone: "",
        is_anonymous: false,
        amr: [{ method: "password", timestamp: now - (opts.signedInSecondsAgo ?? 0) }],
        app_metadata: { provider: "email", providers: ["email"] },
        user_metadata: { name: "Jo Bloggs" },
      };
      const merged = Object.fromEntries(
        Object.entries({ ...base, ...claims }).filter(([, value]) => value !== undefined),
      ) as JWTPayload;
      return provider.sign(merged, { kid: opts.kid });
    },

    /** Adds a user to the provider (its admin API, and its password sign-in when given one); returns its id. */
    addUser(email: string | null = `${randomUUID()}@example.com`, signIn?: { password: string; name: string }): string {
      const id = randomUUID();
      users.set(id, { id, email, ...signIn });
      return id;
    },
    hasUser: (id: string) => users.has(id),

    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return provider;
}

export type IdentityProvider = Awaited<ReturnType<typeof startIdentityProvider>>;
