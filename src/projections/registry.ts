import type { Projector } from "./projector.js";
import { streamVersions } from "./stream-versions.js";

/** Every projector the service runs, in the order status lists them. */
export const projectors: readonly Projector[] = [streamVersions];
