import { Layout } from "../layout.js";

/**
 * How to sign in on this server. With no identity provider configured (the embedded
 * default) its development issuer signs a token for any name typed here, for requests from
 * the machine itself only, and the page says so. With a provider, an email and password
 * signed in at it when its sign-in is configured; else (or besides) the provider's access
 * token, pasted: it is what its own sign-in hands out.
 */
export function SignInPage({
  devIssuer,
  password,
  local,
  problem,
}: {
  devIssuer: boolean;
  /** The provider's email and password sign-in is configured. */
  password: boolean;
  local: boolean;
  problem?: string;
}) {
  return (
    <Layout title="Sign in">
      <h1>Sign in</h1>
      <p class="lede">
        Signed in, submitters send batch packages and follow their reports, and administrators decide access requests.
        Reading needs no account.
      </p>
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      {devIssuer ? (
        local ? (
          <form class="panel" method="post" action="/account/sign-in">
            <p>
              This server has no identity provider configured, so its development issuer signs you in under any name you
              type: use it on your own machine only. Configure <code>AUTH_JWKS_URL</code> to sign in through a real
              provider.
            </p>
            <label for="name">Your name</label>
            <input id="name" name="name" required maxlength={100} autocomplete="username" />
            <button type="submit">Sign in</button>
          </form>
        ) : (
          <p class="panel">
            This server has no identity provider configured. Its development issuer signs in only requests from the
            machine the server runs on.
          </p>
        )
      ) : (
        <>
          {password && (
            <form class="panel" method="post" action="/account/sign-in">
              <p>Sign in with your account at the identity provider.</p>
              <label for="email">Email</label>
              <input id="email" name="email" type="email" required maxlength={320} autocomplete="username" />
              <label for="password">Password</label>
              <input
                id="password"
                name="password"
                type="password"
                required
                maxlength={1024}
                autocomplete="current-password"
              />
              <button type="submit">Sign in</button>
            </form>
          )}
          <form class="panel" method="post" action="/account/sign-in">
            <p>
              {password ? "Or sign in" : "Sign in"} with the identity provider, then paste the access token it gave you.
            </p>
            <label for="token">Access token</label>
            <textarea id="token" name="token" required rows={4} maxlength={8192} />
            <button type="submit">{password ? "Sign in with the token" : "Sign in"}</button>
          </form>
        </>
      )}
    </Layout>
  );
}
