import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, AzureOpenAI } from "openai";
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

/** Any OpenAI-compatible chat-completions endpoint, through the `openai` package. */
export class OpenAiProvider implements ModelProvider {
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
    let response: OpenAI.Chat.Completions.ChatCompletion;
    try {
      response = await this.client.chat.completions.create(
        {
          model: request.model,
          messages: request.messages,
          temperature: request.temperature,
          max_tokens: request.maxOutputTokens,
        },
        { signal },
      );
    } catch (error) {
      throw toCallError(error, this.timeoutSeconds);
    }
    const choice = response?.choices?.[0];
    if (!choice || typeof choice.message?.content !== "string") {
      throw new ProviderCallError("the provider's answer has no message content", null, true);
    }
    return {
      text: choice.message.content,
      finishReason: choice.finish_reason ?? null,
      promptTokens: response.usage?.prompt_tokens ?? null,
      completionTokens: response.usage?.completion_tokens ?? null,
      cachedTokens: response.usage?.prompt_tokens_details?.cached_tokens ?? null,
      reportedModel: response.model ?? null,
      systemFingerprint: response.system_fingerprint ?? null,
    };
  }
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
