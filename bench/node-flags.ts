import fs from "node:fs";

/**
 * Node's flags for memicl: those the `memicl` command's first line gives node (`#!/usr/bin/env -S node ...`);
 * none when the line names no flag. The benchmarks start memicl with them; a unit test holds `npm start` and the
 * image's entry point to them.
 */
export function nodeFlagsOf(bin: string): string[] {
  const first = fs.readFileSync(bin, "utf8").split("\n", 1)[0];
  const match = /^#!\S*env\s+(?:-S\s+)?node((?:\s+-\S+)*)\s*$/.exec(first);
  return match ? match[1].split(/\s+/).filter(Boolean) : [];
}
