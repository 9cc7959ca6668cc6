#!/usr/bin/env node
// Fails when a locked dependency declares a Node range that does not include the project's own
// (`engines.node` in package.json): the range we promise users must be true for everything we ship.
const fs = require("node:fs");
const path = require("node:path");
const semver = require("semver");

const root = path.join(__dirname, "..");
const project = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const lock = JSON.parse(fs.readFileSync(path.join(root, "package-lock.json"), "utf8"));
const ours = project.engines?.node;
if (!ours) {
  console.error("package.json declares no engines.node");
  process.exit(1);
}
const problems = [];
for (const [location, entry] of Object.entries(lock.packages ?? {})) {
  if (!location) continue;
  const theirs = typeof entry.engines === "object" ? entry.engines?.node : undefined;
  if (!theirs) continue;
  if (!semver.subset(ours, theirs, { includePrerelease: true }))
    problems.push(`${location.replace(/^.*node_modules\//, "")}@${entry.version} declares node ${theirs}`);
}
if (problems.length > 0) {
  console.error(
    `dependencies whose Node range excludes the project's (${ours}):\n  ${problems.join("\n  ")}`,
  );
  process.exit(1);
}
console.log(`every locked dependency accepts node ${ours}`);
