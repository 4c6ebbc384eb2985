import { createRoute, z } from "@hono/zod-openapi";
import { NAME_MAX_LENGTH } from "../../streams/shared.js";
import { renameVenue } from "../commands/venues/handlers.js";
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
 * right. Its coordinates came from the old ones, so the change clears them; the next
 * fixture weather locates it again (docs/weather.md, "Locating a venue").
 */

const PATH = "/api/v1/admin/venues/{venueId}";

const label = (what: string, example: string) =>
  z.string().trim().min(1).max(NAME_MAX_LENGTH).openapi({ description: what, example });

const changeSchema = z
  .strictObject({
    name: label("The venue's name.", "Wankhede Stadium").optional(),
    city: label("Its city; null for none.", "Mumbai").nullable().optional(),
  })
  .refine((change) => change.name !== undefined || change.city !== undefined, {
    message: "Give name, city or both",
    path: ["body"],
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
  summary: "Correct a venue's name or city",
  description:
    "Sets the venue's `name`, `city` or both (a property left out stays as it is; `city: null` removes it). A change clears the venue's coordinates, which were found for the old name and city; the next fixture weather locates it again. The old name stays another spelling, so searches by it still find the venue. Values equal to the current ones change nothing. Admin only.",
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

export function registerAdminVenues(app: Router, deps: AppDependencies) {
  registerBearerScheme(app);
  app.use("/api/v1/admin/venues/:venueId", requireCaller(deps, { admin: true }));
  app.openapi(route, async (c) => {
    const { venueId } = c.req.valid("param");
    const services = application(deps);
    const context = { ...commandContext(c), actor: callerOf(c).account.accountId };
    const { outcome, venue } = await renameVenue(services.store, { venueId, ...c.req.valid("json") }, context);
    await settled(services, outcome, ["reference_data"]);
    const { venueId: id, name, city, latitude, longitude, otherNames } = venue;
    return c.json({ data: { venueId: id, name, city, latitude, longitude, otherNames } }, 200);
  });
}
