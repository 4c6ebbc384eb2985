import { registerHealth } from "../read-api/health.js";
import type { RouteRegistration } from "./app.js";
import { registerDocumentation } from "./documentation.js";

/** Every operation the service deploys, one registration per route file. */
export const apiRoutes: readonly RouteRegistration[] = [registerHealth, registerDocumentation];
