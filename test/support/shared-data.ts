import fs from "node:fs";
import path from "node:path";

/** The shared real datasets, when this checkout sits next to them (`../shared/data`). */
export const SHARED_DATA = path.resolve(__dirname, "../../../shared/data");
export const HAS_SHARED_DATA = fs.existsSync(path.join(SHARED_DATA, "datasets"));

/** `describe` when the shared data is present, otherwise a skipped block that says why. */
export function describeWithSharedData(name: string, body: () => void) {
  if (HAS_SHARED_DATA) {
    describe(name, body);
  } else {
    describe.skip(`${name} (skipped: ${SHARED_DATA} is absent)`, body);
    console.warn(`skipping "${name}": shared data folder ${SHARED_DATA} not found`);
  }
}

export const sharedFile = (...parts: string[]) => path.join(SHARED_DATA, ...parts);
