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

const ASSETS = [
  "swagger-ui.css",
  "swagger-ui-bundle.js",
  "swagger-ui-standalone-preset.js",
  "favicon-32x32.png",
] as const;
const ASSET_TYPES: Record<string, string> = { ".css": "text/css", ".js": "text/javascript", ".png": "image/png" };

const yamlRoute = createRoute({
  method: "get",
  path: "/openapi.yaml",
  tags: ["Documentation"],
  operationId: "getOpenApiDocument",
  summary: "This OpenAPI 3.1 document, as YAML",
  ...implemented,
  responses: { 200: { description: "The contract", content: { "application/yaml": { schema: z.string() } } } },
});

const docsRoute = createRoute({
  method: "get",
  path: "/docs",
  tags: ["Documentation"],
  operationId: "getApiReference",
  summary: "Interactive API reference rendered from /openapi.yaml",
  ...implemented,
  responses: { 200: { description: "HTML page", content: { "text/html": { schema: z.string() } } } },
});

const assetRoute = createRoute({
  method: "get",
  path: "/docs/assets/{file}",
  tags: ["Documentation"],
  operationId: "getApiReferenceAsset",
  summary: "Static asset of the API reference page (served locally, no CDN)",
  ...implemented,
  request: { params: z.object({ file: z.string() }) },
  responses: {
    200: { description: "The asset", content: { "application/octet-stream": { schema: z.string() } } },
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
    if (!(ASSETS as readonly string[]).includes(file)) throw notFound("asset");
    const bytes = await readFile(path.join(SWAGGER_UI, file));
    return c.body(bytes, 200, {
      "Content-Type": ASSET_TYPES[path.extname(file)] ?? "application/octet-stream",
      "Cache-Control": "public, max-age=86400",
    });
  });
}
