import pino, { type Logger } from "pino";
import type { Settings } from "../config.js";

export type { Logger };

/**
 * Structured JSON logs. Request logs are built field by field from what is safe to keep
 * (method, path, status, duration, request id), so credentials in Authorization or
 * X-API-Key can never reach them; the redaction is a second line of defence for errors
 * that carry a request.
 */
export function createLogger(level: Settings["logLevel"], destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: "cricket-analytics-service" },
      redact: {
        paths: ["*.headers.authorization", '*.headers["x-api-key"]', "headers.authorization", 'headers["x-api-key"]'],
        censor: "[redacted]",
      },
    },
    destination,
  );
}
