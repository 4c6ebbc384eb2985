import type { z } from "zod";
import type { EventDefinition } from "./catalogue.js";

/** The data type of an event definition: `EventData<typeof DeliveryRecorded>`. */
export type EventData<D extends EventDefinition> = z.infer<D["schema"]>;
