/**
 * What usage telemetry knows of a keyed request (spec, Limits): the consumer and key ids, the
 * time, the method, the route template and the status class. Never the URL, query string,
 * key or client address, so none of them can reach the usage tables.
 */
export type UsageRecord = {
  consumerId: number;
  keyId: number;
  at: Date;
  /** The request method, any case. */
  method: string;
  /** The path of the route that answered as Hono spells it (`c.req.routePath`), e.g. `/api/v1/fixtures/:fixtureId`. */
  routePath: string;
  /** The response status. */
  status: number;
};

/** `2xx`, `4xx`…: the status class usage is grouped by. */
export const statusClass = (status: number): string => `${Math.floor(status / 100)}xx`;

/**
 * The route template in the OpenAPI document's spelling: Hono's `:name` (with or without a
 * `{regex}` constraint) becomes `{name}`, e.g. `/api/v1/fixtures/{fixtureId}`.
 */
export const routeTemplate = (routePath: string): string => routePath.replace(/:(\w+)(\{[^/]*\})?/g, "{$1}");
