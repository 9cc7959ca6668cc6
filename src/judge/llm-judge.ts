import { ChatMessage } from "../study/chat";
import { JudgeVerdict } from "./verdicts";

export const LLM_JUDGE_VERSION = "llm-judge-1";

export interface JudgeExample {
  reference: string;
  candidate: string;
  answer: "exact match" | "near-exact match" | "inexact match";
}

/** The judge's prompt: stored as versioned template `judge/llm`, of which this is version 1. */
export interface JudgePromptBody {
  instruction: string;
  examples: JudgeExample[];
}

export const JUDGE_PROMPT_KEY = "judge/llm";

const ANSWERS = ["exact match", "near-exact match", "inexact match"];

/** Problems with a judge prompt; empty when it is usable. */
export function checkJudgePrompt(prompt: JudgePromptBody): string[] {
  const problems: string[] = [];
  if (!prompt.instruction?.trim()) problems.push("instruction: must not be empty");
  if (!Array.isArray(prompt.examples) || prompt.examples.length > 20) problems.push("examples: at most 20");
  for (const [index, example] of (prompt.examples ?? []).entries()) {
    if (!example.reference?.trim() || !example.candidate?.trim())
      problems.push(`examples[${index}]: reference and candidate must not be empty`);
    if (!ANSWERS.includes(example.answer))
      problems.push(`examples[${index}]: answer must be one of ${ANSWERS.join(", ")}`);
  }
  return problems;
}

/** The instruction and four worked examples (one exact, three near-exact), written for memicl. */
export const LLM_JUDGE_PROMPT: JudgePromptBody = {
  instruction:
    "You compare a candidate text with a reference text and classify the candidate as one of: " +
    '"exact match" (the same text, ignoring case, spacing and punctuation), ' +
    '"near-exact match" (not identical, but most of the reference\'s words and its meaning and structure are there: ' +
    "the reference with words added or left out, or a very close paraphrase), or " +
    '"inexact match" (anything else, including texts on the same topic that say something different). ' +
    "Answer with the category only.",
  examples: [
    {
      reference: "The committee approved the new budget on Tuesday.",
      candidate: "The committee approved the new budget on Tuesday.",
      answer: "exact match",
    },
    {
      reference: "heavy rain flooded several roads in the north of the county.",
      candidate: "heavy rain flooded several roads in the north of the county, and two schools were closed.",
      answer: "near-exact match",
    },
    {
      reference: "The striker scored twice as the home side won 3-1.",
      candidate: "The striker scored two goals as the home team won 3-1.",
      answer: "near-exact match",
    },
    {
      reference: "Officials said the bridge will reopen next month after repairs.",
      candidate: "Officials said that the bridge would reopen next month once repairs are done.",
      answer: "near-exact match",
    },
  ],
};

/** The chat messages asking the judge about one pair. */
export function judgePrompt(
  reference: string,
  candidate: string,
  prompt: JudgePromptBody = LLM_JUDGE_PROMPT,
): ChatMessage[] {
  const item = (example: { reference: string; candidate: string }) =>
    `Reference text: ${example.reference}\nCandidate text: ${example.candidate}\nAnswer:`;
  const examples = prompt.examples.map((example) => `${item(example)} ${example.answer}`).join("\n\n");
  return [
    { role: "system", content: prompt.instruction },
    { role: "user", content: `${examples}\n\n${item({ reference, candidate })}` },
  ];
}

/**
 * Reads a judge's answer strictly: after lower-casing and trimming punctuation and an optional "Answer:",
 * it must be one category ("exact match", "near-exact match", "inexact match", or "no match"), with or
 * without the word "match". Anything else is UNPARSEABLE.
 */
export function parseJudgeAnswer(answer: string): JudgeVerdict {
  const text = answer
    .normalize("NFKC")
    .toLowerCase()
    .replace(/^[\s"'*`]*(answer|category|classification)\s*:\s*/, "")
    .replace(/[\s"'*`.!]+$/g, "")
    .replace(/^[\s"'*`]+/, "")
    .replace(/[\s_]+/g, " ")
    .replace(/near exact|near‑exact/g, "near-exact");
  if (/^exact( match)?$/.test(text)) return "EXACT";
  if (/^near-exact( match)?$/.test(text)) return "NEAR_EXACT";
  if (/^(inexact|no)( match)?$/.test(text)) return "INEXACT";
  return "UNPARSEABLE";
}
