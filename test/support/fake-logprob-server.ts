import http from "node:http";
import { AddressInfo } from "node:net";

/**
 * How a scoring server behaves, by the model asked for (the ways real servers answer `echo` with `logprobs`):
 * - `echo`: right; every character of the prompt one token (so a 10,000-character text is 10,000 tokens);
 * - `no-echo`: scores the generated token only (llama.cpp's server today);
 * - `clamped`: vLLM's -9999 for -infinity, on texts longer than 100 characters (a probe's sentence passes);
 * - `null-middle`: a null past the first token, on texts longer than 100 characters;
 * - `short-arrays`: token_logprobs one shorter than tokens, on texts longer than 100 characters;
 * - `empty`: empty arrays;
 * - `chat-only`: no completions endpoint (404), chat answered.
 */
export type ScoringBehaviour =
  | "echo"
  | "no-echo"
  | "clamped"
  | "null-middle"
  | "short-arrays"
  | "empty"
  | "chat-only";

export interface FakeScoringServer {
  url: string;
  /** Completions requests seen, by model. */
  calls: Map<string, number>;
  close(): Promise<void>;
}

/** A deterministic log-probability for a character at a position (members and non-members alike: no signal). */
function logprobAt(text: string, i: number): number {
  return -0.2 - ((text.charCodeAt(i) * 31 + i * 17) % 97) / 25;
}

function completion(model: string, prompt: string, alternatives: number) {
  const behaviour = model as ScoringBehaviour;
  const long = prompt.length > 100;
  const chars = [...prompt];
  let tokens = [...chars, " ok"];
  let offsets = [...chars.map((_, i) => i), prompt.length];
  let logprobs: (number | null)[] = tokens.map((_, i) => (i === 0 ? null : logprobAt(prompt, i)));
  let top: (Record<string, number | null> | null)[] = tokens.map((token, i) =>
    i === 0 ? null : { [token]: logprobs[i], " a": -2.5, " b": -3.1, " c": -4.0 },
  );
  if (alternatives === 0) top = top.map(() => null);
  if (behaviour === "no-echo") {
    tokens = [" ok"];
    offsets = [prompt.length];
    logprobs = [-0.7];
    top = [{ " ok": -0.7 }];
  } else if (behaviour === "empty") {
    tokens = [];
    offsets = [];
    logprobs = [];
    top = [];
  } else if (long && behaviour === "clamped") logprobs[3] = -9999;
  else if (long && behaviour === "null-middle") logprobs[5] = null;
  else if (long && behaviour === "short-arrays") logprobs = logprobs.slice(0, -2);
  return {
    id: "cmpl-fake",
    object: "text_completion",
    created: 0,
    model,
    choices: [
      {
        index: 0,
        text: " ok",
        finish_reason: "length",
        logprobs: { tokens, token_logprobs: logprobs, top_logprobs: top, text_offset: offsets },
      },
    ],
    usage: { prompt_tokens: chars.length, completion_tokens: 1, total_tokens: chars.length + 1 },
  };
}

/** An OpenAI-compatible scoring server on a free port, for the LOGPROB method's tests. */
export async function startFakeScoringServer(): Promise<FakeScoringServer> {
  const calls = new Map<string, number>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const send = (status: number, body: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(body));
      };
      let body: { model?: string; prompt?: string; logprobs?: number } = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
      } catch {
        return send(400, { error: { message: "not JSON" } });
      }
      const model = body.model ?? "";
      if (request.url?.endsWith("/completions") && !request.url.endsWith("/chat/completions")) {
        calls.set(model, (calls.get(model) ?? 0) + 1);
        if (model === "chat-only") return send(404, { error: { message: "Not Found" } });
        return send(200, completion(model, String(body.prompt ?? ""), body.logprobs ?? 0));
      }
      if (request.url?.endsWith("/chat/completions"))
        return send(200, {
          id: "chat-fake",
          object: "chat.completion",
          created: 0,
          model,
          choices: [{ index: 0, message: { role: "assistant", content: "OK" }, finish_reason: "stop" }],
          usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
        });
      if (request.url?.endsWith("/models"))
        return send(200, { object: "list", data: [{ id: "echo", object: "model" }] });
      send(404, { error: { message: "Not Found" } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
