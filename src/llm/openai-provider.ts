import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, AzureOpenAI, toFile } from "openai";
import { echoedLogprobsProblem, scoredNote, tokenLogprobsOf } from "../logprob/scores";
import { BATCH_METADATA_KEY, BatchApi, chatResultOf, ProviderBatchStatus } from "./batch-api";
import { createHttpFetch } from "./http-fetch";
import {
  ChatRequest,
  ChatResult,
  isRetryableStatus,
  ModelProvider,
  ProviderCallError,
  retryAfterMs,
} from "./model-provider";
import { ProviderConfig } from "./provider-config";

/** Any OpenAI-compatible chat-completions endpoint, through the `openai` package; its Batch API too. */
export class OpenAiProvider implements ModelProvider, BatchApi {
  readonly name: string;
  private readonly client: OpenAI;
  private readonly timeoutSeconds: number;

  constructor(config: Extract<ProviderConfig, { type: "openai" | "azure" }>) {
    this.name = config.name;
    this.timeoutSeconds = config.timeoutSeconds;
    const common = {
      apiKey: config.apiKey ?? "unused",
      timeout: config.timeoutSeconds * 1000,
      // memicl retries itself (honouring Retry-After, counting every attempt on the completion).
      maxRetries: 0,
      fetch: createHttpFetch(),
    };
    this.client =
      config.type === "azure"
        ? new AzureOpenAI({ ...common, endpoint: config.endpoint, apiVersion: config.apiVersion })
        : new OpenAI({ ...common, baseURL: config.baseUrl });
  }

  async listModels(signal: AbortSignal): Promise<string[]> {
    const models: string[] = [];
    for await (const model of this.client.models.list({ signal })) {
      models.push(model.id);
      if (models.length >= 1000) break;
    }
    return models;
  }

  async complete(request: ChatRequest, signal: AbortSignal): Promise<ChatResult> {
    if (request.score) return this.score(request, request.score.top, signal);
    if (request.raw) return this.continueText(request, signal);
    let response: OpenAI.Chat.Completions.ChatCompletion;
    try {
      response = await this.client.chat.completions.create(
        {
          model: request.model,
          messages: request.messages,
          temperature: request.temperature,
          max_tokens: request.maxOutputTokens,
          ...(request.topP !== undefined ? { top_p: request.topP } : {}),
        },
        { signal },
      );
    } catch (error) {
      throw toCallError(error, this.timeoutSeconds);
    }
    const result = chatResultOf(response);
    if (!result) throw new ProviderCallError(notAChatCompletion(response), null, true);
    return result;
  }

  /** A raw prompt (a sampling method's RAW prompt): the completions endpoint continues the text as it stands. */
  private async continueText(request: ChatRequest, signal: AbortSignal): Promise<ChatResult> {
    let response: OpenAI.Completions.Completion;
    try {
      response = await this.client.completions.create(
        {
          model: request.model,
          prompt: request.messages.at(-1)?.content ?? "",
          temperature: request.temperature,
          max_tokens: request.maxOutputTokens,
          ...(request.topP !== undefined ? { top_p: request.topP } : {}),
        },
        { signal },
      );
    } catch (error) {
      throw toCallError(error, this.timeoutSeconds);
    }
    const choice = response?.choices?.[0];
    if (!choice || typeof choice.text !== "string")
      throw new ProviderCallError(
        "the provider's answer has no continuation (choices[0].text): does the server serve the completions " +
          "endpoint for this model?",
        null,
        true,
      );
    return {
      text: choice.text,
      finishReason: choice.finish_reason ?? null,
      promptTokens: response.usage?.prompt_tokens ?? null,
      completionTokens: response.usage?.completion_tokens ?? null,
      cachedTokens: null,
      reportedModel: response.model ?? null,
      systemFingerprint: response.system_fingerprint ?? null,
    };
  }

  /**
   * The LOGPROB method: the completions endpoint with `echo` and `logprobs` returns the log-probability of each of
   * the prompt's tokens (and of one generated token, left out by its offset). The payload is `TokenLogprobs`.
   */
  private async score(request: ChatRequest, top: number, signal: AbortSignal): Promise<ChatResult> {
    const text = request.messages.at(-1)?.content ?? "";
    let response: OpenAI.Completions.Completion;
    try {
      response = await this.client.completions.create(
        { model: request.model, prompt: text, max_tokens: 1, temperature: 0, echo: true, logprobs: top },
        { signal },
      );
    } catch (error) {
      throw toCallError(error, this.timeoutSeconds);
    }
    const logprobs = response?.choices?.[0]?.logprobs;
    if (!logprobs?.token_logprobs || !Array.isArray(logprobs.token_logprobs))
      throw new ProviderCallError(
        "the provider's answer has no prompt log-probabilities (choices[0].logprobs.token_logprobs): does the " +
          "server support echo with logprobs on its completions endpoint?",
        null,
        false,
      );
    const problem = echoedLogprobsProblem(
      { tokenLogprobs: logprobs.token_logprobs, tokens: logprobs.tokens, textOffsets: logprobs.text_offset },
      text,
    );
    // An answer that cannot be scored whole fails the item with the reason (not retried, not cached).
    if (problem) throw new ProviderCallError(problem, null, false);
    const offsets = logprobs.text_offset ?? [];
    const promptTokens = response.usage?.prompt_tokens ?? null;
    const inPrompt = (i: number) =>
      offsets.length === logprobs.token_logprobs!.length
        ? offsets[i] < text.length
        : promptTokens === null || i < promptTokens;
    const positions = logprobs.token_logprobs.flatMap((logprob, i) =>
      inPrompt(i)
        ? [
            {
              logprob: typeof logprob === "number" ? logprob : null,
              alternatives: Object.values(logprobs.top_logprobs?.[i] ?? {}).filter(
                (value): value is number => typeof value === "number",
              ),
            },
          ]
        : [],
    );
    return {
      text: scoredNote(positions.length),
      tokenLogprobs: JSON.stringify(tokenLogprobsOf(positions, top)),
      finishReason: "scored",
      promptTokens: promptTokens ?? positions.length,
      completionTokens: response.usage?.completion_tokens ?? 1,
      cachedTokens: null,
      reportedModel: response.model ?? null,
      systemFingerprint: response.system_fingerprint ?? null,
    };
  }

  async submit(jsonl: string, memiclBatchId: string, signal?: AbortSignal): Promise<ProviderBatchStatus> {
    return this.batchCall(async () => {
      const file = await this.client.files.create(
        { file: await toFile(Buffer.from(jsonl), `memicl-${memiclBatchId}.jsonl`), purpose: "batch" },
        { signal },
      );
      const batch = await this.client.batches.create(
        {
          input_file_id: file.id,
          endpoint: "/v1/chat/completions",
          completion_window: "24h",
          metadata: { [BATCH_METADATA_KEY]: memiclBatchId },
        },
        { signal },
      );
      return statusOf(batch);
    });
  }

  async find(memiclBatchId: string, signal?: AbortSignal): Promise<ProviderBatchStatus | null> {
    return this.batchCall(async () => {
      // Newest first: a submission lost moments ago is near the top.
      for await (const batch of this.client.batches.list({ limit: 100 }, { signal })) {
        if (batch.metadata?.[BATCH_METADATA_KEY] === memiclBatchId) return statusOf(batch);
      }
      return null;
    });
  }

  retrieve(providerBatchId: string, signal?: AbortSignal): Promise<ProviderBatchStatus> {
    return this.batchCall(async () =>
      statusOf(await this.client.batches.retrieve(providerBatchId, { signal })),
    );
  }

  cancel(providerBatchId: string, signal?: AbortSignal): Promise<ProviderBatchStatus> {
    return this.batchCall(async () =>
      statusOf(await this.client.batches.cancel(providerBatchId, { signal })),
    );
  }

  fileText(fileId: string, signal?: AbortSignal): Promise<string> {
    return this.batchCall(async () => (await this.client.files.content(fileId, { signal })).text());
  }

  private async batchCall<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw toCallError(error, this.timeoutSeconds);
    }
  }
}

function statusOf(batch: OpenAI.Batches.Batch): ProviderBatchStatus {
  return {
    id: batch.id,
    status: batch.status,
    outputFileId: batch.output_file_id ?? null,
    errorFileId: batch.error_file_id ?? null,
    total: batch.request_counts?.total ?? 0,
    completed: batch.request_counts?.completed ?? 0,
    failed: batch.request_counts?.failed ?? 0,
    errors:
      batch.errors?.data
        ?.map((error) => error.message ?? error.code)
        .filter(Boolean)
        .join("; ") || null,
    metadata: (batch.metadata ?? {}) as Record<string, string>,
  };
}

function toCallError(error: unknown, timeoutSeconds: number): ProviderCallError {
  if (error instanceof APIConnectionTimeoutError)
    return new ProviderCallError(`timeout after ${timeoutSeconds} s`, null, true);
  if (error instanceof APIConnectionError)
    return new ProviderCallError(`connection failed: ${error.message}`, null, true);
  if (error instanceof APIError && typeof error.status === "number") {
    const detail = (error.error as { message?: string } | undefined)?.message ?? error.message;
    return new ProviderCallError(
      `HTTP ${error.status}: ${detail}`.slice(0, 1000),
      error.status,
      isRetryableStatus(error.status),
      retryAfterMs(error.headers as Headers | undefined),
    );
  }
  if (error instanceof Error && error.name === "AbortError")
    return new ProviderCallError("the request was aborted", null, true);
  // Anything else (an unreadable body, for one) may pass on another try.
  return new ProviderCallError(
    `the call failed: ${(error as Error)?.message ?? String(error)}`.slice(0, 1000),
    null,
    true,
  );
}

/**
 * Why an answer is not a chat completion, in words a user can act on: a page of HTML or text (a login page, a
 * proxy's error page, the wrong base URL) is not "an answer without content".
 */
function notAChatCompletion(response: unknown): string {
  if (typeof response === "string") {
    const text = response.trim();
    const kind = /^<(!doctype|html|head|body)/i.test(text) ? "an HTML page" : "text";
    return `the provider answered with ${kind}, not a chat completion (is the base URL the API's, ending in /v1?): ${JSON.stringify(text.slice(0, 120))}`;
  }
  if (response && typeof response === "object" && !("choices" in response))
    return `the provider's answer is not a chat completion (no choices; keys: ${Object.keys(response).slice(0, 8).join(", ") || "none"})`;
  return "the provider's answer has no message content";
}
