import type { Child } from "hono/jsx";

/** Every page's frame: skip link, header with the site's navigation, main, and the data's attribution. */
export function Layout({
  title,
  refreshSeconds,
  script,
  children,
}: {
  title: string;
  /** Reload the page this often (a batch being validated): no script needed. */
  refreshSeconds?: number | undefined;
  /** The module script the page runs, if any (only pages whose policy allows this site's scripts). */
  script?: string;
  children: Child;
}) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {refreshSeconds !== undefined && <meta http-equiv="refresh" content={String(refreshSeconds)} />}
        <title>{`${title} · Cricket Analytics`}</title>
        <link rel="stylesheet" href={STYLESHEET_PATH} />
        {script && <script type="module" src={script} />}
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="site">
          <div class="bar">
            <a class="brand" href="/">
              Cricket Analytics
            </a>
            <nav aria-label="Site">
              <ul>
                <li>
                  <a href="/">Competitions</a>
                </li>
                <li>
                  <a href="/search">Search</a>
                </li>
                <li>
                  <a href="/ask">Ask</a>
                </li>
                <li>
                  <a href="/releases">Releases</a>
                </li>
                <li>
                  <a href="/docs">API reference</a>
                </li>
                <li>
                  <a href="/account">Account</a>
                </li>
              </ul>
            </nav>
          </div>
        </header>
        <main id="main">{children}</main>
        <footer class="site">
          Match data from <a href="https://cricsheet.org/">Cricsheet</a> (ODC-By 1.0). Open data, open API:{" "}
          <a href="/openapi.yaml">the contract</a>.
        </footer>
      </body>
    </html>
  );
}

export const STYLESHEET_PATH = "/assets/site.css";

/** Pages load their stylesheet and inline SVG; nothing else, and no script at all. */
export const PAGE_POLICY =
  "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** The search box of the home and search pages. */
export function SearchBox({ query = "" }: { query?: string }) {
  return (
    <search>
      <form class="search" action="/search" method="get">
        <label class="visually-hidden" for="q">
          Search players, teams and competitions
        </label>
        <input id="q" name="q" type="search" value={query} placeholder="Player, team or competition" maxlength={100} />
        <button type="submit">Search</button>
      </form>
    </search>
  );
}
