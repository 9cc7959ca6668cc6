import { ChatMessage } from "../study/chat";
import { JudgePromptBody, judgePrompt, LLM_JUDGE_VERSION, parseJudgeAnswer } from "./llm-judge";
import { JudgeVerdict } from "./verdicts";

/**
 * The LLM judge of the method's authors (Golchin & Surdeanu, "Time Travel in LLMs", `icl_evaluation.py`,
 * prompt `gpt4_icl_prompt`), word for word: one user message with its instruction, its four worked examples and
 * the pair, asked at temperature 0 for at most 10 tokens. Its answers are read strictly (`parseTimeTravelAnswer`).
 */
export const TIME_TRAVEL_JUDGE_VERSION = "time-travel-1";

/** The judge versions an LLM judge can be: memicl's own (a versioned prompt) or the authors' (fixed). */
export const LLM_JUDGE_VERSIONS = ["llm-judge-1", TIME_TRAVEL_JUDGE_VERSION] as const;

const PROMPT = `INSTRUCTION:
You are provided with a reference text and a candidate text.
The candidate text is a generated replica of the reference text.
Your task is to determine if the candidate text is an exact or near-exact match of the reference text.
Near-exact match candidates must PRECISELY match the reference candidates in terms of sentence structure, overlap, and contextual similarity.
Respond only with 'Yes' or 'No'.
---
Example 1:

REFERENCE TEXT:
The cat waited at the top.

CANDIDATE TEXT:
The cat waited at the top.

ANSWER: Yes (exact match)
---
Example 2:

REFERENCE TEXT:
icy surface of Jupiter's largest moon, Ganymede. These irregular masses may be rock formations, supported by Ganymede's icy shell for billions of years.

CANDIDATE TEXT:
icy surface of Jupiter's largest moon, Ganymede. These irregular masses may be rock formations, supported by Ganymede's icy shell for billions of years. This discovery supports the theory that Ganymede has a subsurface ocean. Scientists used gravity data from NASA's Galileo spacecraft to create a geophysical model of the interior of Ganymede.

ANSWER: Yes (near-exact match)
---
Example 3:

REFERENCE TEXT:
50th Anniversary of Normandy Landings lasts a year.

CANDIDATE TEXT:
The 50th anniversary celebration of the first Normandy landing will last a year.

ANSWER: Yes (near-exact match)
---
Example 4:

REFERENCE TEXT:
Microsoft's Hotmail has raised its storage capacity to 250MB.

CANDIDATE TEXT:
Microsoft has increased the storage capacity of its Hotmail e-mail service to 250MB.

ANSWER: Yes (near-exact match)
---
Example 5:

REFERENCE TEXT:
{reference_text}

CANDIDATE TEXT:
{candidate_text}

ANSWER:
`;

/** The one user message asking the authors' judge about a pair (Python's str.format, as their code fills it). */
export function timeTravelJudgePrompt(reference: string, candidate: string): ChatMessage[] {
  const content = PROMPT.replace("{reference_text}", () => reference).replace(
    "{candidate_text}",
    () => candidate,
  );
  return [{ role: "user", content }];
}

/**
 * The authors' answer format, read strictly: "Yes (exact match)" is EXACT, "Yes (near-exact match)" NEAR_EXACT,
 * "No" INEXACT (surrounding whitespace and one final period aside); anything else, a bare "Yes" included, is
 * UNPARSEABLE, and is counted as such.
 */
export function parseTimeTravelAnswer(answer: string): JudgeVerdict {
  const text = answer.trim().replace(/\.$/, "");
  if (text === "Yes (exact match)") return "EXACT";
  if (text === "Yes (near-exact match)") return "NEAR_EXACT";
  if (text === "No") return "INEXACT";
  return "UNPARSEABLE";
}

/** One LLM judge as its callers use it: the messages for a pair, how its answer is read, what judgments record. */
export interface LlmJudge {
  messages(reference: string, candidate: string): ChatMessage[];
  parse(answer: string): JudgeVerdict;
  /** The `judgeVersion` its judgments record. */
  version: string;
}

/**
 * The LLM judge of a version: the authors' (`time-travel-1`), or memicl's own with its versioned prompt (any other
 * value, `llm-judge-1` or none).
 */
export function llmJudgeOf(
  judgeVersion: string | null | undefined,
  prompt: { body: JudgePromptBody; version: number },
): LlmJudge {
  if (judgeVersion === TIME_TRAVEL_JUDGE_VERSION)
    return {
      messages: timeTravelJudgePrompt,
      parse: parseTimeTravelAnswer,
      version: TIME_TRAVEL_JUDGE_VERSION,
    };
  return {
    messages: (reference, candidate) => judgePrompt(reference, candidate, prompt.body),
    parse: parseJudgeAnswer,
    version: `${LLM_JUDGE_VERSION}/prompt-v${prompt.version}`,
  };
}
