import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { expect } from "vitest";
import type { Router } from "../../src/http/api.js";
import { openApiDocument } from "../../src/http/openapi.js";

type Operation = { responses?: Record<string, { content?: Record<string, { schema?: object }> }> };
type Document = ReturnType<typeof openApiDocument> & { paths: Record<string, Record<string, Operation>> };

export type ApiResponse = { status: number; headers: Headers; body: unknown; text: string };

const templateToRegExp = (template: string) =>
  new RegExp(`^${template.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}$`);

/**
 * Sends requests through `app.request()` and checks every answer against the OpenAPI
 * document the app publishes: the operation must be documented, the status listed, and a
 * JSON body must match the schema for that status.
 */
export function contractClient(app: Router) {
  const document = openApiDocument(app) as Document;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: "openapi", components: document.components ?? {} });
  const templates = Object.keys(document.paths)
    .map((template) => ({ template, pattern: templateToRegExp(template) }))
    // A literal segment beats a parameter: /events/export.json before /events/{eventId}.
    .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));

  // Compiling a schema costs far more than validating with it: compile each one once.
  const validators = new Map<object, ReturnType<typeof ajv.compile>>();
  const validatorFor = (schema: object) => {
    let validate = validators.get(schema);
    if (!validate) {
      validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')));
      validators.set(schema, validate);
    }
    return validate;
  };

  async function request(path: string, init: RequestInit = {}): Promise<ApiResponse> {
    const response = await app.request(path, init);
    const text = await response.text();
    const contentType = response.headers.get("content-type") ?? "";
    const body = contentType.includes("json") && text ? JSON.parse(text) : text;
    const result = { status: response.status, headers: response.headers, body, text };
    conforms(new URL(path, "http://local").pathname, (init.method ?? "GET").toLowerCase(), result, contentType);
    return result;
  }

  function conforms(pathname: string, method: string, response: ApiResponse, contentType: string) {
    const match = templates.find((t) => t.pattern.test(pathname) && document.paths[t.template]?.[method]);
    const operation = match ? document.paths[match.template]?.[method] : undefined;
    const implemented =
      (operation as Record<string, unknown> | undefined)?.["x-implementation-status"] === "implemented";
    if (!operation || !implemented) {
      // Unrouted requests still answer in the error envelope: 405 with Allow on a path that
      // has implemented operations, 404 elsewhere.
      const allowed = implementedMethods(pathname);
      expect(response.status, `${method} ${pathname} is not an implemented operation`).toBe(
        allowed.length > 0 ? 405 : 404,
      );
      if (allowed.length > 0)
        expect(response.headers.get("allow")?.split(", ")).toEqual(expect.arrayContaining(allowed));
      expect(response.body).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
      return;
    }
    const spec = operation.responses?.[String(response.status)] ?? operation.responses?.default;
    expect(spec, `${method} ${match?.template} does not document status ${response.status}`).toBeDefined();
    if (!contentType.includes("json")) return;
    const schema = spec?.content?.["application/json"]?.schema;
    expect(schema, `${method} ${match?.template} ${response.status} has no JSON schema`).toBeDefined();
    const validate = validatorFor(schema as object);
    expect(
      validate(response.body),
      `${method} ${pathname} ${response.status}: ${ajv.errorsText(validate.errors)}`,
    ).toBe(true);
  }

  /** The methods of the implemented operations whose path template matches `pathname`. */
  const implementedMethods = (pathname: string) =>
    templates
      .filter((t) => t.pattern.test(pathname))
      .flatMap((t) => Object.entries(document.paths[t.template] ?? {}))
      .filter(([, operation]) => (operation as Record<string, unknown>)["x-implementation-status"] === "implemented")
      .map(([method]) => method.toUpperCase());

  return {
    document,
    request,
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
