import {
  createServer,
  type OutgoingHttpHeaders,
  type Server,
  type ServerOptions,
  ServerResponse,
  STATUS_CODES,
} from "node:http";
import type { Duplex } from "node:stream";
import { getRequestListener, type HttpBindings, RequestError } from "@hono/node-server";
import type { MiddlewareHandler } from "hono";
import type { Router } from "./api.js";
import { ApiError, type ErrorCode } from "./errors.js";
import type { Logger } from "./logging.js";

/*
 * Where the app meets Node's HTTP server. Node and the Hono adapter answer some requests
 * before the app sees them (headers too large, a request that does not parse, a missing
 * Host header); those answers are given the error envelope here too, and the adapter's
 * defaults that do not fit an HTTP API (a type on answers without content, dot segments
 * resolved into another path) are undone.
 */

/**
 * The server `npm start` listens with (and the tests that need a real socket): `app` behind
 * the Hono adapter, with every answer Node or the adapter gives on their own in the envelope.
 * A request without a Host header is the adapter's to refuse (400 MALFORMED_REQUEST), so
 * Node's own empty 400 is turned off.
 */
export function createHttpServer(app: Router, logger: Logger, options: ServerOptions = {}): Server {
  const listener = getRequestListener(app.fetch, { errorHandler: adapterRefusal(logger) });
  const server = createServer({ ...options, requireHostHeader: false, ServerResponse: ContentlessAnswers }, listener);
  server.on("clientError", answerClientError(logger));
  return server;
}

/**
 * The adapter gives every answer a Content-Type, `text/plain` when the app set none; an
 * answer without content (204, 304) must not claim a type for content it does not have.
 */
class ContentlessAnswers extends ServerResponse {
  override writeHead(statusCode: number, ...rest: unknown[]): this {
    const headers = rest.at(-1);
    if ((statusCode === 204 || statusCode === 304) && typeof headers === "object" && headers !== null)
      for (const name of Object.keys(headers))
        if (name.toLowerCase() === "content-type") delete (headers as OutgoingHttpHeaders)[name];
    return super.writeHead(statusCode, ...(rest as [OutgoingHttpHeaders]));
  }
}

/** The adapter could not build a request (no Host, a backslash in the path, an invalid URL): 400 in the envelope. */
const adapterRefusal =
  (logger: Logger) =>
  (error: unknown): Response => {
    if (error instanceof RequestError) {
      logger.info({ reason: error.message }, "malformed request");
      return envelope(new ApiError("MALFORMED_REQUEST", `The request is malformed: ${error.message}`));
    }
    logger.error({ err: error }, "unhandled error");
    return envelope(new ApiError("INTERNAL_SERVER_ERROR", "An unexpected error occurred"));
  };

const envelope = (error: ApiError) =>
  new Response(JSON.stringify(error.toBody()), {
    status: error.status,
    headers: { "Content-Type": "application/json" },
  });

/** Node's own refusals (lib/_http_server.js, `socketOnError`), each as the envelope says it. */
const CLIENT_ERRORS: Record<string, [ErrorCode, string]> = {
  HPE_HEADER_OVERFLOW: ["REQUEST_HEADERS_TOO_LARGE", "The request's headers are over 16 KB"],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: ["PAYLOAD_TOO_LARGE", "The request's chunk extensions are too large"],
  ERR_HTTP_REQUEST_TIMEOUT: ["REQUEST_TIMEOUT", "The request did not arrive in time"],
};
const NOT_HTTP: [ErrorCode, string] = ["MALFORMED_REQUEST", "The request is not valid HTTP/1.1"];

/**
 * Node reports a request it refuses before the app sees it (headers over 16 KB, bytes that
 * do not parse as HTTP, a timeout) as `clientError` and, without a listener, answers with an
 * empty body. This answers in the envelope and closes the connection, as Node does, only
 * when nothing else is being answered on it. Logged by error code only: the raw bytes hold
 * headers, credentials among them.
 */
const answerClientError = (logger: Logger) => (error: NodeJS.ErrnoException, socket: Duplex) => {
  const [code, message] = CLIENT_ERRORS[error.code ?? ""] ?? NOT_HTTP;
  logger.info({ error: error.code, code }, "client error");
  if (!socket.writable || answerUnderWay(socket)) return socket.destroy();
  const refusal = new ApiError(code, message);
  const body = JSON.stringify(refusal.toBody());
  socket.end(
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ""}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
};

/** As Node checks: an answer may be written unless one already under way has sent its headers. */
const answerUnderWay = (socket: Duplex) =>
  (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage?.headersSent === true;

/**
 * The Node adapter resolves dot segments when it builds the request's URL (`%2e%2e` too), so
 * `/participants/%2e%2e/fixtures` would be served as `/fixtures`. The target as received
 * (the adapter's `incoming.url`) is checked instead: a path with a `.` or `..` segment,
 * encoded or not, is refused as malformed rather than resolved to another resource.
 */
export const refuseDotSegments: MiddlewareHandler = async (c, next) => {
  const target = (c.env as Partial<HttpBindings> | undefined)?.incoming?.url;
  if (target !== undefined && DOT_SEGMENT.test(pathOf(target)))
    throw new ApiError(
      "MALFORMED_REQUEST",
      "The path holds a dot segment (`.` or `..`, encoded or not); send the path it stands for",
    );
  await next();
};

const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;
/** The path of a request target, in origin form (`/a/b?q`) or absolute form (`http://host/a/b?q`). */
const pathOf = (target: string) => target.replace(/^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i, "").split(/[?#]/, 1)[0] ?? "";
