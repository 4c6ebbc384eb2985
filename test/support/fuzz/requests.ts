import { stringify } from "csv-stringify/sync";
import fc from "fast-check";
import { CSV_COLUMNS } from "../../../src/submissions/csv.js";
import type { Coordinated } from "./acceptable.js";
import {
  bodyTexts,
  forgedCursors,
  headerSafe,
  hostileHeaderValues,
  hostileJson,
  hostileSegments,
  hostileStrings,
  mutated,
  nearMisses,
  percentEncoded,
} from "./hostile.js";
import { type Hints, type JsonSchema, schemaValues } from "./schema-values.js";
import { APPROVED_ORIGIN, type FuzzWorld } from "./world.js";

/** One operation of the OpenAPI document, as the fuzz reads it. */
export type Operation = {
  /** `METHOD template`, e.g. `GET /api/v1/fixtures/{fixtureId}`. */
  key: string;
  method: string;
  template: string;
  parameters: { name: string; in: "path" | "query" | "header"; required?: boolean; schema: JsonSchema }[];
  /** The media types of its body and their schemas; none for an operation that takes no body. */
  body: Record<string, JsonSchema>;
  /** Its security requirements: `bearerAuth`, `apiKey`, and `{}` where it may be called without. */
  security: Record<string, unknown>[];
};

type Document = {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components?: { schemas?: Record<string, JsonSchema> };
};

/** The implemented operations of the document, in its order. */
export function implementedOperations(document: Document): Operation[] {
  return Object.entries(document.paths).flatMap(([template, item]) =>
    Object.entries(item)
      .filter(([, op]) => op["x-implementation-status"] === "implemented")
      .map(([method, op]) => {
        const content = (op.requestBody as { content?: Record<string, { schema: JsonSchema }> } | undefined)?.content;
        return {
          key: `${method.toUpperCase()} ${template}`,
          method: method.toUpperCase(),
          template,
          parameters: (op.parameters ?? []) as Operation["parameters"],
          body: Object.fromEntries(Object.entries(content ?? {}).map(([type, media]) => [type, media.schema])),
          security: (op.security ?? [{}]) as Record<string, unknown>[],
        };
      }),
  );
}

/** A request as it goes on the wire: the target is the path and query exactly as sent. */
export type FuzzRequest = {
  operation: string;
  method: string;
  target: string;
  headers: Record<string, string>;
  body?: string | Uint8Array | FormData;
};

/** How a failing request is printed: what was sent, a long body cut short. */
function described(request: Omit<FuzzRequest, typeof fc.toStringMethod>): FuzzRequest {
  return Object.assign(request, {
    [fc.toStringMethod]: () => {
      const body = request.body;
      const shown =
        body === undefined
          ? "(none)"
          : body instanceof FormData
            ? JSON.stringify(
                [...body.entries()].map(([k, v]) => [
                  k,
                  v instanceof File ? `File ${v.name} (${v.type}, ${v.size} bytes)` : v,
                ]),
              )
            : body instanceof Uint8Array
              ? `bytes ${Buffer.from(body.subarray(0, 300)).toString("hex")}${body.length > 300 ? `… (${body.length} bytes)` : ""}`
              : `${JSON.stringify(body.slice(0, 300))}${body.length > 300 ? `… (${body.length} characters)` : ""}`;
      return `${request.method} ${request.target.slice(0, 500)}\n  headers ${JSON.stringify(request.headers).slice(0, 600)}\n  body ${shown}`;
    },
  });
}

const weighted = <T>(...choices: [number, fc.Arbitrary<T>][]) =>
  fc.oneof(...choices.filter(([weight]) => weight > 0).map(([weight, arbitrary]) => ({ weight, arbitrary })));

/**
 * Requests for one operation: its path parameters (the world's ids, values of their schema,
 * hostile segments), declared query parameters in and out of their schemas and undeclared
 * ones, credentials good and bad, If-None-Match, content types, and bodies shaped by the
 * schema, valid enough to be accepted, mutated, or not JSON at all; now and then another
 * method or another version prefix on the same path.
 */
export function requestsFor(operation: Operation, world: FuzzWorld, document: Document): fc.Arbitrary<FuzzRequest> {
  const resolve = (ref: string) => document.components?.schemas?.[ref.replace("#/components/schemas/", "")] ?? {};
  const idHints: Hints = (name) => {
    const known = world.idsFor(operation.template, name);
    if (known.length === 0) return undefined;
    const almost = name === "cursor" ? forgedCursors(known) : nearMisses(known);
    return weighted([3, fc.constantFrom(...known)], [1, almost]);
  };
  const bodyHints: Hints = (name) => world.bodyHints[name] ?? idHints(name);
  const textOf = (schema: JsonSchema, hints: Hints, name: string) =>
    schemaValues(schema, resolve, hints, name).map((v) => (typeof v === "string" ? v : JSON.stringify(v)));

  const pathValue = (name: string, schema: JsonSchema) =>
    weighted([8, textOf(schema, idHints, name).map(percentEncoded)], [2, hostileSegments]);
  const pathParams = fc.record(
    Object.fromEntries(
      operation.parameters.filter((p) => p.in === "path").map((p) => [p.name, pathValue(p.name, p.schema)]),
    ),
  ) as fc.Arbitrary<Record<string, string>>;

  const coordinated = world.coordinated[operation.key];
  const [mediaType, bodySchema] = Object.entries(operation.body)[0] ?? [];
  const schemaBodies = bodySchema ? schemaValues(bodySchema, resolve, bodyHints) : fc.constant(undefined);
  const seeds = coordinated ? coordinated.map((c) => c.body) : schemaBodies;
  const bodyValues = weighted<unknown>([5, schemaBodies], [3, seeds], [5, mutated(seeds)], [1, hostileJson]);
  const independent = fc.record({ params: pathParams, body: bodyValues });
  const parts: fc.Arbitrary<Coordinated> = coordinated
    ? weighted(
        [7, independent],
        [4, coordinated],
        [2, fc.tuple(coordinated, mutated(seeds)).map(([c, body]) => ({ ...c, body }))],
      )
    : independent;

  const contentFor = (value: unknown): fc.Arbitrary<Content> =>
    mediaType === "multipart/form-data"
      ? multipartBodies(fc.constant(value))
      : mediaType
        ? jsonBodies(fc.constant(value))
        : weighted([8, fc.constant({ headers: {} })], [operation.method === "GET" ? 0 : 2, jsonBodies(hostileJson)]);

  return fc
    .record({
      parts: parts.chain((p) =>
        contentFor(p.body).map((content) => ({ params: p.params, content, authorization: p.authorization })),
      ),
      query: queries(operation, (schema, name) => textOf(schema, idHints, name), idHints("cursor")),
      headers: headersFor(operation, world),
      method: weighted(
        [20, fc.constant(operation.method)],
        [1, fc.constantFrom("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")],
      ),
      prefix: weighted(
        [30, fc.constant("/api/v1")],
        [1, fc.constantFrom("/api/v2", "/api/V1", "/api/v1/", "//api/v1", "/api", "/v1")],
      ),
      trailingSlash: weighted([20, fc.constant("")], [1, fc.constant("/")]),
    })
    .map(({ parts: { params, content, authorization }, query, headers, method, prefix, trailingSlash }) => {
      const path = operation.template
        .replace(/\{([^}]+)\}/g, (_, name: string) => params[name] ?? "")
        .replace(/^\/api\/v1(?=\/|$)/, prefix);
      // A GET or HEAD carries no body (fetch refuses one), whatever the operation takes.
      const body = method === "GET" || method === "HEAD" ? undefined : content.body;
      return described({
        operation: operation.key,
        method,
        target: `${path}${trailingSlash}${query}`,
        headers: {
          ...headers,
          ...(authorization === undefined ? {} : { Authorization: authorization }),
          ...(body === undefined ? {} : content.headers),
        },
        ...(body === undefined ? {} : { body }),
      });
    });
}

type Content = { headers: Record<string, string>; body?: FuzzRequest["body"] };

/** `values` in `present` requests out of `present + absent`, else undefined. */
const sometimes = <T>(values: fc.Arbitrary<T>, present: number, absent: number) =>
  weighted<T | undefined>([present, values], [absent, fc.constant(undefined)]);

/**
 * A query string: declared parameters, each in or out of its schema, now and then an
 * undeclared one or a broken one; on a collection, often just a cursor it issued, as is or
 * forged, to page on.
 */
function queries(
  operation: Operation,
  valuesOf: (schema: JsonSchema, name: string) => fc.Arbitrary<string>,
  cursors: fc.Arbitrary<unknown> | undefined,
) {
  const declared = operation.parameters.filter((p) => p.in === "query");
  const outOfSchema = fc.oneof(
    hostileStrings,
    fc.constantFrom("", "0", "-1", "101", "1.5", "1e2", "true", "null", "2024-02-30"),
  );
  const pairs = declared.map((p) =>
    sometimes(
      weighted([6, valuesOf(p.schema, p.name)], [2, outOfSchema]).map(
        (value) => `${percentEncoded(p.name)}=${percentEncoded(value)}`,
      ),
      p.required ? 12 : 1,
      p.required ? 1 : 2,
    ),
  );
  const undeclared = fc
    .tuple(fc.constantFrom("apiKey", "api_key", "x", "LIMIT", "limit[]", "__proto__", "", "sort"), hostileStrings)
    .map(([name, value]) => `${percentEncoded(name)}=${percentEncoded(value)}`);
  const broken = fc.constantFrom(
    "",
    "&",
    "&&",
    "=",
    "limit",
    "limit=%",
    "limit=%ZZ",
    "%00=1",
    "limit=1&limit=2",
    "cursor=%ED%A0%80",
  );
  const mixed = fc
    .tuple(fc.tuple(...pairs), fc.array(weighted([3, undeclared], [1, broken]), { maxLength: 2 }), fc.nat({ max: 9 }))
    .map(([chosen, extra, n]) => {
      const all = [...chosen.filter((p): p is string => p !== undefined), ...(n < 2 ? extra : [])];
      return all.length > 0 ? `?${all.join("&")}` : "";
    });
  if (!cursors) return mixed;
  const paging = cursors.map((cursor) => `?cursor=${percentEncoded(String(cursor))}`);
  return weighted([3, mixed], [1, paging]);
}

const OTHER_ORIGINS = ["https://evil.example", "null", `${APPROVED_ORIGIN}/`, APPROVED_ORIGIN.toUpperCase()];
const FORWARDED = [
  "203.0.113.7",
  "203.0.113.7, 198.51.100.1",
  "2001:db8::1",
  "fe80::1%eth0",
  "::ffff:203.0.113.7",
  "1:2:3:4:5:6:1.2.3.4",
  "[2001:db8::1]:443",
  "203.0.113.7:8080",
  "unknown",
  "",
  ",,,",
  "999.1.1.1",
];

/**
 * The request's headers. Credentials as its operation's security suggests: on application routes a
 * bearer token, mostly one of the world's accounts (the administrator most often), else an
 * expired, forged or malformed one or none; on keyed reads a valid key, a refused one or
 * none; elsewhere mostly nothing. Then If-None-Match where the operation reads it, and now
 * and then a request id, Accept, a browser's Origin (the approved one or another) and
 * preflight, or the X-Forwarded-For of the proxy in front, good or hostile.
 */
function headersFor(operation: Operation, world: FuzzWorld): fc.Arbitrary<Record<string, string>> {
  const schemes = new Set(operation.security.flatMap((s) => Object.keys(s)));
  const anonymous = operation.security.some((s) => Object.keys(s).length === 0);
  const [admin, ...others] = world.bearer.valid as [string, ...string[]];
  const bearerValues = weighted(
    [schemes.has("bearerAuth") ? 16 : 0, fc.constant(`Bearer ${admin}`)],
    [schemes.has("bearerAuth") ? 5 : 1, fc.constantFrom(...others).map((t) => `Bearer ${t}`)],
    [2, fc.constantFrom(...world.bearer.refused).map((t) => `Bearer ${t}`)],
    [
      1,
      fc.constantFrom(
        "Bearer",
        "Bearer ",
        `bearer ${admin}`,
        `Basic ${Buffer.from("a:b").toString("base64")}`,
        `Bearer ${admin} ${admin}`,
      ),
    ],
    [1, hostileHeaderValues],
  );
  const keyValues = weighted(
    [schemes.has("apiKey") ? 10 : 0, fc.constantFrom(...world.apiKeys.valid)],
    [3, fc.constantFrom(...world.apiKeys.refused)],
    [1, hostileHeaderValues],
  );
  const declares = (name: string) => operation.parameters.some((p) => p.in === "header" && p.name === name);
  const declaresEtag = declares("If-None-Match");
  // New keys mostly; a few shared ones, so that replays and a key reused for other content are reached.
  const idempotencyKeys = weighted(
    [6, fc.uuid()],
    [3, fc.constantFrom("fuzz-world", "fuzz-1", "fuzz-2")],
    [1, hostileHeaderValues],
  );
  const etags = world.etags;
  const etagValues = weighted(
    [6, fc.constantFrom(...etags)],
    [1, fc.constantFrom("*", ...etags.map((e) => `W/${e}`), ...etags.map((e) => `${e}, "x"`), '""', "W/")],
    [1, hostileHeaderValues],
  );
  const header = (name: string, values: fc.Arbitrary<string>, [present, absent]: [number, number]) =>
    sometimes(
      values.map((v): [string, string] => [name, v]),
      present,
      absent,
    );
  return fc
    .tuple(
      header("Authorization", bearerValues, schemes.has("bearerAuth") ? [10, 1] : [1, 12]),
      header("X-API-Key", keyValues, schemes.has("apiKey") ? (anonymous ? [1, 1] : [10, 1]) : [1, 12]),
      header("If-None-Match", etagValues, declaresEtag ? [1, 1] : [1, 30]),
      header("Idempotency-Key", idempotencyKeys, declares("Idempotency-Key") ? [12, 1] : [1, 30]),
      header("X-Request-Id", hostileHeaderValues, [1, 20]),
      header("Accept", fc.constantFrom("application/xml", "text/csv", "*/*", "application/json;q=0"), [1, 20]),
      header(
        "Origin",
        weighted([4, fc.constantFrom(APPROVED_ORIGIN, ...OTHER_ORIGINS)], [1, hostileHeaderValues]),
        [1, 6],
      ),
      header("Access-Control-Request-Method", fc.constantFrom("GET", "POST", "PUT", "DELETE", "TRACE", "get"), [1, 12]),
      header("X-Forwarded-For", weighted([4, fc.constantFrom(...FORWARDED)], [1, hostileHeaderValues]), [1, 6]),
    )
    .map((entries) => Object.fromEntries(entries.filter((e): e is [string, string] => e !== undefined)));
}

/** A JSON operation's body: the value's text (see bodyTexts) under JSON's media type most of the time, or another. */
function jsonBodies(values: fc.Arbitrary<unknown>) {
  const types = weighted<string | undefined>(
    [14, fc.constant("application/json")],
    [
      3,
      fc.constantFrom(
        "application/json; charset=utf-8",
        "APPLICATION/JSON",
        "application/merge-patch+json",
        "application/json; charset=latin1",
        "application/json;",
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data",
        "",
        undefined,
      ),
    ],
  );
  return fc.tuple(bodyTexts(values), types).map(
    ([body, type]): Content => ({
      headers: type === undefined ? {} : { "Content-Type": type },
      body,
    }),
  );
}

/**
 * An upload: multipart with the file as JSON or CSV text of the value (or any bytes), under
 * a name and media type good or hostile, the field missing, doubled or not a file; now and
 * then not multipart at all, or multipart that does not parse.
 */
function multipartBodies(values: fc.Arbitrary<unknown>): fc.Arbitrary<Content> {
  // Most files are what they say they are, so that their content is judged.
  const honest = weighted(
    [1, bodyTexts(values).map((content) => new File([content], "submission.json", { type: "application/json" }))],
    [1, csvTexts(values).map((content) => new File([content], "events.csv", { type: "text/csv" }))],
  );
  const contents = weighted<string | Uint8Array>(
    [3, bodyTexts(values)],
    [3, csvTexts(values)],
    [1, fc.uint8Array({ maxLength: 200 })],
  );
  const names = weighted(
    [4, fc.constantFrom("submission.json", "events.csv", "EVENTS.CSV", "data", "a.json.csv")],
    [1, fc.constantFrom("", " ", "../../x.json", "a\u0000.csv", 'a".json', "a\r\nb.csv", `${"x".repeat(300)}.json`)],
    [1, hostileStrings],
  );
  const types = fc.constantFrom(
    "application/json",
    "text/csv",
    "",
    "application/octet-stream",
    "text/csv; charset=utf-16",
    "application/vnd.ms-excel",
  );
  const files = weighted(
    [3, honest],
    [2, fc.tuple(contents, names, types).map(([content, name, type]) => new File([content], name, { type }))],
  );
  const forms = fc
    .tuple(
      files,
      weighted([12, fc.constant("file")], [1, fc.constantFrom("File", "files", "")]),
      fc.nat({ max: 19 }),
      hostileStrings,
      files,
    )
    .map(([file, field, variant, text, second]): Content => {
      const form = new FormData();
      if (variant === 0)
        form.append("file", text); // the field, but no file in it
      else form.append(field, file);
      if (variant === 1) form.append("file", second); // two files
      if (variant === 2) form.append("extra", text);
      return { headers: {}, body: form };
    });
  const broken = fc
    .tuple(
      fc.constantFrom("multipart/form-data", "multipart/form-data; boundary=x", "multipart/form-data; boundary="),
      hostileStrings,
    )
    .map(
      ([type, text]): Content => ({
        headers: { "Content-Type": type },
        body: `--x\r\nContent-Disposition: form-data; name="file"\r\n\r\n${text}`,
      }),
    );
  return weighted([10, forms], [2, jsonBodies(values)], [1, broken]);
}

/** CSV of a submission-shaped value's events, one row each, cells as the uploads read them, with hostile cells now and then. */
function csvTexts(values: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  return fc
    .tuple(values, fc.array(fc.tuple(fc.nat(), fc.nat(), hostileStrings.map(headerSafe)), { maxLength: 3 }))
    .map(([value, damage]) => {
      const body = (value ?? {}) as { fixtureId?: unknown; schemaVersion?: unknown; events?: unknown };
      const events = Array.isArray(body.events) ? body.events : [];
      const rows = events.map((event) => CSV_COLUMNS.map((column) => cell(body, event, column)));
      for (const [row, column, text] of damage) {
        const target = rows[row % Math.max(rows.length, 1)];
        if (target) target[column % CSV_COLUMNS.length] = text;
      }
      return stringify([[...CSV_COLUMNS], ...rows]);
    });
}

/** Where each CSV column's cell comes from in a submission and its event. */
function cell(body: { fixtureId?: unknown; schemaVersion?: unknown }, event: unknown, column: string): string {
  const e = (event ?? {}) as Record<string, Record<string, unknown> | unknown>;
  const from = (value: unknown) =>
    value === undefined || value === null ? "" : typeof value === "object" ? JSON.stringify(value) : String(value);
  const nested = (key: string, field: string) => from((e[key] as Record<string, unknown> | undefined)?.[field]);
  if (column === "fixtureId" || column === "schemaVersion") return from(body[column]);
  if (column.startsWith("runs")) return nested("runs", lowerFirst(column.slice(4)));
  if (column.startsWith("extra")) return nested("extras", lowerFirst(column.slice(5)));
  if (column === "wickets") return Array.isArray(e.wickets) && e.wickets.length > 0 ? JSON.stringify(e.wickets) : "";
  return from(e[column]);
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
