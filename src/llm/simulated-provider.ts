import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { ChatRequest, ChatResult, ModelProvider, ProviderCallError } from "./model-provider";
import { SimulationSettings } from "./provider-config";
import { countChatTokens, countTextTokens } from "./tokenizer";

/** What the simulated model "remembers": the instances of the samples in the database. */
export interface SimulationKnowledge {
  /** The true continuation of an instance under test, found by its initial segment. */
  continuationOf(initialSegment: string): Promise<string | null>;
  /** The label of an instance under test and the labels of its dataset, found by its text. */
  labelOf(text: string): Promise<{ label: string; labels: string[]; initialSegment: string } | null>;
}

export const SIMULATION_VERSION = "memicl-simulation-1";

const UNRELATED = [
  "The committee will meet again next week to discuss the proposal.",
  "Several new species were discovered during the expedition.",
  "Prices rose sharply after the announcement.",
  "The museum is open every day except Monday.",
];

/**
 * A deterministic stand-in for an LLM, for demos and tests. It recognises the instance a prompt asks about
 * and "remembers" it with a probability that rises with the number of demonstrations in the prompt:
 * p(k) = p0 + (pInf - p0) * k / (k + kHalf). A remembered instance is reproduced exactly, or nearly (a
 * share that halves every kHalf demonstrations), and classified right more often. Each instance draws one
 * number u in [0, 1): remembered when u < p(k), so an instance remembered at some k is remembered at every
 * larger k. The same prompt always gets the same answer (like temperature 0). It follows the default
 * templates' layout: demonstrations separated by blank lines, the instance last.
 */
export class SimulatedProvider implements ModelProvider {
  constructor(
    readonly name: string,
    private readonly settings: SimulationSettings,
    private readonly knowledge: SimulationKnowledge,
  ) {}

  /** The share of instances remembered at k demonstrations, and of those, the near-exact share. */
  static rates(settings: SimulationSettings, shots: number): { memorized: number; nearExactShare: number } {
    const rise = shots / (shots + settings.halfRiseShots);
    return {
      memorized:
        settings.memorizedAtZeroShot + (settings.memorizedAtManyShots - settings.memorizedAtZeroShot) * rise,
      nearExactShare: settings.nearExactShare * 0.5 ** (shots / settings.halfRiseShots),
    };
  }

  async complete(request: ChatRequest, signal: AbortSignal): Promise<ChatResult> {
    if (this.settings.latencyMs > 0)
      await sleep(this.settings.latencyMs, undefined, { signal }).catch(() => {});
    if (signal.aborted) throw new ProviderCallError("the request was aborted", null, true);
    const user = request.messages.at(-1)?.content ?? "";
    const blocks = user.split("\n\n");
    const shots = blocks.length - 1;
    const query = blocks.at(-1) ?? "";
    const text = await this.answer(query, shots);
    const words = text.split(/\s+/);
    const limited =
      words.length > request.maxOutputTokens ? words.slice(0, request.maxOutputTokens).join(" ") : text;
    return {
      text: limited,
      finishReason: limited === text ? "stop" : "length",
      promptTokens: countChatTokens(request.messages),
      completionTokens: countTextTokens(limited),
      cachedTokens: 0,
      reportedModel: `simulated:${request.model}`,
      systemFingerprint: SIMULATION_VERSION,
    };
  }

  private draw(...parts: (string | number)[]): number {
    const digest = createHash("sha256")
      .update(JSON.stringify([this.settings.seed, ...parts]))
      .digest();
    return digest.readUInt32BE(0) / 2 ** 32;
  }

  private async answer(query: string, shots: number): Promise<string> {
    const lines = query.split("\n");
    // Field names as both template versions write them ("Sentence 1:" and "SENTENCE 1:").
    const field = (prefix: string) =>
      lines.find((line) => line.toLowerCase().startsWith(prefix.toLowerCase()))?.slice(prefix.length) ?? null;
    const rates = SimulatedProvider.rates(this.settings, shots);

    if (/(Sentence 2|Second piece):\s*$/i.test(query)) {
      const initial = field("Sentence 1: ") ?? field("First piece: ");
      const continuation = initial === null ? null : await this.knowledge.continuationOf(initial);
      if (initial === null || continuation === null) return UNRELATED[0];
      const u = this.draw("memorized", initial);
      if (u >= rates.memorized)
        return UNRELATED[Math.floor(this.draw("unrelated", initial) * UNRELATED.length)];
      if (u < rates.memorized * (1 - rates.nearExactShare)) return continuation;
      return nearlyThe(continuation);
    }

    if (/Label:\s*$/.test(query)) {
      const text = field("Sentence 1: ") ?? field("Text: ");
      const known = text === null ? null : await this.knowledge.labelOf(text);
      if (text === null || known === null) return "I do not know.";
      // The same draw as for its memorization prompt: what the model reproduces, it also classifies better.
      const remembered = this.draw("memorized", known.initialSegment) < rates.memorized;
      const accuracy = remembered ? this.settings.accuracyWhenMemorized : this.settings.accuracyOtherwise;
      if (this.draw("answer", text, shots) < accuracy || known.labels.length < 2) return known.label;
      const others = known.labels.filter((label) => label !== known.label);
      return others[Math.floor(this.draw("wrong", text, shots) * others.length)];
    }
    return "I cannot tell what is asked.";
  }
}

/**
 * A near-exact variant that a lexical judge can still recognise: a long text (10+ words) loses one word in
 * the middle; a shorter one gets its last word repeated.
 */
export function nearlyThe(text: string): string {
  const words = text.trim().split(/\s+/);
  if (words.length >= 10) words.splice(Math.floor(words.length / 2), 1);
  else words.push(words[words.length - 1]);
  return words.join(" ");
}
