import { stringify } from "yaml";
import type { Router } from "./api.js";
import { withSharedAnswers } from "./shared-answers.js";

/** The contract's own revision; independent of the /api/v1 URL major version. */
export const CONTRACT_VERSION = "1.0.0";

const description = `Ball-by-ball cricket data, published read-only, and statistics derived from it.

Every operation carries \`x-implementation-status: implemented\`: every operation of the
interface specification is deployed.

Errors use one envelope: \`{"error": {"code", "message", "details?"}}\`; \`code\` is one of the
\`Error\` schema's enum. Every operation lists every status it can answer with and the headers
each answer carries. A few answers belong to no operation, in the same envelope and with
\`X-Request-Id\` (and \`API-Version\` under /api/v1): 404 \`NOT_FOUND\` for a path no operation
has (\`UNSUPPORTED_API_VERSION\` under an /api/vN other than v1); 405 \`METHOD_NOT_ALLOWED\`, with
\`Allow\` listing the path's methods, for a method the path does not take (its access checks
answer first, as they do for its operations: 401, 403 or 429 with the headers they set; so
do those of a path below an operation's, such as \`/api/v1/admin/users/{userId}/role/\`).
On any path, before routing: 400 \`MALFORMED_REQUEST\` for a path with a \`.\` or \`..\`
segment (encoded or not), 413 \`PAYLOAD_TOO_LARGE\` for a body over 1 MB, 400
\`INVALID_JSON\` for JSON nested deeper than 64 levels, 503 \`DATABASE_UNAVAILABLE\` under
/api/v1 while the database cannot be reached. Requests the server cannot read are refused
before any operation, without those headers: 431 \`REQUEST_HEADERS_TOO_LARGE\` for headers
over 16 KB, 400 \`MALFORMED_REQUEST\` for bytes that are not HTTP/1.1 or a missing Host, 408
\`REQUEST_TIMEOUT\`.

Every answer also carries the same security headers, not repeated per operation:
\`Content-Security-Policy\` (\`default-src 'none'; frame-ancestors 'none'\`; the documentation
page its own), \`X-Content-Type-Options: nosniff\`, \`X-Frame-Options: DENY\`,
\`Referrer-Policy: no-referrer\`, \`Cross-Origin-Opener-Policy\`, \`Cross-Origin-Resource-Policy\`,
\`Origin-Agent-Cluster\`, \`X-DNS-Prefetch-Control\`, \`X-Download-Options\`,
\`X-Permitted-Cross-Domain-Policies\`, \`X-XSS-Protection: 0\`, and
\`Strict-Transport-Security\` when TLS carried the request. A 413 closes the connection.

Match data: [Cricsheet](https://cricsheet.org/), under the Open Data Commons Attribution License (ODC-By 1.0).
Weather data: [Open-Meteo.com](https://open-meteo.com/), under [CC BY 4.0](https://creativecommons.org/licenses/by/4.0/); the weather answers carry it in \`Link\`.`;

/** The OpenAPI 3.1 document, generated from the same route definitions the server runs. */
export function openApiDocument(app: Router) {
  const document = app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "Cricket Analytics Service API",
      version: CONTRACT_VERSION,
      description,
      license: { name: "MIT", url: "https://opensource.org/license/mit" },
    },
    servers: [{ url: "/", description: "This server" }],
    tags: [
      { name: "Health", description: "Liveness" },
      { name: "Documentation", description: "The contract and its interactive reference" },
      { name: "Public reads", description: "Competitions, seasons, fixtures, events, competitors and participants" },
      { name: "Statistics", description: "Derived fixture statistics, participant aggregates and leaderboards" },
      { name: "Analytics", description: "Structured and natural-language queries" },
      { name: "Weather", description: "Weather context from an external provider" },
      { name: "Venues", description: "Venue corrections; a venue's coordinates follow its name and city" },
      { name: "Account and access", description: "The signed-in user and submitter access" },
      { name: "Submissions", description: "Direct submissions and corrections" },
      { name: "Batches", description: "Staged batch ingestion" },
      { name: "Provenance", description: "Where submissions, delivery revisions and statistics came from" },
      { name: "Dataset releases", description: "Immutable dataset releases" },
      { name: "API consumers", description: "Consumer keys, limits and usage" },
      { name: "Deprecated aliases", description: "Keyed /api/v1/consumer/* mirrors of the canonical reads" },
    ],
  });
  return withSharedAnswers(document);
}

export const toYaml = (document: object) => stringify(document, { aliasDuplicateObjects: false });
