import { setMaxListeners } from "node:events";
import { DataSource } from "typeorm";
import { BadInputError } from "../common/errors";
import { BatchApi } from "./batch-api";
import { ModelProvider } from "./model-provider";
import type { OpenAiProvider } from "./openai-provider";
import { batchOptionsOf, Price, ProviderConfig } from "./provider-config";
import { SharedRateLimiter } from "./shared-rate-limiter";
import { SimulatedProvider } from "./simulated-provider";
import { databaseKnowledge } from "./simulation-knowledge";

export interface ProviderHandle {
  config: ProviderConfig;
  provider: ModelProvider;
  limiter: SharedRateLimiter;
  /** Its Batch API, when it is configured for batch execution (`batch` in the providers file). */
  batch: BatchApi | null;
}

/** The configured providers, built once per process. Requests name a provider; they never pass URLs or keys. */
export class ProviderRegistry {
  private readonly handles = new Map<string, ProviderHandle>();
  private readonly stopping = new AbortController();
  private readonly waiting = new AbortController();

  constructor(
    private readonly configs: Record<string, ProviderConfig>,
    private readonly dataSource: DataSource,
  ) {
    // Every call in flight listens to it (hundreds at a time): not a leak, so no warning past ten.
    setMaxListeners(Number.POSITIVE_INFINITY, this.stopping.signal, this.waiting.signal);
  }

  /** Aborted by `abortCalls`: the calls of this process's workers pass it on (see `callWithRetries`). */
  get stopSignal(): AbortSignal {
    return this.stopping.signal;
  }

  /** Aborted by `stopWaiting` (and by `abortCalls`): ends waits for a limit or a retry, and starts no attempt. */
  get waitSignal(): AbortSignal {
    return this.waiting.signal;
  }

  /**
   * The process is stopping: calls in flight go on (for their grace period), but no call waits any longer for a
   * rate limit, a shared slot or a retry's backoff, and none starts; their items are given back, not failed.
   */
  stopWaiting(): void {
    this.waiting.abort();
  }

  /** Ends every call in flight through this registry, and every wait between attempts: the process is stopping. */
  abortCalls(): void {
    this.waiting.abort();
    this.stopping.abort();
  }

  names(): string[] {
    return Object.keys(this.configs).sort();
  }

  /** Is a provider of this name configured in this process? */
  has(name: string): boolean {
    return Object.hasOwn(this.configs, name);
  }

  config(name: string): ProviderConfig {
    const config = this.configs[name];
    if (!config)
      throw new BadInputError(`no provider named "${name}" (configured: ${this.names().join(", ")})`, {
        field: "provider",
      });
    return config;
  }

  /** The providers this process can call. */
  usable(): ProviderConfig[] {
    return this.names()
      .map((name) => this.configs[name])
      .filter((config) => config.unusableReason === null);
  }

  all(): ProviderConfig[] {
    return this.names().map((name) => this.configs[name]);
  }

  get(name: string): ProviderHandle {
    const existing = this.handles.get(name);
    if (existing) return existing;
    const config = this.config(name);
    if (config.unusableReason)
      throw new BadInputError(
        `provider "${name}" cannot be called from this process: ${config.unusableReason}`,
        {
          field: "provider",
        },
      );
    const provider =
      config.type === "simulated"
        ? new SimulatedProvider(
            name,
            config.simulation,
            databaseKnowledge(this.dataSource, config.simulation.unseenDatasets),
          )
        : // Loaded with the first such provider: the openai client and undici are about 0.3 s of CPU that a
          // process calling only simulated models (a demo, the tests) or none (a read) does without.
          new (require("./openai-provider") as typeof import("./openai-provider")).OpenAiProvider(config);
    const batch = batchOptionsOf(config) ? (provider as OpenAiProvider) : null;
    const handle = { config, provider, limiter: new SharedRateLimiter(this.dataSource, config), batch };
    this.handles.set(name, handle);
    return handle;
  }
}

/** A model's Batch API prices: the configured ones, else half the online prices (cached input too). */
export function batchPrice(price: Price): Price {
  return {
    inputPerMillion: price.batchInputPerMillion ?? price.inputPerMillion / 2,
    outputPerMillion: price.batchOutputPerMillion ?? price.outputPerMillion / 2,
    cachedInputPerMillion:
      price.cachedInputPerMillion === undefined ? undefined : price.cachedInputPerMillion / 2,
  };
}
