import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadProviders } from "../../../src/llm/provider-config";

/** A providers file in a temporary folder, removed after the test. */
function withFile(content: unknown, use: (file: string) => void) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-providers-"));
  try {
    const file = path.join(dir, "providers.json");
    fs.writeFileSync(file, JSON.stringify(content));
    use(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("the providers file", () => {
  it("refuses an unknown key, naming it, its provider and the closest known name", () => {
    withFile({ providers: { lab: { type: "openai", maxConcurency: 4 } } }, (file) => {
      expect(() => loadProviders(file, {})).toThrow(
        /unknown key "maxConcurency" at providers\.lab of provider "lab" \(did you mean "maxConcurrency"\?\)/,
      );
    });
  });

  it("refuses unknown keys at every depth: a simulation's, a price's, the file's own", () => {
    withFile(
      { providers: { sim: { type: "simulated", simulation: { memorisedAtZeroShot: 0.2 } } } },
      (file) => {
        expect(() => loadProviders(file, {})).toThrow(
          /unknown key "memorisedAtZeroShot".*"memorizedAtZeroShot"/,
        );
      },
    );
    withFile(
      { providers: { lab: { type: "openai", prices: { m: { inputPerMilion: 1, outputPerMillion: 2 } } } } },
      (file) => {
        expect(() => loadProviders(file, {})).toThrow(/unknown key "inputPerMilion".*"inputPerMillion"/);
      },
    );
    withFile({ providers: { sim: { type: "simulated", latencyMs: 20 } } }, (file) => {
      expect(() => loadProviders(file, {})).toThrow(
        /unknown key "latencyMs" at providers\.sim .*\(it belongs in simulation\)/,
      );
    });
    withFile({ providers: {}, provider: {} }, (file) => {
      expect(() => loadProviders(file, {})).toThrow(/unknown key "provider" at the top/);
    });
  });

  it("takes a file with only known keys, and says which key variable is missing", () => {
    withFile({ providers: { lab: { type: "openai", maxConcurrency: 4, apiKeyEnv: "LAB_KEY" } } }, (file) => {
      expect(loadProviders(file, {}).lab.unusableReason).toBe(
        "its API key variable LAB_KEY is not set in this process",
      );
      expect(loadProviders(file, { LAB_KEY: "k" }).lab.unusableReason).toBeNull();
    });
  });
});
