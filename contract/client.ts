import createClient from "openapi-fetch";
import type { components, paths } from "./paths.gen.js";

/*
 * A client of the published contract, typed only by what the document says: `paths` is
 * generated from /openapi.yaml before every type check (`npm run contract:types`), so a
 * document that stops describing an operation's parameters, bodies or answers usefully
 * stops this file compiling. It calls operations of each kind: public reads (a filtered,
 * paged list, a conditional read, a CSV export), keyed reads (a deprecated alias, the
 * consumer's own usage), bearer-authenticated writes (JSON and multipart) and the contract
 * itself. test/http/typed-client.e2e.test.ts drives it against the app.
 */

type Schemas = components["schemas"];
export type ErrorBody = Schemas["Error"]["error"];
export type ErrorCode = ErrorBody["code"];
export type Fixture = Schemas["FixturePage"]["data"][number];
export type FixtureFilters = NonNullable<paths["/api/v1/fixtures"]["get"]["parameters"]["query"]>;
export type Submission = Schemas["DirectSubmission"];
type Accepted = NonNullable<
  paths["/api/v1/submissions"]["post"]["responses"]["201"]["content"]["application/json"]
>["data"];

/** What an operation answered: its value, or the status and error envelope of a refusal. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; status: number; error: ErrorBody };

type Answer<T> = { data?: T; error?: { error: ErrorBody }; response: Response };

async function outcome<T>(answer: Promise<Answer<T>>): Promise<Outcome<T>> {
  const { data, error, response } = await answer;
  if (error) return { ok: false, status: response.status, error: error.error };
  if (data === undefined) throw new Error(`${response.url}: ${response.status} without a body`);
  return { ok: true, value: data };
}

export type Credentials = { apiKey?: string; bearerToken?: string };

/** A client of the API at `baseUrl`, sending `credentials` with every request through `fetch`. */
export function cricketClient(
  baseUrl: string,
  fetch: (request: Request) => Promise<Response>,
  { apiKey, bearerToken }: Credentials = {},
) {
  const api = createClient<paths>({
    baseUrl,
    fetch,
    headers: { "X-API-Key": apiKey, Authorization: bearerToken === undefined ? undefined : `Bearer ${bearerToken}` },
  });

  return {
    /** Every fixture matching `filters`, following the cursor page by page. */
    async fixtures(filters: Omit<FixtureFilters, "cursor"> = {}): Promise<Outcome<Fixture[]>> {
      const fixtures: Fixture[] = [];
      let cursor: string | undefined;
      do {
        const page = await outcome(api.GET("/api/v1/fixtures", { params: { query: { ...filters, cursor } } }));
        if (!page.ok) return page;
        fixtures.push(...page.value.data);
        cursor = page.value.pagination.nextCursor ?? undefined;
      } while (cursor !== undefined);
      return { ok: true, value: fixtures };
    },

    /** One fixture and its ETag; `unchanged` when `etag` is still current (304). */
    async fixture(fixtureId: string, etag?: string) {
      const { data, error, response } = await api.GET("/api/v1/fixtures/{fixtureId}", {
        params: { path: { fixtureId }, header: etag === undefined ? {} : { "If-None-Match": etag } },
      });
      if (response.status === 304) return { unchanged: true as const };
      if (error) return { unchanged: false as const, refused: error.error };
      return { unchanged: false as const, fixture: data?.data, etag: response.headers.get("ETag") ?? undefined };
    },

    /** A fixture's events as CSV, as many innings as `inningsId` leaves in. */
    async eventsCsv(fixtureId: string, inningsId?: string): Promise<Outcome<string>> {
      const { data, error, response } = await api.GET("/api/v1/fixtures/{fixtureId}/events/export.csv", {
        params: { path: { fixtureId }, query: { inningsId } },
        parseAs: "text",
      });
      return error ? { ok: false, status: response.status, error: error.error } : { ok: true, value: data ?? "" };
    },

    /** A fixture through its deprecated keyed alias, with the successor the answer names. */
    async fixtureViaAlias(fixtureId: string) {
      const answer = api.GET("/api/v1/consumer/fixtures/{fixtureId}", { params: { path: { fixtureId } } });
      const { response } = await answer;
      return { fixture: await outcome(answer), successor: response.headers.get("Link") };
    },

    /** The calling consumer's own usage, the window starting at `from` when given. */
    ownUsage: (from?: string) => outcome(api.GET("/api/v1/consumer/usage", { params: { query: { from } } })),

    /** Submits deliveries (admin): the acceptance, or the refusal with every problem. */
    submit: (submission: Submission): Promise<Outcome<Accepted>> =>
      outcome(api.POST("/api/v1/submissions", { body: submission })).then((o) =>
        o.ok ? { ...o, value: o.value.data } : o,
      ),

    /** Uploads a submission file (admin): `file.content` sent as a file named `file.name` of `file.type`. */
    upload: (file: { name: string; type: "application/json" | "text/csv"; content: string }) =>
      outcome(
        api.POST("/api/v1/submissions/uploads", {
          body: { file: file.content },
          bodySerializer: (body) => {
            const form = new FormData();
            form.append("file", new File([body.file], file.name, { type: file.type }));
            return form;
          },
        }),
      ),

    /** Issues an API consumer (admin); its key is in the answer this once. */
    issueConsumer: (name: string, limits: Omit<Schemas["ApiConsumerIssue"], "name"> = {}) =>
      outcome(api.POST("/api/v1/admin/api-consumers", { body: { name, ...limits } })),

    /** This OpenAPI document, as YAML. */
    contract: async () => (await api.GET("/openapi.yaml", { parseAs: "text" })).data,
  };
}

export type CricketClient = ReturnType<typeof cricketClient>;
