// `npm test` runs this first (the `pretest` script): the web UI's browser tests drive Debian's
// Chromium (playwright-core never downloads a browser). Present: nothing to do. Missing, on a
// Debian machine where we may install packages: install it. Otherwise: say how, and fail.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

const CHROMIUM = "/usr/bin/chromium";
if (!existsSync(CHROMIUM)) {
  const root = process.getuid?.() === 0;
  if (!root || !existsSync("/usr/bin/apt-get")) {
    // The other suites need no browser: let them run; the browser suite fails saying the same.
    console.warn(`The browser tests need Debian's chromium at ${CHROMIUM}: sudo apt-get install chromium`);
    process.exit(0);
  }
  console.log("Installing Debian's chromium for the browser tests (once)…");
  const apt = (...args) =>
    execFileSync("apt-get", args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  try {
    apt("install", "-y", "-qq", "chromium");
  } catch {
    apt("update", "-qq");
    apt("install", "-y", "-qq", "chromium");
  }
}
