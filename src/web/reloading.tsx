import type { Context } from "hono";

/**
 * A page whose subject is still being worked on (a batch validating, a release generating)
 * reloads itself, with no script, until the work is done; the reader can stop it (WCAG
 * 2.2.1: a time limit the user can turn off), and the choice stays in the page's URL.
 */
export const RELOAD_SECONDS = 2;

/** Whether the reader lets the page reload itself: yes unless they stopped it. */
export const reloadWanted = (c: Context) => c.req.query("reload") !== "off";

/**
 * The control beside a working page's state, at `path` (the page's own: a refusal of a form
 * is shown at the form's address, which answers no GET): stop the reloading, or reload by
 * hand once stopped.
 */
export function ReloadControl({ reloading, path }: { reloading: boolean; path: string }) {
  return reloading ? (
    <p class="reloading">
      This page reloads itself every {RELOAD_SECONDS} seconds. <a href={`${path}?reload=off`}>Stop reloading</a>
    </p>
  ) : (
    <p class="reloading">
      Reloading is stopped. <a href={`${path}?reload=off`}>Reload now</a> or <a href={path}>reload until it is done</a>
    </p>
  );
}
