#!/usr/bin/env node
// `npm run bench [append|projection|http ...]`; runs the TypeScript sources directly (tsx).
import { register } from "tsx/esm/api";

register();
await import("../bench/main.ts");
