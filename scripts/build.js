#!/usr/bin/env node
// `npm run build`: compiles the TypeScript (swc, scripts/compile.js -> dist/; types are checked by
// `npm run typecheck`) and the dashboard (Vite, web/ -> dist/web), each only
// when one of its inputs is newer than its last successful build, so that `npm start` and `npm test` on a built
// checkout start at once. `npm run build -- --force` builds both regardless.
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "..");
const force = process.argv.includes("--force");
const STEPS = [
  {
    name: "TypeScript",
    stamp: "dist/.build-typescript",
    inputs: [
      "src",
      "migrations",
      "bench",
      "chaos",
      "test/support",
      "scripts/compile.js",
      "scripts/swc-options.js",
      "package-lock.json",
    ],
    command: [path.join(root, "scripts/compile.js")],
    // A module moved or deleted in src/ must not live on in dist/ (Node would still load `x.js` before `x/`).
    clean: ["dist/src", "dist/migrations", "dist/bench", "dist/chaos", "dist/test"],
  },
  {
    name: "dashboard",
    stamp: "dist/web/.build-dashboard",
    inputs: ["web", "package-lock.json"],
    command: [path.join(root, "node_modules/vite/bin/vite.js"), "build", "--config", "web/vite.config.mts"],
  },
];

/** The newest modification time under `entry` (a file or a folder), in ms. */
function newest(entry) {
  let stat;
  try {
    stat = fs.statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs; // a deleted or renamed file changes its folder's time
  for (const name of fs.readdirSync(entry)) latest = Math.max(latest, newest(path.join(entry, name)));
  return latest;
}

for (const step of STEPS) {
  const stamp = path.join(root, step.stamp);
  const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
  const changed = Math.max(...step.inputs.map((input) => newest(path.join(root, input))));
  if (!force && built > changed) continue;
  for (const output of step.clean ?? []) fs.rmSync(path.join(root, output), { recursive: true, force: true });
  execFileSync(process.execPath, step.command, { cwd: root, stdio: "inherit" });
  fs.mkdirSync(path.dirname(stamp), { recursive: true });
  fs.writeFileSync(stamp, `${new Date().toISOString()}\n`);
}
