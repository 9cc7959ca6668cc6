// Budgets, the pure part: what a call can cost at worst, and whether it may start. The database part (holds on
// claimed completions, pausing and resuming runs) is budget-gate.ts.

/** USD per million tokens of one model, as a provider's configuration gives them. */
export interface Price {
  inputPerMillion: number;
  outputPerMillion: number;
  cachedInputPerMillion?: number;
}

/**
 * memicl counts a prompt's tokens with one tokenizer (o200k); a provider's own count can differ a little (another
 * tokenizer, its chat framing). The worst case of a call adds this share and a few tokens to the count, so the
 * hold covers what the provider will bill for the prompt.
 */
export const PROMPT_TOKEN_MARGIN = 0.1;
export const PROMPT_TOKEN_SLACK = 16;

/** The prompt tokens a provider may bill for a prompt memicl counted at `counted`: with the margin and slack. */
export function worstCasePromptTokens(counted: number): number {
  return Math.ceil(counted * (1 + PROMPT_TOKEN_MARGIN)) + PROMPT_TOKEN_SLACK;
}

/**
 * The most one call can cost: every prompt token at the full input price (none cached), with the margin above,
 * and every output token the call allows (`max_tokens`) at the output price.
 */
export function worstCaseCallUsd(price: Price, countedPromptTokens: number, maxOutputTokens: number): number {
  const promptTokens = worstCasePromptTokens(countedPromptTokens);
  return (promptTokens * price.inputPerMillion + maxOutputTokens * price.outputPerMillion) / 1e6;
}

/** Why a budgeted call cannot start here: this process has no price for its model, so its cost has no bound. */
export function unpricedReason(provider: string, model: string): string {
  return (
    `budget: provider "${provider}" has no price for model "${model}" in this process's configuration, so a ` +
    "budgeted call's cost cannot be bounded; add prices to the provider and resume the run"
  );
}

/** One budget as it stands: its limit, what was spent, and the worst case of the calls holding part of it. */
export interface BudgetUse {
  /** "experiment" or "run": whose budget it is. */
  scope: "experiment" | "run";
  limitUsd: number;
  spentUsd: number;
  inFlightUsd: number;
  inFlightCalls: number;
  /**
   * Calls of this budget stored with no more output than their max_tokens (counted up to `KEPT_CALLS_COUNTED`):
   * until a provider has shown it keeps to max_tokens, the budget admits one call more in flight than this.
   */
  keptCalls: number;
}

/**
 * How many kept calls are counted: past this many, a budget admits that many calls in flight and one more, more than
 * any worker pool here runs at once.
 */
export const KEPT_CALLS_COUNTED = 64;

export type BudgetDecision =
  /** The call fits every budget with the calls in flight: it holds its worst case and starts. */
  | { kind: "fits" }
  /** It would fit once the calls in flight are stored (they cost at most their worst case, usually less). */
  | { kind: "wait"; reason: string }
  /** Even with nothing in flight it could take spending above a budget: the budget's runs pause. */
  | { kind: "pause"; scope: "experiment" | "run"; reason: string };

/** A few millionths of a dollar of rounding never stop a call (costs are stored with 6-8 decimals). */
const EPSILON = 1e-9;

/**
 * Whether a call whose worst case is `callUsd` may start under `budgets` (the run's and its experiment's, each
 * optional). A budget pauses when spent + the call could exceed it; it waits when only the calls in flight make
 * it not fit.
 */
export function decideCall(budgets: readonly BudgetUse[], callUsd: number): BudgetDecision {
  for (const budget of budgets) {
    if (budget.spentUsd + callUsd > budget.limitUsd + EPSILON)
      return {
        kind: "pause",
        scope: budget.scope,
        reason:
          `budget: the ${budget.scope}'s budget of ${usd(budget.limitUsd)} is reached: ${usd(budget.spentUsd)} spent, ` +
          `and the next call could cost up to ${usd(callUsd)}; raise the budget (setBudget, memicl budget) to resume`,
      };
  }
  for (const budget of budgets) {
    // Slow start: a call's worst case assumes the provider keeps to max_tokens, which one that ignores it does not
    // (100,000 tokens for max_tokens 100). Until calls are seen to keep to it, a budget admits one call more in
    // flight than it has seen kept: a provider that overruns every call is paused after one overrun, not after as
    // many as the workers had in flight.
    if (budget.inFlightCalls > budget.keptCalls)
      return {
        kind: "wait",
        reason:
          `budget: waiting for ${budget.inFlightCalls} call(s) in flight to be stored: the ${budget.scope}'s ` +
          `budget admits one call more in flight than it has seen keep to max_tokens (${budget.keptCalls} so far), ` +
          "so that a provider that overruns max_tokens is paused after one call",
      };
    if (budget.spentUsd + budget.inFlightUsd + callUsd > budget.limitUsd + EPSILON)
      return {
        kind: "wait",
        reason:
          `budget: waiting for ${budget.inFlightCalls} call(s) in flight (up to ${usd(budget.inFlightUsd)}) to be ` +
          `stored before the next one (up to ${usd(callUsd)}) fits the ${budget.scope}'s ${usd(budget.limitUsd)} ` +
          `(${usd(budget.spentUsd)} spent)`,
      };
  }
  return { kind: "fits" };
}

/** Dollars with enough decimals to tell small amounts apart: $0.0501, $0.25, $12.50, $0.0000042. */
export function usd(value: number): string {
  if (value === 0 || Math.abs(value) >= 1) return `$${value.toFixed(2)}`;
  if (Math.abs(value) < 0.00005) return `$${value.toPrecision(2)}`;
  return `$${value.toFixed(4).replace(/(\.\d\d\d*?)0+$/, "$1")}`;
}

/** The most one call's cost can be stored as (`completion.cost_usd`, numeric(12, 8)). */
export const MAX_CALL_USD = 9999.99999999;

const MAX_COUNT = 2_147_483_647;
const usable = (count: number | null | undefined): count is number =>
  typeof count === "number" && Number.isInteger(count) && count >= 0 && count <= MAX_COUNT;

/** The token counts a provider reported for one call (null: not reported, or not a count that can be stored). */
export interface Usage {
  promptTokens: number | null;
  completionTokens: number | null;
  cachedTokens: number | null;
}

/** What one answered call is charged, and why where it is not simply what the provider reported. */
export interface CallCharge {
  usd: number;
  /** Each part charged at its worst case or capped, in words; empty when the reported usage was charged as is. */
  notes: string[];
  /** The provider reported more output tokens than the call's max_tokens allows (charged as reported). */
  overran: boolean;
}

/**
 * What an answered call costs against a budget. A provider's usage can switch a budget off (no usage, negative
 * counts, cached tokens above the prompt's, counts that cannot be stored): a part it does not report plausibly is
 * charged at its worst case (the prompt's counted tokens with the margin at the full input price; every output
 * token max_tokens allows; a count under half what memicl counts of the text is implausible too), cached tokens
 * above the prompt's count make the prompt's part its worst case, and the
 * charge is never below zero. Output above max_tokens is charged as reported, and `overran` says so. A charge
 * above what one call can store is capped there (far above any budget, so the budget still stops).
 */
export function chargeOf(
  price: Price,
  usage: Usage,
  call: {
    countedPromptTokens: () => number;
    maxOutputTokens: number;
    countedCompletionTokens?: () => number;
  },
): CallCharge {
  const notes: string[] = [];
  // The prompt's part is implausible when missing, when its cached share exceeds it, or when it is less than
  // half what memicl counts (tokenizers differ by far less): then all of it is charged at its worst case.
  const counted = call.countedPromptTokens();
  const worstPrompt = worstCasePromptTokens(counted);
  const cachedReported = usage.cachedTokens ?? 0;
  let prompt = worstPrompt;
  let cached = 0;
  if (!usable(usage.promptTokens))
    notes.push(`no usable prompt_tokens: charged the prompt's ${worstPrompt} counted tokens (with margin)`);
  else if (!usable(cachedReported) || cachedReported > usage.promptTokens)
    notes.push(
      `cached_tokens ${usage.cachedTokens} not within prompt_tokens ${usage.promptTokens}: charged the prompt's ` +
        `${worstPrompt} counted tokens at the full input price`,
    );
  else if (usage.promptTokens < counted / 2)
    notes.push(
      `prompt_tokens ${usage.promptTokens} is less than half the prompt's ${counted} counted tokens: charged ` +
        `${worstPrompt} at the full input price`,
    );
  else {
    prompt = usage.promptTokens;
    cached = cachedReported;
  }
  // The output's part is implausible when missing or less than half what memicl counts of the answer's text.
  let completion = call.maxOutputTokens;
  if (!usable(usage.completionTokens))
    notes.push(`no usable completion_tokens: charged max_tokens (${call.maxOutputTokens})`);
  else if (call.countedCompletionTokens && usage.completionTokens < call.countedCompletionTokens() / 2)
    notes.push(
      `completion_tokens ${usage.completionTokens} is less than half the answer's counted tokens: charged ` +
        `max_tokens (${call.maxOutputTokens})`,
    );
  else completion = usage.completionTokens;
  const overran = usable(usage.completionTokens) && usage.completionTokens > call.maxOutputTokens;
  if (overran)
    notes.push(
      `the provider returned ${usage.completionTokens} output tokens where max_tokens is ${call.maxOutputTokens}`,
    );
  let charged = Math.max(
    0,
    ((prompt - cached) * price.inputPerMillion +
      cached * (price.cachedInputPerMillion ?? price.inputPerMillion) +
      completion * price.outputPerMillion) /
      1e6,
  );
  if (!Number.isFinite(charged) || charged > MAX_CALL_USD) {
    notes.push(`a charge of ${charged} is above what one call can store: capped at ${usd(MAX_CALL_USD)}`);
    charged = MAX_CALL_USD;
  }
  return { usd: charged, notes, overran };
}
