import { scrubConfiguredSecrets, scrubSecrets, storableText } from "../common/secrets";
import { ChatMessage } from "../study/chat";

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  temperature: number;
  maxOutputTokens: number;
  /**
   * Score instead of chat (the LOGPROB method): the log-probability of each token of the last message's text,
   * with `top` alternatives per position; the result's `tokenLogprobs` is the stored payload (`TokenLogprobs`).
   */
  score?: { top: number };
  /**
   * Continue the last message's text as it stands (the completions endpoint's `prompt`, no chat template): a
   * sampling method's RAW prompt, for base models.
   */
  raw?: boolean;
  /** Nucleus sampling's top_p (a sampling method's); the provider's default when absent. */
  topP?: number;
}

export interface ChatResult {
  text: string;
  finishReason: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
  cachedTokens: number | null;
  /** The model name as the provider reported it. */
  reportedModel: string | null;
  systemFingerprint: string | null;
  /**
   * A scoring call's per-token values (`TokenLogprobs` JSON, built by memicl from the server's answer, so bounded
   * by the prompt memicl sent): stored whole in their own column, never cut like `text` (a short note then).
   */
  tokenLogprobs?: string | null;
}

/** A failed call, as much as the provider told about it. */
export class ProviderCallError extends Error {
  constructor(
    message: string,
    /** HTTP status, when there was a response. */
    readonly status: number | null,
    /** Whether trying again may help (timeouts, 408/409/429, 5xx, network errors, unreadable answers). */
    readonly retryable: boolean,
    /** What the provider asked us to wait (Retry-After), in milliseconds. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(storableText(scrubSecrets(message)));
  }
}

/**
 * A provider's answer made safe to store, once, before anything writes it (the completion, the response cache,
 * the judge): every text without NUL characters or lone surrogates and without any configured key in any form
 * (an endpoint may echo the key in its answer, its model name or its fingerprint); token counts that are not
 * whole numbers PostgreSQL's `int` holds become unknown (null) rather than failing the write after it was paid.
 */
export function storableResult(result: ChatResult): ChatResult {
  const text = (value: string | null) => scrubConfiguredSecrets(storableText(value));
  return {
    ...result,
    text: capped(text(result.text) ?? ""),
    finishReason: text(result.finishReason),
    reportedModel: text(result.reportedModel)?.slice(0, 200) ?? null,
    systemFingerprint: text(result.systemFingerprint)?.slice(0, 200) ?? null,
    promptTokens: storableCount(result.promptTokens),
    completionTokens: storableCount(result.completionTokens),
    cachedTokens: storableCount(result.cachedTokens),
  };
}

const MAX_INT = 2_147_483_647;

/**
 * The most of an answer memicl stores: a provider that ignores max_tokens can send megabytes (three reads of a
 * page of 50 MB answers took 60 s each and grew the server to 1.6 GB). The rest is cut, and the answer says so.
 */
export const MAX_ANSWER_CHARS = 100_000;

function capped(text: string): string {
  return text.length > MAX_ANSWER_CHARS
    ? `${text.slice(0, MAX_ANSWER_CHARS)} [memicl: cut at ${MAX_ANSWER_CHARS} of ${text.length} characters]`
    : text;
}

function storableCount(value: number | null | undefined): number | null {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= MAX_INT
    ? value
    : null;
}

/** One model API. Implementations make exactly one call per `complete`; retrying is the caller's business. */
export interface ModelProvider {
  readonly name: string;
  complete(request: ChatRequest, signal: AbortSignal): Promise<ChatResult>;
  /** The models the endpoint lists (`GET /models`), where it can say. */
  listModels?(signal: AbortSignal): Promise<string[]>;
}

/** Reads Retry-After (seconds or an HTTP date) and the OpenAI-style retry-after-ms header. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | null {
  if (!headers) return null;
  const milliseconds = headers.get("retry-after-ms");
  if (milliseconds && Number.isFinite(Number(milliseconds))) return Math.max(0, Number(milliseconds));
  const value = headers.get("retry-after");
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** 408, 409, 429 and 5xx may pass on a later try; other 4xx will not. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}
