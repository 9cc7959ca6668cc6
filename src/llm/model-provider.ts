import { scrubSecrets, storableText } from "../common/secrets";
import { ChatMessage } from "../template/prompt-rendering";

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  temperature: number;
  maxOutputTokens: number;
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

/** A result PostgreSQL can store as is (no NUL characters in any text). */
export function storableResult(result: ChatResult): ChatResult {
  return {
    ...result,
    text: storableText(result.text),
    finishReason: storableText(result.finishReason),
    reportedModel: storableText(result.reportedModel),
    systemFingerprint: storableText(result.systemFingerprint),
  };
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
