import { Config } from "../config/config";
import { callWithRetries, retryPolicyOf } from "../llm/call-with-retries";
import { probeLogprobs } from "../llm/logprob-probe";
import { ModelProvider } from "../llm/model-provider";
import { logprobRefusal } from "../llm/provider-config";
import { openForCommand, openReadOnly } from "./open-database";

/** `memicl providers [--check]`: the configured providers, whether this process and live workers can call them. */
export async function runProviders(
  config: Config,
  options: { check?: boolean | string; model?: string },
): Promise<void> {
  const only = typeof options.check === "string" ? options.check : null;
  // Listing reads (no migration, no client); --check makes calls, with the run services.
  const command = options.check ? await openForCommand(config) : await openReadOnly(config);
  let failures = 0;
  try {
    const out = process.stdout;
    const states = await command.services.workers.providerStates();
    if (only && !states.some((provider) => provider.name === only)) {
      failures += 1;
      out.write(
        `no provider named "${only}" (configured: ${states.map((p) => p.name).join(", ") || "none"})\n`,
      );
    }
    for (const provider of states) {
      if (only && provider.name !== only) continue;
      const here = provider.usableHere ? "usable here" : `NOT usable here: ${provider.unusableReason}`;
      const limit = config.providers[provider.name];
      // Where the limit holds is part of the limit: per process, N workers make N times the calls.
      const scope = limit
        ? limit.maxConcurrencyScope === "database"
          ? `; at most ${limit.maxConcurrency} calls at once across every process`
          : `; at most ${limit.maxConcurrency} calls at once in each process (${Math.max(1, provider.liveWorkers)} live: up to ${limit.maxConcurrency * Math.max(1, provider.liveWorkers)}; maxConcurrencyScope "database" makes it one limit)`
        : "";
      out.write(
        `${provider.name} (${provider.type}): ${here}; live workers that can call it: ${provider.liveWorkers}${scope}\n`,
      );
      if (!options.check || !provider.usableHere) continue;
      const handle = (
        command.services as Awaited<ReturnType<typeof openForCommand>>["services"]
      ).providers.get(provider.name);
      const model = options.model ?? (await checkModelOf(handle.provider, handle.config));
      if (!model) {
        failures += 1;
        out.write(
          "  check: FAILED: no model to check with: none priced in its configuration and the endpoint lists none; pass --model\n",
        );
        continue;
      }
      const outcome = await callWithRetries(
        handle.provider,
        { model, messages: [{ role: "user", content: "Say OK." }], temperature: 0, maxOutputTokens: 5 },
        { ...retryPolicyOf(handle.config), maxAttempts: 1 },
      );
      if (outcome.ok) {
        out.write(
          `  check: ok in ${outcome.latencyMs} ms (model ${outcome.result.reportedModel ?? model} answered ${JSON.stringify(outcome.result.text.slice(0, 40))})\n`,
        );
      } else {
        failures += 1;
        out.write(`  check: FAILED: ${outcome.error.message}\n`);
      }
      // A provider that can score prompts: the probe a LOGPROB start makes, with its finding.
      if (logprobRefusal(handle.config, provider.name) === null) {
        const top = handle.config.type === "openai" ? (handle.config.promptLogprobs?.top ?? 5) : 5;
        const finding = await probeLogprobs(handle.provider, model, top, handle.config.timeoutSeconds);
        if (finding.ok)
          out.write(
            `  logprob probe: ok (${finding.tokens} tokens scored, ${finding.alternatives} alternatives per position)` +
              `${finding.warning ? `; note: ${finding.warning}` : ""}\n`,
          );
        else {
          failures += 1;
          out.write(`  logprob probe: FAILED: ${finding.reason}\n`);
        }
      }
      // A provider configured for batches: does its server answer the Batch API (many compatible servers do not)?
      if (handle.batch) {
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), handle.config.timeoutSeconds * 1000);
        try {
          await handle.batch.find("memicl-providers-check", controller.signal);
          out.write("  batch API: answers (its batches can be listed)\n");
        } catch (error) {
          failures += 1;
          out.write(
            `  batch API: FAILED: ${(error as Error).message}; batch runs give a batch up at the first refusal ` +
              "and send its requests online (or fail them, by the provider's fallback)\n",
          );
        } finally {
          clearTimeout(timer);
        }
      }
    }
  } finally {
    await command.close();
  }
  if (failures > 0) process.exitCode = 1;
}

/**
 * The model `providers --check` calls when none is given: the simulated one; else the first model priced in the
 * provider's configuration; else the first the endpoint lists (vLLM, Ollama and LM Studio list what they serve).
 * A fixed name (gpt-4o-mini) would be refused by any server that does not serve it.
 */
async function checkModelOf(
  provider: ModelProvider,
  config: { type: string; prices: Record<string, unknown>; timeoutSeconds: number },
): Promise<string | null> {
  if (config.type === "simulated") return "simulated";
  const priced = Object.keys(config.prices);
  if (priced.length > 0) return priced[0];
  if (!provider.listModels) return null;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), config.timeoutSeconds * 1000);
  try {
    return (await provider.listModels(controller.signal))[0] ?? null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}
