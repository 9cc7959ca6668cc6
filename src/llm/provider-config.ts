import fs from "node:fs";
import { distance } from "fastest-levenshtein";
import { z } from "zod";
import { registerSecret } from "../common/secrets";

const price = z.strictObject({
  inputPerMillion: z.number().nonnegative(),
  outputPerMillion: z.number().nonnegative(),
  cachedInputPerMillion: z.number().nonnegative().optional(),
  /** Batch API prices; half the online ones when absent (OpenAI's and Azure's batch discount). */
  batchInputPerMillion: z.number().nonnegative().optional(),
  batchOutputPerMillion: z.number().nonnegative().optional(),
});

export type Price = z.infer<typeof price>;

/**
 * Batch execution through the provider's Batch API (files and batches endpoints): `true` for the defaults, or
 * the limits of the provider's files and how memicl polls and falls back.
 */
const batchOptions = z.strictObject({
  /** Requests per input file (OpenAI: 50,000). */
  maxRequestsPerFile: z.number().int().min(1).max(50_000).default(50_000),
  /** Bytes per input file (OpenAI: 200 MB). */
  maxBytesPerFile: z
    .number()
    .int()
    .min(1024)
    .max(200 * 1024 * 1024)
    .default(200 * 1024 * 1024),
  /** The first poll after submitting, in seconds; each later one waits 1.5 times longer, up to `pollMaxSeconds`. */
  pollMinSeconds: z.number().positive().max(3600).default(5),
  pollMaxSeconds: z.number().positive().max(3600).default(60),
  /** Batches an item may go through (expired or failed ones are resubmitted) before it is called online. */
  attempts: z.number().int().min(1).max(10).default(2),
  /** What happens to an item after its last batch attempt: called online, or failed. */
  fallback: z.enum(["online", "fail"]).default("online"),
  /**
   * Prompt tokens the provider lets a model have in unfinished batches at once (OpenAI's batch queue limit), shared
   * by every run's batches of this provider: a new batch takes only what fits, the rest waits. None when absent.
   */
  maxEnqueuedTokens: z.number().int().positive().nullable().default(null),
});
export type BatchOptions = z.infer<typeof batchOptions>;

const batch = z
  .union([z.boolean(), batchOptions.partial()])
  .default(false)
  .transform((value) => (value === false ? null : batchOptions.parse(value === true ? {} : value)));

const limits = {
  /** Calls in flight at once: in each process (`process`, the default), or across every process on the database. */
  maxConcurrency: z.number().int().min(1).max(1000).default(8),
  /**
   * `database`: `maxConcurrency` holds across every memicl process on the database (a leased slot per call: two
   * statements a call); `process`: each process makes up to `maxConcurrency` calls at once.
   */
  maxConcurrencyScope: z.enum(["process", "database"]).default("process"),
  requestsPerMinute: z.number().positive().nullable().default(null),
  tokensPerMinute: z.number().positive().nullable().default(null),
  timeoutSeconds: z.number().positive().max(3600).default(60),
  /** Calls per item, first one included, before the item fails. */
  maxAttempts: z.number().int().min(1).max(20).default(6),
  /** Items failing for good in a row before the run fails. */
  circuitBreakerFailures: z.number().int().min(1).default(10),
  /** USD per million tokens, by model name. */
  prices: z.record(z.string(), price).default({}),
};

const simulation = z.strictObject({
  /** Share of instances reproduced (exactly or nearly) with no demonstrations. */
  memorizedAtZeroShot: z.number().min(0).max(1).default(0.15),
  /** Share reproduced as the number of same-dataset demonstrations grows without bound. */
  memorizedAtManyShots: z.number().min(0).max(1).default(0.6),
  /** Demonstrations at which half of the rise has happened. */
  halfRiseShots: z.number().positive().default(25),
  /** Share of reproductions that are near-exact rather than exact, at zero shots; it halves every `halfRiseShots`. */
  nearExactShare: z.number().min(0).max(1).default(0.5),
  /** Accuracy on instances it reproduces, and on the others. */
  accuracyWhenMemorized: z.number().min(0).max(1).default(0.9),
  accuracyOtherwise: z.number().min(0).max(1).default(0.5),
  /**
   * Added to the memorized share in each memorization setting (clamped to [0, 1]), so a test can configure a
   * setting effect and recover it; 0 for every setting by default.
   */
  settingShift: z
    .object({
      FULL_INFORMATION: z.number().min(-1).max(1).default(0),
      SEGMENT_PAIRS_AND_LABELS: z.number().min(-1).max(1).default(0),
      ONLY_SEGMENT_PAIRS: z.number().min(-1).max(1).default(0),
      GENERAL_INSTRUCTION: z.number().min(-1).max(1).default(0),
    })
    .default({
      FULL_INFORMATION: 0,
      SEGMENT_PAIRS_AND_LABELS: 0,
      ONLY_SEGMENT_PAIRS: 0,
      GENERAL_INSTRUCTION: 0,
    }),
  /**
   * What the model does with a memorization prompt: `recall` (the rates above), or answer without any memory, as
   * the study's controls assume: `copy-input` repeats the instance's initial segment (sentence 1, or the first
   * piece), `constant` always gives `constantAnswer`, `copy-demonstration` gives the continuation of the shown
   * demonstration whose initial segment shares most words with the instance's, and `guess` the commonest
   * continuation of the shown demonstrations whose initial segment ends in the instance's last two words (else of
   * all shown ones; `constantAnswer` with none). Performance prompts are answered at `accuracyOtherwise`.
   */
  behaviour: z.enum(["recall", "copy-input", "constant", "copy-demonstration", "guess"]).default("recall"),
  constantAnswer: z.string().max(1000).default("?"),
  /** Datasets (by name) the model was never trained on, as a control dataset is: it remembers nothing of them. */
  unseenDatasets: z.array(z.string().max(200)).max(100).default([]),
  /**
   * The Data Contamination Quiz: the share of instances the model recognises among their perturbations (it then
   * picks the original); otherwise it answers by its positional bias, `quizBias` (weights of A-E, normalised).
   */
  quizContamination: z.number().min(0).max(1).default(0.3),
  quizBias: z
    .object({
      A: z.number().min(0).default(0.06),
      B: z.number().min(0).default(0.04),
      C: z.number().min(0).default(0.04),
      D: z.number().min(0).default(0.04),
      E: z.number().min(0).default(0.82),
    })
    .default({ A: 0.06, B: 0.04, C: 0.04, D: 0.04, E: 0.82 }),
  /** Share of option generations whose last option is the original itself (the defect of the released files). */
  optionDefectRate: z.number().min(0).max(1).default(0),
  /**
   * The LOGPROB method: each token's log-probability is drawn around `memberLogprob` for an instance of a dataset
   * it saw and around `nonMemberLogprob` for one of `unseenDatasets` (normal, `logprobSpread` wide), so a test can
   * configure a membership effect and recover it.
   */
  memberLogprob: z.number().max(0).default(-1.5),
  nonMemberLogprob: z.number().max(0).default(-1.5),
  logprobSpread: z.number().positive().default(1),
  /**
   * CoDeC: with another instance before it, each of an instance's tokens moves by `contextGain` (by
   * `memberContextGain` for an instance of a dataset it saw), plus noise `contextSpread` wide; equal by default, so
   * the model has no CoDeC effect unless a test configures one.
   */
  contextGain: z.number().default(0.3),
  memberContextGain: z.number().default(0.3),
  contextSpread: z.number().min(0).default(0.5),
  /**
   * Sampling methods (CDD): the share of a remembered instance's samples above temperature 0 that still give its
   * continuation; the others, and every sample of an instance it does not remember, are fluent unrelated text.
   */
  sampleFidelity: z.number().min(0).max(1).default(0.9),
  seed: z.number().int().default(1),
  /** Milliseconds each answer takes. */
  latencyMs: z.number().min(0).default(0),
});

const providerEntry = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("openai"),
    /** Any OpenAI-compatible endpoint (vLLM, Ollama, llama.cpp, LM Studio, ...); OpenAI's own when absent. */
    baseUrl: z.string().url().optional(),
    /** Name of the environment variable holding the key; keys never live in files, the database or the API. */
    apiKeyEnv: z.string().optional(),
    ...limits,
    batch,
    /**
     * The server returns the log-probabilities of a prompt's tokens (the completions endpoint with `echo` and
     * `logprobs`, as vLLM and other OpenAI-compatible servers serve it): the LOGPROB method needs it. `top`: the
     * alternatives asked for at each position (Min-K%++ reads them).
     */
    promptLogprobs: z.strictObject({ top: z.number().int().min(0).max(20).default(5) }).optional(),
    /**
     * The server also serves the completions endpoint for a raw prompt (vLLM and others; OpenAI only for its
     * instruct and base models): what a sampling method's RAW prompt needs. `promptLogprobs` implies it.
     */
    completions: z.boolean().optional(),
  }),
  z.strictObject({
    type: z.literal("azure"),
    endpoint: z.string().url(),
    apiVersion: z.string(),
    apiKeyEnv: z.string(),
    ...limits,
    batch,
  }),
  z.strictObject({
    type: z.literal("simulated"),
    ...limits,
    simulation: simulation.default(simulation.parse({})),
  }),
]);

const providersFile = z.strictObject({
  providers: z.record(z.string().regex(/^[\w.-]{1,100}$/), providerEntry),
});

export type ProviderEntry = z.infer<typeof providerEntry>;

/** Every key a providers file may hold, with where it belongs: what an unknown key is compared with. */
const KNOWN_KEYS = new Map<string, string>([
  ...[...Object.keys(price.shape)].map((key) => [key, "a model's price (prices.<model>)"] as const),
  ...[...Object.keys(batchOptions.shape)].map((key) => [key, "batch"] as const),
  ...["FULL_INFORMATION", "SEGMENT_PAIRS_AND_LABELS", "ONLY_SEGMENT_PAIRS", "GENERAL_INSTRUCTION"].map(
    (key) => [key, "simulation.settingShift"] as const,
  ),
  ...[...Object.keys(simulation.shape)].map((key) => [key, "simulation"] as const),
  ...[
    "type",
    "baseUrl",
    "apiKeyEnv",
    "endpoint",
    "apiVersion",
    "batch",
    "simulation",
    "promptLogprobs",
    "completions",
    ...Object.keys(limits),
  ].map((key) => [key, "a provider"] as const),
  ["providers", "the file's top"],
]);

/** What to say of an unknown key: where it belongs when it is known elsewhere, else the nearest known name. */
function hintFor(key: string): string {
  const place = KNOWN_KEYS.get(key);
  if (place) return ` (it belongs in ${place})`;
  const near = closest(key, [...KNOWN_KEYS.keys()]);
  return near ? ` (did you mean "${near}"?)` : "";
}

/** The known name closest to `key` by edit distance, when it is close enough to be a typo of it. */
function closest(key: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of known) {
    const d = distance(key.toLowerCase(), name.toLowerCase());
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best !== null && bestDistance <= Math.max(2, Math.floor(key.length / 3)) ? best : null;
}

/**
 * Why a provider cannot score texts for the LOGPROB method, or null when it can: an OpenAI-compatible provider
 * that declares `promptLogprobs`, or the simulated one.
 */
export function logprobRefusal(
  provider: ProviderEntry | null,
  name: string,
  method: "LOGPROB" | "CODEC" = "LOGPROB",
): string | null {
  if (!provider)
    return `provider "${name}" is not configured in this process, so whether it returns prompt log-probabilities cannot be checked`;
  if (provider.type === "simulated" || (provider.type === "openai" && provider.promptLogprobs)) return null;
  return provider.type === "azure"
    ? `provider "${name}" (Azure OpenAI) does not return the log-probabilities of a prompt's tokens: the ${method} method needs an OpenAI-compatible completions endpoint with echo and logprobs (vLLM and others serve it)`
    : `provider "${name}" does not declare promptLogprobs: the ${method} method needs the completions endpoint with echo and logprobs (vLLM and others serve it; OpenAI's own models do not); add "promptLogprobs": { "top": 5 } to the provider in the providers file if its server returns them`;
}

/**
 * Why a provider cannot continue a raw prompt (a sampling method's RAW prompt: the completions endpoint, no chat
 * template), or null when it can: an OpenAI-compatible provider that declares `completions` or `promptLogprobs`,
 * or the simulated one.
 */
export function rawPromptRefusal(provider: ProviderEntry | null, name: string): string | null {
  if (!provider)
    return `provider "${name}" is not configured in this process, so whether it serves raw prompts cannot be checked`;
  if (
    provider.type === "simulated" ||
    (provider.type === "openai" && (provider.completions || provider.promptLogprobs))
  )
    return null;
  return provider.type === "azure"
    ? `provider "${name}" (Azure OpenAI) serves chat only: a RAW prompt needs an OpenAI-compatible completions endpoint; use cdd: { prompt: GUIDED }`
    : `provider "${name}" does not declare completions: a RAW prompt needs the completions endpoint (base models served by vLLM and others); add "completions": true to the provider in the providers file if its server serves it, or use cdd: { prompt: GUIDED }`;
}

/** A provider's Batch API options, or null when it has none (the simulated provider never has). */
export function batchOptionsOf(provider: ProviderEntry | null): BatchOptions | null {
  return provider && provider.type !== "simulated" ? provider.batch : null;
}
export type SimulationSettings = z.infer<typeof simulation>;

/**
 * A provider as the server knows it: settings plus the key read from the environment (kept in memory only),
 * or why this process cannot call it (its key is not set here). One unusable provider never stops the process.
 */
export type ProviderConfig = ProviderEntry & {
  name: string;
  apiKey: string | null;
  unusableReason: string | null;
};

/** The simulated provider is always there, so an offline study works out of the box. */
export const BUILT_IN_PROVIDERS: Record<string, ProviderEntry> = {
  simulated: providerEntry.parse({ type: "simulated", maxConcurrency: 32 }),
};

/**
 * Reads the providers file (JSON: `{ "providers": { "<name>": { "type": "openai", ... } } }`) and resolves
 * each provider's key from the environment variable it names. Throws with the file and the problem.
 */
export function loadProviders(
  file: string | undefined,
  env: NodeJS.ProcessEnv,
): Record<string, ProviderConfig> {
  const entries: Record<string, ProviderEntry> = { ...BUILT_IN_PROVIDERS };
  if (file) {
    let raw: unknown;
    try {
      raw = JSON.parse(fs.readFileSync(file, "utf8"));
    } catch (error) {
      throw new Error(`MEMICL_PROVIDERS_FILE=${file}: ${(error as Error).message}`);
    }
    const parsed = providersFile.safeParse(raw);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => {
        const where = issue.path.join(".");
        if (issue.code !== "unrecognized_keys") return `${where}: ${issue.message}`;
        // A typo (maxConcurency) would otherwise be a setting silently left at its default.
        const provider = issue.path[1] === undefined ? "" : ` of provider "${String(issue.path[1])}"`;
        return issue.keys
          .map((key) => `unknown key "${key}" at ${where || "the top"}${provider}${hintFor(key)}`)
          .join("; ");
      });
      throw new Error(`MEMICL_PROVIDERS_FILE=${file}: ${problems.join("; ")}`);
    }
    Object.assign(entries, parsed.data.providers);
  }
  const providers: Record<string, ProviderConfig> = {};
  for (const [name, entry] of Object.entries(entries)) {
    const keyName = "apiKeyEnv" in entry ? entry.apiKeyEnv : undefined;
    const key = keyName ? env[keyName] || null : null;
    registerSecret(key);
    providers[name] = {
      ...entry,
      name,
      apiKey: key,
      unusableReason: keyName && !key ? `its API key variable ${keyName} is not set in this process` : null,
    };
  }
  return providers;
}
