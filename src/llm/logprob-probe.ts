import { readTokenLogprobs } from "../logprob/scores";
import { ModelProvider, ProviderCallError } from "./model-provider";

/** What the probe scores: a short sentence any tokenizer cuts into several tokens. */
export const PROBE_TEXT = "The quick brown fox jumps over the lazy dog by the river.";

/** What one probe found: the server scores prompts as the LOGPROB method needs, or why not (and any caveat). */
export type ProbeFinding =
  | { ok: true; tokens: number; alternatives: number; warning: string | null }
  | { ok: false; reason: string };

/**
 * One short scoring call, as the LOGPROB method makes them, checked as every answer is (src/logprob/scores.ts
 * `echoedLogprobsProblem`): a server that does not echo, returns no or empty log-probabilities, clamps, or serves
 * chat only is found before a grid is queued. One call of a dozen tokens and one generated token.
 */
export async function probeLogprobs(
  provider: ModelProvider,
  model: string,
  top: number,
  timeoutSeconds: number,
): Promise<ProbeFinding> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutSeconds * 1000);
  try {
    const result = await provider.complete(
      {
        model,
        messages: [{ role: "user", content: PROBE_TEXT }],
        temperature: 0,
        maxOutputTokens: 1,
        score: { top },
      },
      controller.signal,
    );
    const payload = readTokenLogprobs(result.tokenLogprobs ?? result.text);
    if (!payload || payload.logprobs.length === 0)
      return { ok: false, reason: "the server's answer holds no prompt log-probabilities to score" };
    const warning =
      top > 0 && payload.top === 0
        ? "the server returned no alternatives per position (top_logprobs): Min-K%++ cannot be computed, the other scores can"
        : null;
    return { ok: true, tokens: payload.tokens, alternatives: payload.top, warning };
  } catch (error) {
    if (error instanceof ProviderCallError && error.status === 404)
      return {
        ok: false,
        reason:
          `the completions endpoint answered 404 (${error.message}): this server serves chat only, or not this ` +
          `model ("${model}" must be the name the server serves); the LOGPROB method needs /v1/completions with ` +
          "echo and logprobs",
      };
    return { ok: false, reason: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}
