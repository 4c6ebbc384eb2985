import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Router } from "../http/api.js";
import { packageJsonSchema } from "../ingest/batches/package.js";

/**
 * The one script of the web UI and what it needs (docs/web.md): the upload form's package
 * check, the JSON Schema validator it imports (@cfworker/json-schema's ES modules, served as
 * published: no build step), and the package's JSON Schema. Only the account page runs it.
 */
export const PACKAGE_CHECK_PATH = "/assets/package-check.js";
const VALIDATOR_PATH = "/assets/json-schema";
const SCHEMA_PATH = "/assets/package.schema.json";

const CHECK = readFileSync(new URL("./package-check.js", import.meta.url), "utf8");
const VALIDATOR_DIRECTORY = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@cfworker/json-schema/package.json")),
  "dist/esm",
);
/** The validator's modules by file name: only these are served. */
const VALIDATOR = new Map(
  readdirSync(VALIDATOR_DIRECTORY)
    .filter((file) => file.endsWith(".js"))
    .map((file) => [file, readFileSync(path.join(VALIDATOR_DIRECTORY, file), "utf8")]),
);
const SCHEMA = JSON.stringify(packageJsonSchema());

const JAVASCRIPT = { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=3600" };

export function registerScripts(app: Router) {
  app.get(PACKAGE_CHECK_PATH, (c) => c.body(CHECK, 200, JAVASCRIPT));
  app.get(`${VALIDATOR_PATH}/:file`, (c) => {
    const module = VALIDATOR.get(c.req.param("file"));
    return module === undefined ? c.notFound() : c.body(module, 200, JAVASCRIPT);
  });
  app.get(SCHEMA_PATH, (c) =>
    c.body(SCHEMA, 200, { "Content-Type": "application/schema+json", "Cache-Control": "public, max-age=3600" }),
  );
}

/** The script routes, as `METHOD path`, for whoever must tell them from the API's operations. */
export const SCRIPT_ROUTES = [`GET ${PACKAGE_CHECK_PATH}`, `GET ${VALIDATOR_PATH}/:file`, `GET ${SCHEMA_PATH}`];
