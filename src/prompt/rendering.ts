import { ChatMessage } from "../study/chat";
import { RunKind } from "../study/settings";
import { TemplateBody } from "./template-body";

/** One demonstration or instance as prompts need it: its segments, its full texts, its label's verbalizer. */
export interface PromptItem {
  initialSegment: string;
  subsequentSegment: string;
  text: string;
  secondText: string | null;
  /** The verbalizer shown for the label. */
  label: string;
  /** The quiz's prompts: the instance as the quiz shows it. */
  original?: string;
  /** A quiz's four options, in letter order. */
  options?: readonly string[];
  /** TS-Guessing's prompt: the instance's text with one word replaced by [MASK]. */
  masked?: string;
}

export interface PromptContext {
  kind: RunKind;
  template: TemplateBody;
  /** The dataset's name as prompts show it. */
  datasetName: string;
  /** The split the instances under test come from. */
  split: string;
  /** Verbalizers of every label, in label order. */
  labels: string[];
  /** The k demonstrations, in presentation order. */
  demonstrations: PromptItem[];
}

function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{\s*([^}]*?)\s*\}\}/g, (_, name: string) => values[name] ?? "");
}

function itemValues(item: PromptItem): Record<string, string> {
  return {
    initial: item.initialSegment,
    subsequent: item.subsequentSegment,
    text: item.text,
    secondText: item.secondText ?? "",
    label: item.label,
    original: item.original ?? "",
    optionA: item.options?.[0] ?? "",
    optionB: item.options?.[1] ?? "",
    optionC: item.options?.[2] ?? "",
    optionD: item.options?.[3] ?? "",
    masked: item.masked ?? "",
  };
}

/** The demonstrations block shared by every prompt of a run; empty for zero-shot. */
export function renderDemonstrations(context: PromptContext): string {
  return context.demonstrations
    .map((item) => fill(context.template.demonstration, itemValues(item)))
    .join(context.template.separator);
}

/**
 * The exact chat messages for one instance. Built as instruction, then demonstrations, then the
 * instance's slot, so prompts of one run differ only after the shared demonstrations block.
 */
export function renderPrompt(
  context: PromptContext,
  instance: PromptItem,
  demonstrationsBlock = renderDemonstrations(context),
): ChatMessage[] {
  return renderInFrame(promptFrame(context, demonstrationsBlock), context, instance);
}

/**
 * What every prompt of a run shares: the messages before the user's (a system instruction), and the start of
 * the user's message (the instruction when it goes there, and the demonstrations), up to the instance's query.
 */
export interface PromptFrame {
  fixedMessages: ChatMessage[];
  /** The fixed parts of the user's message, each followed by the separator ("" when there are none). */
  userPrefix: string;
  /** The fixed parts joined, for a query that renders empty. */
  fixedParts: string[];
}

export function promptFrame(context: PromptContext, demonstrationsBlock: string): PromptFrame {
  const instruction = context.template.instruction
    ? fill(context.template.instruction, {
        dataset: context.datasetName,
        split: context.split,
        labels: context.labels.join(", "),
      })
    : null;
  const fixedMessages: ChatMessage[] =
    instruction && context.template.instructionPlacement !== "user"
      ? [{ role: "system", content: instruction }]
      : [];
  const fixedParts = [
    context.template.instructionPlacement === "user" ? instruction : null,
    demonstrationsBlock || null,
  ].filter((part): part is string => Boolean(part));
  const separator = context.template.separator;
  return {
    fixedMessages,
    fixedParts,
    userPrefix: fixedParts.length > 0 ? fixedParts.join(separator) + separator : "",
  };
}

/** One instance's prompt in a run's frame: the fixed parts, then its query. */
export function renderInFrame(
  frame: PromptFrame,
  context: PromptContext,
  instance: PromptItem,
): ChatMessage[] {
  return renderInFrameParts(frame, context, instance).messages;
}

/**
 * A prompt rendered in its frame, with what follows the frame: `query` is the user's message after
 * `frame.userPrefix` (the messages are the frame's fixed ones, then the user's: the prefix and the query), or null
 * when the query renders empty (the user's message is then the fixed parts alone).
 */
export interface FramedPrompt {
  messages: ChatMessage[];
  query: string | null;
}

export function renderInFrameParts(
  frame: PromptFrame,
  context: PromptContext,
  instance: PromptItem,
): FramedPrompt {
  const query = fill(context.template.query, itemValues(instance));
  const content = query ? frame.userPrefix + query : frame.fixedParts.join(context.template.separator);
  return {
    messages: [...frame.fixedMessages.map((message) => ({ ...message })), { role: "user", content }],
    query: query || null,
  };
}
