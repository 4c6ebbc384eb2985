#!/usr/bin/env node
// The `cricket` command-line tool; runs the TypeScript sources directly (tsx).
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
