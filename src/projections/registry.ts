import { accounts } from "./accounts.js";
import { batches } from "./batches.js";
import { consumers } from "./consumers.js";
import { deliveries } from "./deliveries.js";
import { deliveryHistory } from "./delivery-history.js";
import { fixtures } from "./fixtures.js";
import type { Projector } from "./projector.js";
import { referenceData } from "./reference-data.js";
import { releases } from "./releases.js";
import { statistics } from "./statistics.js";
import { streamVersions } from "./stream-versions.js";

/** Every projector the service runs, in the order status lists them. */
export const projectors: readonly Projector[] = [
  streamVersions,
  referenceData,
  fixtures,
  deliveries,
  deliveryHistory,
  statistics,
  accounts,
  consumers,
  batches,
  releases,
];
