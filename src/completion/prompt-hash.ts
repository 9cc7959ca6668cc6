import { createHash, Hash } from "node:crypto";
import { PromptFrame } from "../prompt/rendering";
import { ChatMessage } from "../study/chat";

/**
 * The prompt hash and the response-cache key of a run's prompts, with the part every prompt shares (the
 * demonstrations, up to 200 of them) hashed once per run: SHA-256 is a stream, so the state after the shared
 * prefix is kept and copied for each prompt. The values are exactly those of hashing the whole JSON text
 * (`sha256(JSON.stringify(messages))`, and of `[provider, model, messages, temperature, maxTokens, repeat]` for
 * the cache): a prompt that does not start with the frame's prefix is hashed whole.
 */
export class PromptHasher {
  private readonly promptState: Hash | null;
  private readonly cacheState: Hash | null;
  private readonly headJson: string;

  constructor(
    private readonly frame: PromptFrame,
    private readonly cache: { provider: string; model: string },
  ) {
    // JSON escapes character by character, so the JSON of a string is the JSON of its prefix and of the rest,
    // concatenated; unless the prefix ends inside a surrogate pair, which a prefix of whole parts never does.
    const last = frame.userPrefix.charCodeAt(frame.userPrefix.length - 1);
    const splittable = frame.userPrefix.length > 0 && !(last >= 0xd800 && last <= 0xdbff);
    const fixed = frame.fixedMessages.map((message) => `${JSON.stringify(message)},`).join("");
    this.headJson = `[${fixed}{"role":"user","content":"${JSON.stringify(frame.userPrefix).slice(1, -1)}`;
    this.promptState = splittable ? createHash("sha256").update(this.headJson) : null;
    this.cacheState = splittable
      ? createHash("sha256").update(
          `[${JSON.stringify(cache.provider)},${JSON.stringify(cache.model)},${this.headJson}`,
        )
      : null;
  }

  /**
   * sha256 of the JSON of the messages. `query`, when given, is the caller's word that the messages were rendered in
   * this frame with this query after the prefix (`renderInFrameParts`): the 50 KB of shared demonstrations are then
   * not compared again for every prompt.
   */
  promptHash(messages: ChatMessage[], query?: string | null): string {
    const rest = this.restOf(messages, query);
    if (rest === null || !this.promptState) return sha256(JSON.stringify(messages));
    return this.promptState.copy().update(`${rest}"}]`).digest("hex");
  }

  /** sha256 of the JSON of [provider, model, messages, temperature, maxOutputTokens, repeat]. */
  cacheKey(
    messages: ChatMessage[],
    /** The temperature, or with nucleus sampling both it and top_p. */
    temperature: number | { temperature: number; topP: number },
    maxOutputTokens: number,
    repeat: number,
    query?: string | null,
  ): string {
    const rest = this.restOf(messages, query);
    const tail = `,${JSON.stringify(temperature)},${JSON.stringify(maxOutputTokens)},${JSON.stringify(repeat)}]`;
    if (rest === null || !this.cacheState || !this.cache)
      return sha256(
        JSON.stringify([
          this.cache?.provider,
          this.cache?.model,
          messages,
          temperature,
          maxOutputTokens,
          repeat,
        ]),
      );
    return this.cacheState.copy().update(`${rest}"}]${tail}`).digest("hex");
  }

  /** The JSON-escaped rest of the user's message after the frame's prefix, or null when the frame does not fit. */
  private restOf(messages: ChatMessage[], query?: string | null): string | null {
    if (typeof query === "string") return JSON.stringify(query).slice(1, -1);
    const { fixedMessages, userPrefix } = this.frame;
    if (messages.length !== fixedMessages.length + 1) return null;
    for (let index = 0; index < fixedMessages.length; index++) {
      const message = messages[index];
      if (
        Object.keys(message).length !== 2 ||
        message.role !== fixedMessages[index].role ||
        message.content !== fixedMessages[index].content
      )
        return null;
    }
    const user = messages.at(-1)!;
    if (Object.keys(user).length !== 2 || user.role !== "user" || !user.content.startsWith(userPrefix))
      return null;
    return JSON.stringify(user.content.slice(userPrefix.length)).slice(1, -1);
  }
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
