// The entry of the embedded databases' thread (servedInWorker, ./embedded.ts): a worker
// starts without the parent's loaders, so it registers tsx, as bin/cricket.js does, and then
// runs the TypeScript body.
import { register } from "tsx/esm/api";

register();
await import("./pglite-worker.ts");
