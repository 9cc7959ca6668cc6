/** What a performance answer says, read against the dataset's labels. */
export type ParsedAnswer =
  | { outcome: "label"; label: string }
  | { outcome: "unparseable"; reason: "no label" | "conflicting labels" | "empty"; mentioned: string[] };

export interface LabelWords {
  label: string;
  /** The words prompts use for it; the raw label is recognised too. */
  verbalizer: string;
}

/** Lower case, Unicode-normalised, punctuation and underscores as spaces, whitespace collapsed. */
export function normalizeAnswerText(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\p{P}\p{S}_]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

const LEADING_WORDS =
  /^(?:(?:the|final|correct|predicted)\s+)*(?:label|answer|category|class|prediction|output)\s+(?:is\s+)?/;

/**
 * Maps a model's free-text answer to a label. Case, punctuation and Unicode forms do not matter; a label
 * counts only as whole words, and a longer label wins over one it contains ("not entailment" is not also
 * "entailment"). If the answer starts with a label (after words like "Label:" or "The answer is"), that
 * label wins even when others follow, as in explanations; otherwise exactly one distinct label must be
 * mentioned. No label, or several conflicting ones, is unparseable (and is counted wrong).
 */
export function parseAnswer(output: string, labels: readonly LabelWords[]): ParsedAnswer {
  const answer = normalizeAnswerText(output);
  if (answer === "") return { outcome: "unparseable", reason: "empty", mentioned: [] };

  const phrases = [
    ...labels.flatMap(({ label, verbalizer }) =>
      [verbalizer, label].map((words) => ({ label, words: normalizeAnswerText(words) })),
    ),
    ...negationPhrases(labels),
  ]
    .filter((phrase) => phrase.words !== "")
    .sort((a, b) => b.words.length - a.words.length);

  // Find mentions left to right; at each position the longest phrase wins and its words are consumed.
  const mentions: { label: string; at: number }[] = [];
  const padded = ` ${answer} `;
  const taken = new Array<boolean>(padded.length).fill(false);
  for (const phrase of phrases) {
    const needle = ` ${phrase.words} `;
    for (let from = padded.indexOf(needle); from !== -1; from = padded.indexOf(needle, from + 1)) {
      const start = from + 1;
      const end = start + phrase.words.length;
      if (taken.slice(start, end).some(Boolean)) continue;
      taken.fill(true, start, end);
      mentions.push({ label: phrase.label, at: start });
    }
  }
  mentions.sort((a, b) => a.at - b.at);
  const distinct = [...new Set(mentions.map((mention) => mention.label))];
  if (distinct.length === 0) return { outcome: "unparseable", reason: "no label", mentioned: [] };

  const lead = LEADING_WORDS.exec(answer)?.[0].length ?? 0;
  if (mentions[0].at === lead + 1) return { outcome: "label", label: mentions[0].label };
  if (distinct.length === 1) return { outcome: "label", label: distinct[0] };
  return { outcome: "unparseable", reason: "conflicting labels", mentioned: distinct };
}

/**
 * Where one label is the negation of another ("not entailment" of "entailment"), the ways answers say it:
 * "no entailment", "non-entailment", "not entailed", "does not entail" read as the negative label, and
 * "entailed", "entails" as the positive one. The negative phrases are longer than the positive word they
 * contain, so they win where both match.
 */
export function negationPhrases(labels: readonly LabelWords[]): { label: string; words: string }[] {
  const wordsOf = (entry: LabelWords) =>
    [...new Set([entry.verbalizer, entry.label].map(normalizeAnswerText))].filter(Boolean);
  const phrases: { label: string; words: string }[] = [];
  for (const negative of labels) {
    for (const negated of wordsOf(negative)) {
      const match = /^not (.+)$/.exec(negated);
      if (!match) continue;
      const positive = labels.find((entry) => entry !== negative && wordsOf(entry).includes(match[1]));
      if (!positive) continue;
      const base = match[1];
      const negations = [
        `no ${base}`,
        `non ${base}`,
        `not an ${base}`,
        `not a ${base}`,
        `no ${base} relation`,
      ];
      const stem = /^(\w+)ment$/.exec(base)?.[1];
      if (stem) {
        for (const auxiliary of ["does not", "doesn t", "do not", "don t", "did not", "is not", "isn t"])
          negations.push(`${auxiliary} ${stem}`, `${auxiliary} ${stem}ed`);
        negations.push(`not ${stem}ed`, `not ${stem}s`, `not ${stem}`, `never ${stem}s`);
        phrases.push(
          { label: positive.label, words: `${stem}ed` },
          { label: positive.label, words: `${stem}s` },
        );
      }
      for (const words of new Set(negations)) phrases.push({ label: negative.label, words });
    }
  }
  return phrases;
}
