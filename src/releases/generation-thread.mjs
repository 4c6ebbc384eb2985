// The entry of a release generation's thread (generateInThread, ./generation.ts): a worker starts
// without the parent's loaders, so it registers tsx, as bin/cricket.js does, and then runs
// the TypeScript body.
import { register } from "tsx/esm/api";

register();
await import("./generation-thread.ts");
