import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { createRoute, z } from "@hono/zod-openapi";
import { implemented, type Router } from "./api.js";
import { errorResponses, notFound } from "./errors.js";
import { openApiDocument, toYaml } from "./openapi.js";
import { htmlPolicy } from "./security-headers.js";

/**
 * Where the installed swagger-ui-dist keeps its files. Resolved, not imported: importing the
 * package evaluates its 1.4 MB browser bundle in every process at start-up.
 */
const SWAGGER_UI = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

/** The reference page's assets, by file name, with the media type each is served as. */
const ASSETS = {
  "swagger-ui.css": "text/css",
  "swagger-ui-bundle.js": "text/javascript",
  "swagger-ui-standalone-preset.js": "text/javascript",
  "favicon-32x32.png": "image/png",
} as const;
const ASSET_FILES = Object.keys(ASSETS) as (keyof typeof ASSETS)[];

const text = { schema: { type: "string" as const } };

const yamlRoute = createRoute({
  method: "get",
  path: "/openapi.yaml",
  tags: ["Documentation"],
  operationId: "getOpenApiDocument",
  summary: "This OpenAPI 3.1 document, as YAML",
  description:
    "The contract, generated from the route definitions this server runs: every operation, with its parameters, bodies, statuses and headers. No credentials needed.",
  ...implemented,
  security: [],
  responses: { 200: { description: "The contract", content: { "application/yaml": text } } },
});

const docsRoute = createRoute({
  method: "get",
  path: "/docs",
  tags: ["Documentation"],
  operationId: "getApiReference",
  summary: "Interactive API reference rendered from /openapi.yaml",
  description:
    "An HTML page rendering /openapi.yaml with Swagger UI; its scripts and styles come from /docs/assets on this server, never a CDN.",
  ...implemented,
  security: [],
  responses: { 200: { description: "HTML page", content: { "text/html": text } } },
});

const assetRoute = createRoute({
  method: "get",
  path: "/docs/assets/{file}",
  tags: ["Documentation"],
  operationId: "getApiReferenceAsset",
  summary: "Static asset of the API reference page (served locally, no CDN)",
  description: `One of the files the reference page loads (${ASSET_FILES.map((file) => `\`${file}\``).join(", ")}), cacheable for a day. Any other name is 404 NOT_FOUND.`,
  ...implemented,
  security: [],
  request: {
    params: z.object({
      file: z.string().openapi({ description: "The asset's file name.", enum: ASSET_FILES, example: "swagger-ui.css" }),
    }),
  },
  responses: {
    200: {
      description: "The asset, as the type its extension names",
      headers: {
        "Cache-Control": {
          description: "`public, max-age=86400`: the assets change only with the installed Swagger UI.",
          required: true,
          schema: { type: "string", example: "public, max-age=86400" },
        },
      },
      content: {
        "text/css": text,
        "text/javascript": text,
        "image/png": { schema: { type: "string", contentMediaType: "image/png" } },
      },
    },
    ...errorResponses(404),
  },
});

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Cricket Analytics Service API</title>
  <link rel="icon" href="/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: "/openapi.yaml", dom_id: "#reference", deepLinking: true,
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: "StandaloneLayout" });
  </script>
</body>
</html>`;

const PAGE_POLICY = htmlPolicy(page);

/** /openapi.yaml, and /docs rendering it with Swagger UI shipped in the package (no CDN). */
export function registerDocumentation(app: Router) {
  let yaml: string | undefined;
  app.openapi(yamlRoute, (c) => {
    yaml ??= toYaml(openApiDocument(app));
    return c.body(yaml, 200, { "Content-Type": "application/yaml; charset=utf-8" });
  });
  app.openapi(docsRoute, (c) => c.html(page, 200, { "Content-Security-Policy": PAGE_POLICY }));
  app.openapi(assetRoute, async (c) => {
    const file = c.req.valid("param").file;
    if (!Object.hasOwn(ASSETS, file)) throw notFound("asset");
    const bytes = await readFile(path.join(SWAGGER_UI, file));
    return c.body(bytes, 200, {
      "Content-Type": ASSETS[file as keyof typeof ASSETS],
      "Cache-Control": "public, max-age=86400",
    });
  });
}
