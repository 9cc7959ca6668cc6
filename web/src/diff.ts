/** Word-level difference between a reference and an answer, for highlighting (pure). */
export interface DiffPart {
  text: string;
  /** "same" in both, "missing" only in the reference, "added" only in the answer. */
  kind: "same" | "missing" | "added";
}

/** Splits into words and the whitespace after them, so that joining the parts gives the text back. */
export function tokens(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** The longest common subsequence of words (compared without the whitespace), as parts in text order. */
export function wordDiff(reference: string, answer: string): DiffPart[] {
  const a = tokens(reference);
  const b = tokens(answer);
  const key = (token: string) => token.trim();
  // lengths[i][j]: LCS length of a[i..] and b[j..].
  const lengths = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lengths[i][j] =
        key(a[i]) === key(b[j]) ? lengths[i + 1][j + 1] + 1 : Math.max(lengths[i + 1][j], lengths[i][j + 1]);
  const parts: DiffPart[] = [];
  const push = (text: string, kind: DiffPart["kind"]) => {
    const last = parts.at(-1);
    if (last && last.kind === kind) last.text += text;
    else parts.push({ text, kind });
  };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (key(a[i]) === key(b[j])) {
      push(b[j], "same");
      i++;
      j++;
    } else if (lengths[i + 1][j] >= lengths[i][j + 1]) push(a[i++], "missing");
    else push(b[j++], "added");
  }
  while (i < a.length) push(a[i++], "missing");
  while (j < b.length) push(b[j++], "added");
  return parts;
}
