import type { Context } from "hono";
import type { HtmlEscapedString } from "hono/utils/html";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** A rendered page as an answer: the doctype, the policy it runs under, and any other headers. */
export async function htmlPage(
  c: Context,
  element: HtmlEscapedString | Promise<HtmlEscapedString>,
  policy: string,
  status: ContentfulStatusCode = 200,
  headers: Record<string, string> = {},
) {
  return c.html(`<!DOCTYPE html>${await element}`, status, { "Content-Security-Policy": policy, ...headers });
}
