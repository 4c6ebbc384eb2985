import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { expect } from "vitest";
import type { Router } from "../../src/http/api.js";
import { openApiDocument } from "../../src/http/openapi.js";

type Reference = { $ref: string };
type Header = { required?: boolean; schema?: object };
type Answer = { headers?: Record<string, Header | Reference>; content?: Record<string, { schema?: object }> };
type Operation = { "x-implementation-status"?: string; responses?: Record<string, Answer> };
type Document = ReturnType<typeof openApiDocument> & {
  paths: Record<string, Record<string, Operation>>;
  components?: { headers?: Record<string, Header> };
};

export type ApiResponse = { status: number; headers: Headers; body: unknown; text: string };

/**
 * Headers no operation declares: framing (OpenAPI ignores a declared Content-Type; the media
 * type is checked against the documented content instead) and the CORS protocol's, which
 * answer the approved origins on every path alike (docs/http.md).
 */
const UNDECLARED = [
  /^content-type$/,
  /^content-length$/,
  /^connection$/,
  /^access-control-/,
  /^vary$/,
  // The security headers every answer carries alike (docs/http.md, the document's description).
  /^content-security-policy$/,
  /^x-content-type-options$/,
  /^x-frame-options$/,
  /^referrer-policy$/,
  /^cross-origin-(opener|resource)-policy$/,
  /^origin-agent-cluster$/,
  /^x-dns-prefetch-control$/,
  /^x-download-options$/,
  /^x-permitted-cross-domain-policies$/,
  /^x-xss-protection$/,
  /^strict-transport-security$/,
];

/** What an answer no operation gives may carry (the document's description says so). */
const UNROUTED_HEADERS = ["x-request-id", "api-version", "allow", "cache-control"];

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];

/** Answers to access checks, which a path's middleware gives before its operations. */
const ACCESS_CHECKS = [401, 403, 429, 503];

/**
 * Refusals of requests the server cannot read or serve, made before any route on every path
 * (the document's description lists them): code and status.
 */
const BEFORE_ROUTING: Record<string, number> = {
  MALFORMED_REQUEST: 400,
  INVALID_JSON: 400,
  PAYLOAD_TOO_LARGE: 413,
  DATABASE_UNAVAILABLE: 503,
};

const templateToRegExp = (template: string) =>
  new RegExp(`^${template.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}$`);

const mediaType = (contentType: string) => contentType.split(";")[0]?.trim().toLowerCase() ?? "";

/**
 * Checks answers against the OpenAPI document the app publishes: the operation must be
 * documented and its status listed; every header the answer carries must be declared for
 * that status (and every required one sent); its media type must be a documented one; a
 * JSON body must match the schema for that status. An answer no operation gives must be a
 * 404, or a 405 naming in `Allow` the methods the path's operations take.
 */
export function contractChecker(document: Document) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: "openapi", components: document.components ?? {} });
  // Header values are text: coerced to the declared type before they are validated.
  const headerAjv = new Ajv2020({ strict: false, coerceTypes: true });
  const templates = Object.keys(document.paths)
    .map((template) => ({ template, pattern: templateToRegExp(template) }))
    // A literal segment beats a parameter: /events/export.json before /events/{eventId}.
    .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));

  // Compiling a schema costs far more than validating with it: compile each one once.
  const validators = new Map<object, ReturnType<typeof ajv.compile>>();
  const validatorFor = (schema: object, compiler = ajv) => {
    let validate = validators.get(schema);
    if (!validate) {
      validate = compiler.compile(
        JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')),
      );
      validators.set(schema, validate);
    }
    return validate;
  };

  const headerOf = (header: Header | Reference): Header =>
    "$ref" in header ? (document.components?.headers?.[header.$ref.split("/").pop() as string] ?? {}) : header;

  /** The implemented operations, by method, whose path template `pathname` matches. */
  const implementedOn = (pathname: string) =>
    templates
      .filter((t) => t.pattern.test(pathname))
      .flatMap(({ template }) => Object.entries(document.paths[template] ?? {}))
      .filter(([, operation]) => operation["x-implementation-status"] === "implemented");

  /** The implemented operations of the paths `pathname` lies below, whose access checks guard it too. */
  const implementedAbove = (pathname: string) =>
    templates
      .filter(({ pattern }) => new RegExp(`${pattern.source.slice(0, -1)}/`).test(pathname))
      .flatMap(({ template }) => Object.entries(document.paths[template] ?? {}))
      .filter(([, operation]) => operation["x-implementation-status"] === "implemented");

  /**
   * An answer no operation gives: a refusal made before any route (BEFORE_ROUTING); else,
   * where the path has no implemented operation, 404 (or the access checks of a path it lies
   * below: 401, 403, 429, 503); else 405 with `Allow` naming the path's methods (HEAD beside
   * GET), unless the path's own access checks answered first. The path's middleware runs
   * either way, so the answer may carry the headers its operations declare.
   */
  function unrouted(pathname: string, method: string, response: ApiResponse) {
    const where = `${method} ${pathname}`;
    const operations = implementedOn(pathname);
    const methods = new Set(operations.map(([name]) => name.toUpperCase()));
    if (methods.has("GET")) methods.add("HEAD");
    const allowed = METHODS.filter((name) => methods.has(name));
    const above = allowed.length === 0 ? implementedAbove(pathname) : [];
    const code = (response.body as { error?: { code?: string } } | undefined)?.error?.code;
    if (method === "OPTIONS" && response.status === 204) {
      // A CORS preflight, which approved origins get on every path alike.
      return;
    }
    if (code !== undefined && BEFORE_ROUTING[code] === response.status) {
      // Refused before any route.
    } else if (allowed.length === 0 && ACCESS_CHECKS.includes(response.status) && above.length > 0) {
      // The access checks of a path it lies below answered first.
    } else if (allowed.length === 0) expect(response.status, `${where} is not an implemented operation`).toBe(404);
    else if (response.status === 405) expect(response.headers.get("allow"), `${where}: Allow`).toBe(allowed.join(", "));
    else {
      expect(ACCESS_CHECKS, `${where}: a method the path does not take`).toContain(response.status);
      const documented = operations.some(([, operation]) => String(response.status) in (operation.responses ?? {}));
      expect(documented, `${where}: ${response.status} is documented by none of the path's operations`).toBe(true);
    }
    expect(response.body, where).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
    const pathHeaders = [...operations, ...above].flatMap(([, operation]) =>
      Object.values(operation.responses ?? {}).flatMap((answer) => Object.keys(answer.headers ?? {})),
    );
    const documented = new Set([...UNROUTED_HEADERS, ...pathHeaders.map((name) => name.toLowerCase())]);
    const extra = [...response.headers.keys()].filter(
      (name) => !documented.has(name) && !UNDECLARED.some((pattern) => pattern.test(name)),
    );
    expect(extra, `${where} ${response.status} sends undocumented headers`).toEqual([]);
  }

  /** Checks an answer; the operation that gave it (`get /api/v1/fixtures`), or none. */
  function conforms(
    pathname: string,
    requestMethod: string,
    response: ApiResponse,
    contentType: string,
  ): string | undefined {
    // HEAD is GET without the content (RFC 9110 §9.3.2): it answers as the GET operation does.
    const method = requestMethod === "head" ? "get" : requestMethod;
    const match = templates.find((t) => t.pattern.test(pathname) && document.paths[t.template]?.[method]);
    const operation = match ? document.paths[match.template]?.[method] : undefined;
    // A path with a dot segment is refused as sent, not as the URL it resolves to.
    const malformed = (response.body as { error?: { code?: string } } | undefined)?.error?.code === "MALFORMED_REQUEST";
    if (!operation || !match || malformed) {
      unrouted(pathname, requestMethod.toUpperCase(), response);
      return undefined;
    }
    const key = `${method} ${match.template}`;
    const where = `${key} ${response.status}`;
    const spec = operation.responses?.[String(response.status)];
    expect(spec, `${key} does not document status ${response.status}`).toBeDefined();
    if (!spec) return key;

    const declared = Object.fromEntries(
      Object.entries(spec.headers ?? {}).map(([name, header]) => [name.toLowerCase(), headerOf(header)]),
    );
    const undocumented = [...response.headers.keys()].filter(
      (name) => !(name in declared) && !UNDECLARED.some((pattern) => pattern.test(name)),
    );
    expect(undocumented, `${where} sends undocumented headers`).toEqual([]);
    for (const [name, header] of Object.entries(declared)) {
      const value = response.headers.get(name);
      if (value === null) {
        expect(header.required, `${where} does not send the required header ${name}`).not.toBe(true);
        continue;
      }
      if (!header.schema) continue;
      const validate = validatorFor({ type: "object", properties: { value: header.schema } }, headerAjv);
      expect(validate({ value }), `${where} header ${name}: ${value}`).toBe(true);
    }

    const hasContent = response.text.length > 0 && requestMethod !== "head";
    if (!hasContent) return key;
    const documented = Object.keys(spec.content ?? {});
    expect(documented, `${where} sends ${mediaType(contentType)}`).toContain(mediaType(contentType));
    if (!contentType.includes("json")) return key;
    const schema = spec.content?.["application/json"]?.schema;
    expect(schema, `${where} has no JSON schema`).toBeDefined();
    const validate = validatorFor(schema as object);
    expect(
      validate(response.body),
      `${method} ${pathname} ${response.status}: ${ajv.errorsText(validate.errors)}`,
    ).toBe(true);
    return key;
  }

  /**
   * Checks one answer to `request`; its text has been read, so the answer is given back as
   * text, with the operation that gave it.
   */
  return function check(request: Request, status: number, headers: Headers, text: string) {
    const contentType = headers.get("content-type") ?? "";
    const body = contentType.includes("json") && text ? JSON.parse(text) : text;
    const result: ApiResponse = { status, headers, body, text };
    return {
      ...result,
      operation: conforms(new URL(request.url).pathname, request.method.toLowerCase(), result, contentType),
    };
  };
}

/** An answer the contract client checked, and the operation that gave it (none for a 404 or 405 of no operation). */
export type Answered = { operation: string | undefined; status: number };

/**
 * Sends requests through `app.request()` and checks every answer against the document the
 * app publishes (`contractChecker`).
 */
export function contractClient(app: Router) {
  const document = openApiDocument(app) as Document;
  const check = contractChecker(document);
  const answered: Answered[] = [];

  async function send(request: Request): Promise<ApiResponse> {
    const response = await app.request(request);
    const { operation, ...result } = check(request, response.status, response.headers, await response.text());
    answered.push({ operation, status: result.status });
    return result;
  }

  const request = (path: string, init: RequestInit = {}) => send(new Request(new URL(path, "http://local"), init));

  return {
    document,
    /** Every answer checked so far, in order. */
    answered,
    request,
    /** A `fetch` whose every answer is checked, for clients that take one (openapi-fetch). */
    fetch: async (input: Request): Promise<Response> => {
      const { status, headers, text } = await send(input);
      return new Response(status === 204 || status === 304 ? null : text, { status, headers });
    },
    get: (path: string, init: RequestInit = {}) => request(path, { ...init, method: "GET" }),
    post: (path: string, body: unknown, init: RequestInit = {}) =>
      request(path, {
        ...init,
        method: "POST",
        headers: { "content-type": "application/json", ...(init.headers as Record<string, string>) },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
  };
}
