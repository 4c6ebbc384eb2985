import { createRoute, z } from "@hono/zod-openapi";
import { NAME_MAX_LENGTH } from "../../streams/shared.js";
import { changeVenue } from "../commands/venues/handlers.js";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import {
  application,
  bearerSecurity,
  callerOf,
  commandContext,
  registerBearerScheme,
  requireCaller,
  settled,
} from "../http/authentication.js";
import { errorResponses } from "../http/errors.js";
import { pathId } from "../read-api/params.js";
import { venueSchema } from "../read-api/schemas/fixture.js";

/**
 * Venue corrections (admin bearer): a venue's name or city as an administrator puts them
 * right, which clears coordinates found for the old ones (the next fixture weather locates
 * it again), and its coordinates where geocoding cannot find it or found the wrong place
 * (docs/weather.md, "Locating a venue").
 */

const PATH = "/api/v1/admin/venues/{venueId}";

const label = (what: string, example: string) =>
  z.string().trim().min(1).max(NAME_MAX_LENGTH).openapi({ description: what, example });

const degrees = (limit: number, example: number) =>
  z
    .number()
    .min(-limit)
    .max(limit)
    .openapi({ description: `Decimal degrees, -${limit} to ${limit}; with the other coordinate.`, example });

const changeSchema = z
  .strictObject({
    name: label("The venue's name.", "Wankhede Stadium").optional(),
    city: label("Its city; null for none.", "Mumbai").nullable().optional(),
    latitude: degrees(90, 18.9389).optional(),
    longitude: degrees(180, 72.8258).optional(),
  })
  .refine((change) => Object.keys(change).length > 0, { message: "Give name, city or coordinates", path: ["body"] })
  .refine((change) => (change.latitude === undefined) === (change.longitude === undefined), {
    message: "Give latitude and longitude together",
    path: ["longitude"],
  })
  .openapi("VenueChange");

const renamedSchema = venueSchema
  .extend({
    otherNames: z.array(z.string()).openapi({
      description: "Other names it was met or known under, former names included.",
      example: ["Wankhede Stadium, Mumbai"],
    }),
  })
  .openapi("VenueAfterChange");

const route = createRoute({
  method: "patch",
  path: PATH,
  tags: ["Venues"],
  operationId: "changeVenue",
  summary: "Correct a venue's name, city or coordinates",
  description:
    "Sets the venue's `name`, `city` or both (a property left out stays as it is; `city: null` removes it). A change of either clears the venue's coordinates, which were found for the old name and city; the next fixture weather locates it again. The old name stays another spelling of the venue. `latitude` and `longitude` (together) set its coordinates by hand, for a venue geocoding cannot find or placed wrongly; with a new name or city they hold for the new ones. Values equal to the current ones change nothing. Admin only.",
  ...implemented,
  security: bearerSecurity,
  request: {
    params: z.object({ venueId: pathId("venueId", "Venue id.", "wankhede-stadium") }),
    body: { required: true, content: { "application/json": { schema: changeSchema } } },
  },
  responses: {
    200: {
      description: "The venue after the change",
      content: { "application/json": { schema: z.object({ data: renamedSchema }).openapi("VenueResponse") } },
    },
    ...errorResponses(404, 422),
  },
});

/** The body as the command takes it: the two coordinates as one location. */
const changeOf = ({ latitude, longitude, ...labels }: z.infer<typeof changeSchema>) => ({
  ...labels,
  ...(latitude !== undefined && longitude !== undefined ? { location: { latitude, longitude } } : {}),
});

export function registerAdminVenues(app: Router, deps: AppDependencies) {
  registerBearerScheme(app);
  app.use("/api/v1/admin/venues/:venueId", requireCaller(deps, { admin: true }));
  app.openapi(route, async (c) => {
    const { venueId } = c.req.valid("param");
    const services = application(deps);
    const context = { ...commandContext(c), actor: callerOf(c).account.accountId };
    const { outcome, venue } = await changeVenue(
      services.store,
      { venueId, ...changeOf(c.req.valid("json")) },
      context,
    );
    await settled(services, outcome, ["reference_data"]);
    const { sourceIds: _, ...shown } = venue;
    return c.json({ data: shown }, 200);
  });
}
