// A provider's Batch API as memicl uses it (OpenAI's files and batches endpoints; Azure's and other
// OpenAI-compatible hosts' are the same), and the pure parts: request lines, file limits, result lines.

import { ChatRequest, ChatResult, isRetryableStatus } from "./model-provider";

/** The metadata key a batch is tagged with: memicl's own id for it, so a lost submission can be found again. */
export const BATCH_METADATA_KEY = "memicl_batch_id";

/** A batch as the provider reports it. */
export interface ProviderBatchStatus {
  id: string;
  /** validating, failed, in_progress, finalizing, completed, expired, cancelling, cancelled. */
  status: string;
  outputFileId: string | null;
  errorFileId: string | null;
  total: number;
  completed: number;
  failed: number;
  /** Why the batch failed as a whole (validation), when it did. */
  errors: string | null;
  metadata: Record<string, string>;
}

/** Statuses after which the batch does nothing more: what it answered is in its files. */
export const FINAL_BATCH_STATUSES: ReadonlySet<string> = new Set([
  "completed",
  "expired",
  "cancelled",
  "failed",
]);

export interface BatchApi {
  /** Uploads the JSONL file and creates the batch tagged with memicl's id; returns it as created. */
  submit(jsonl: string, memiclBatchId: string, signal?: AbortSignal): Promise<ProviderBatchStatus>;
  /** The batch tagged with memicl's id, if the provider has one (a submission whose answer was lost). */
  find(memiclBatchId: string, signal?: AbortSignal): Promise<ProviderBatchStatus | null>;
  retrieve(providerBatchId: string, signal?: AbortSignal): Promise<ProviderBatchStatus>;
  cancel(providerBatchId: string, signal?: AbortSignal): Promise<ProviderBatchStatus>;
  fileText(fileId: string, signal?: AbortSignal): Promise<string>;
}

/** One request line of an input file: the completion's id as custom_id, the same body an online call sends. */
export function requestLine(completionId: string, request: ChatRequest): string {
  return JSON.stringify({
    custom_id: completionId,
    method: "POST",
    url: "/v1/chat/completions",
    body: {
      model: request.model,
      messages: request.messages,
      temperature: request.temperature,
      max_tokens: request.maxOutputTokens,
    },
  });
}

/**
 * How many of `lines` (in order) one file takes within the provider's limits: at most `maxRequests` lines and
 * `maxBytes` bytes (each line and its newline). At least one, so a single line over the byte limit is still
 * sent (and the provider says why it refuses it).
 */
export function linesThatFit(lines: readonly string[], maxRequests: number, maxBytes: number): number {
  let bytes = 0;
  let count = 0;
  for (const line of lines) {
    if (count >= maxRequests) break;
    const size = Buffer.byteLength(line) + 1;
    if (count > 0 && bytes + size > maxBytes) break;
    bytes += size;
    count += 1;
  }
  return count;
}

/** What one line of a batch's output or error file says about one request. */
export type BatchItemOutcome =
  | { customId: string; kind: "answer"; result: ChatResult }
  | { customId: string; kind: "error"; message: string; retryable: boolean };

/** Reads an output or error file (JSONL): one outcome per readable line; unreadable lines are skipped. */
export function parseResultLines(text: string): BatchItemOutcome[] {
  const outcomes: BatchItemOutcome[] = [];
  for (const raw of text.split("\n")) {
    if (raw.trim() === "") continue;
    let line: {
      custom_id?: unknown;
      response?: { status_code?: number; body?: unknown } | null;
      error?: { code?: string; message?: string } | null;
    };
    try {
      line = JSON.parse(raw);
    } catch {
      continue;
    }
    if (typeof line.custom_id !== "string") continue;
    const customId = line.custom_id;
    const status = line.response?.status_code ?? null;
    if (status === 200 && !line.error) {
      const result = chatResultOf(line.response?.body);
      outcomes.push(
        result
          ? { customId, kind: "answer", result }
          : {
              customId,
              kind: "error",
              message: "the batch's answer has no message content",
              retryable: true,
            },
      );
      continue;
    }
    const detail =
      line.error?.message ??
      (line.response?.body as { error?: { message?: string } } | undefined)?.error?.message ??
      "no detail";
    const code = line.error?.code ? `${line.error.code}: ` : "";
    outcomes.push({
      customId,
      kind: "error",
      message: `batch: ${status === null ? "" : `HTTP ${status}: `}${code}${detail}`.slice(0, 1000),
      // An expired request, a server error or a rate limit may pass another time; a 4xx other than those will not.
      retryable: status === null || isRetryableStatus(status),
    });
  }
  return outcomes;
}

/** A chat completion's body as memicl stores it; null when it has no message content. */
export function chatResultOf(body: unknown): ChatResult | null {
  const response = body as {
    choices?: { message?: { content?: unknown }; finish_reason?: string | null }[];
    usage?: {
      prompt_tokens?: number;
      completion_tokens?: number;
      prompt_tokens_details?: { cached_tokens?: number };
    };
    model?: string;
    system_fingerprint?: string | null;
  } | null;
  const choice = response?.choices?.[0];
  if (!choice || typeof choice.message?.content !== "string") return null;
  return {
    text: choice.message.content,
    finishReason: choice.finish_reason ?? null,
    promptTokens: response?.usage?.prompt_tokens ?? null,
    completionTokens: response?.usage?.completion_tokens ?? null,
    cachedTokens: response?.usage?.prompt_tokens_details?.cached_tokens ?? null,
    reportedModel: response?.model ?? null,
    systemFingerprint: response?.system_fingerprint ?? null,
  };
}
