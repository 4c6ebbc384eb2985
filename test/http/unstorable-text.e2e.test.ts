import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../support/account-api.js";
import { type ConsumerApi, type IssuedConsumer, openConsumerApi } from "../support/consumer-api.js";

/**
 * A NUL character in a path or query parameter, tried on every
 * operation the API documents, as an administrator who also sends a valid API key (so no
 * route refuses for want of a credential). PostgreSQL cannot hold such text, so it used to
 * reach a query and fail there with a 500; it must be refused as input.
 */

type Parameter = {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  schema?: { type?: string; enum?: unknown[]; example?: unknown };
};
type Operation = { parameters?: Parameter[]; "x-implementation-status"?: string };

let api: ConsumerApi;
let consumer: IssuedConsumer;

beforeAll(async () => {
  api = await openConsumerApi();
  consumer = await api.aConsumer({ rateLimitPerMinute: 10_000 });
}, 60_000);
afterAll(() => api?.close());

function operations(): { method: string; template: string; parameters: Parameter[] }[] {
  const paths = api.api.document.paths as Record<string, Record<string, Operation>>;
  return Object.entries(paths).flatMap(([template, methods]) =>
    Object.entries(methods)
      .filter(([, operation]) => operation["x-implementation-status"] === "implemented")
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        template,
        parameters: operation.parameters ?? [],
      })),
  );
}

const send = (method: string, path: string) =>
  api.api.call(method, path, { token: api.admin.token, headers: { "x-api-key": consumer.apiKey } });

/** The query's other required parameters, each with its documented example. */
const required = (parameters: Parameter[], except: string) =>
  parameters
    .filter((p) => p.in === "query" && p.required && p.name !== except)
    .map((p) => `&${p.name}=${String(p.example ?? p.schema?.example ?? p.schema?.enum?.[0])}`)
    .join("");

/** The template with every path parameter filled: `value` for `name`, a harmless id for the rest. */
const filled = (template: string, name: string | null, value: string) =>
  template.replace(/\{([^}]+)\}/g, (_, param: string) => (param === name ? value : "1"));

// An unpaired surrogate cannot arrive in a URL: percent-decoding reads UTF-8, which has none.
describe("U+0000 in a parameter", () => {
  const encoded = "%00";

  it("in a path names nothing: 404, or 422 where the id must be a number", async () => {
    const tried: string[] = [];
    for (const { method, template, parameters } of operations()) {
      // With the query it requires, so the path is what it answers for.
      const query = required(parameters, "").replace(/^&/, "?");
      for (const parameter of parameters.filter((p) => p.in === "path")) {
        const res = await send(method, `${filled(template, parameter.name, `a${encoded}b`)}${query}`);
        const numeric = parameter.schema?.type !== "string";
        expectError(res, numeric ? 422 : 404, numeric ? "VALIDATION_FAILED" : "NOT_FOUND");
        tried.push(`${method} ${template} ${parameter.name}`);
      }
    }
    expect(tried.length).toBeGreaterThan(25);
  });

  it("in a query is a 400 naming the parameter", async () => {
    const tried: string[] = [];
    for (const { method, template, parameters } of operations()) {
      for (const parameter of parameters.filter((p) => p.in === "query" && p.schema?.type === "string")) {
        const query = `${parameter.name}=a${encoded}b${required(parameters, parameter.name)}`;
        const res = await send(method, `${filled(template, null, "")}?${query}`);
        expectError(res, 400, "VALIDATION_FAILED");
        const fields = (res.body as { error: { details: { field: string }[] } }).error.details.map((d) => d.field);
        expect(fields, `${method} ${template} ?${parameter.name}`).toContain(parameter.name);
        tried.push(`${method} ${template} ${parameter.name}`);
      }
    }
    expect(tried.length).toBeGreaterThan(40);
  });
});
