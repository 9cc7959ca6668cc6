/**
 * Secrets never leave the process: every configured API key (registered when the configuration is read) and
 * anything shaped like a bearer token or an OpenAI-style key is replaced by `[redacted]` in text that is
 * stored, logged or served (provider errors echo request headers more often than one would think).
 */
const secrets = new Set<string>();

const PATTERNS: RegExp[] = [
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\bsk-[A-Za-z0-9_-]{8,}/g,
  /\b(api[-_]?key|authorization|x-api-key)(["']?\s*[:=]\s*["']?)[^\s"',}]{6,}/gi,
];

export const REDACTED = "[redacted]";

/**
 * Adds a value to scrub everywhere (values shorter than 6 characters are too common to scrub safely), with the
 * forms a provider may echo it in (`secretForms`): URL-encoded, hex, case-changed, reversed, spaced, halved, without
 * its vendor prefix, and base64 (standard and URL-safe) at any of the three byte
 * alignments it can have inside a longer encoded string (a `Basic` header, a JSON blob): for each, the run of
 * characters that depends on the key's bytes alone.
 */
export function registerSecret(value: string | null | undefined): void {
  if (!value || value.length < 6) return;
  for (const form of secretForms(value)) if (form.length >= 6) secrets.add(form);
}

export function secretForms(value: string): string[] {
  const bytes0 = Buffer.from(value, "utf8");
  const hex = bytes0.toString("hex");
  const everyByte = [...bytes0].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");
  const half = Math.ceil(value.length / 2);
  // The forms a provider or a proxy has been seen to echo a key in, besides the key itself: URL-encoded (only
  // where needed, or every byte, in either case of hex), hex, upper or lower case, reversed, spaced out, and
  // either half of a long key (at 16 characters or more, a half is still unguessable).
  const forms = new Set([
    value,
    encodeURIComponent(value),
    everyByte,
    everyByte.toUpperCase(),
    hex,
    hex.toUpperCase(),
    value.toUpperCase(),
    value.toLowerCase(),
    [...value].reverse().join(""),
    [...value].join(" "),
    // Either half of a key of 16 characters or more: at 8 characters and up a half is still unguessable.
    ...(value.length >= 16 ? [value.slice(0, half), value.slice(value.length - half)] : []),
  ]);
  // The key without its vendor prefix (`sk-`, `sk-proj-`, `sk-ant-api03-`...), where what is left is long.
  const bare = value.replace(/^sk-(?:[a-z]+(?:-[a-z0-9]+)?-)?/i, "");
  if (bare !== value && bare.length >= 16) forms.add(bare);
  const bytes = Buffer.from(value, "utf8");
  for (let shift = 0; shift < 3; shift += 1) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString("base64");
    const core = encoded.slice(Math.ceil((8 * shift) / 6), Math.floor((8 * (shift + bytes.length)) / 6));
    forms.add(core);
    forms.add(core.replaceAll("+", "-").replaceAll("/", "_"));
  }
  return [...forms];
}

/**
 * Every configured key, in every form `registerSecret` knows, replaced in a value a provider sent (an answer, the
 * model name it reports, its fingerprint): only configured keys, so an answer that merely looks like a key (a
 * dataset's text can) is kept as it is.
 */
export function scrubConfiguredSecrets(text: string): string;
export function scrubConfiguredSecrets(text: string | null): string | null;
export function scrubConfiguredSecrets(text: string | null): string | null {
  if (text === null) return null;
  return redactConfigured(text);
}

/**
 * Every configured key's forms replaced: first as written, then in the text as it reads once percent-escapes
 * (`%2D`, `%2d`, however few characters are escaped) and HTML character references (`&#45;`, `&#x2d;`, `&amp;`)
 * are decoded, each match redacted over the characters of the original that spell it.
 */
function redactConfigured(text: string): string {
  let scrubbed = text;
  for (const secret of secrets)
    if (scrubbed.includes(secret)) scrubbed = scrubbed.split(secret).join(REDACTED);
  if (!scrubbed.includes("%") && !scrubbed.includes("&")) return scrubbed;
  const { view, starts, ends } = decodedView(scrubbed);
  if (view.length === scrubbed.length) return scrubbed;
  const spans: [number, number][] = [];
  for (const secret of secrets)
    for (let at = view.indexOf(secret); at >= 0; at = view.indexOf(secret, at + 1))
      spans.push([starts[at], ends[at + secret.length - 1]]);
  if (spans.length === 0) return scrubbed;
  spans.sort((a, b) => a[0] - b[0]);
  let out = "";
  let from = 0;
  for (const [start, end] of spans) {
    if (end <= from) continue;
    out += `${scrubbed.slice(from, Math.max(from, start))}${start >= from ? REDACTED : ""}`;
    from = end;
  }
  return out + scrubbed.slice(from);
}

const NAMED_REFERENCES: Record<string, string> = {
  amp: "&",
  quot: '"',
  apos: "'",
  lt: "<",
  gt: ">",
  sol: "/",
  hyphen: "-",
  dash: "-",
  lowbar: "_",
  period: ".",
};

/**
 * The text with its percent-escapes and HTML character references of ASCII characters decoded, and, for each
 * character of that view, the span of the original it came from ([starts[i], ends[i])).
 */
function decodedView(text: string): { view: string; starts: number[]; ends: number[] } {
  let view = "";
  const starts: number[] = [];
  const ends: number[] = [];
  const pattern = /%([0-9a-fA-F]{2})|&#(?:[xX]([0-9a-fA-F]{1,6})|([0-9]{1,7}));?|&([a-zA-Z]+);/g;
  let last = 0;
  const plain = (from: number, to: number) => {
    for (let i = from; i < to; i += 1) {
      view += text[i];
      starts.push(i);
      ends.push(i + 1);
    }
  };
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const code = match[1]
      ? Number.parseInt(match[1], 16)
      : match[2]
        ? Number.parseInt(match[2], 16)
        : match[3]
          ? Number.parseInt(match[3], 10)
          : (NAMED_REFERENCES[match[4].toLowerCase()]?.charCodeAt(0) ?? -1);
    if (code < 0 || code > 0x7f) continue;
    plain(last, match.index);
    view += String.fromCharCode(code);
    starts.push(match.index);
    ends.push(match.index + match[0].length);
    last = match.index + match[0].length;
  }
  plain(last, text.length);
  return { view, starts, ends };
}

export function scrubSecrets(text: string): string;
export function scrubSecrets(text: string | null): string | null;
export function scrubSecrets(text: string | null): string | null {
  if (text === null) return null;
  let scrubbed = redactConfigured(text);
  scrubbed = scrubbed.replace(PATTERNS[0], (_, scheme: string) => `${scheme} ${REDACTED}`);
  scrubbed = scrubbed.replace(PATTERNS[1], REDACTED);
  scrubbed = scrubbed.replace(
    PATTERNS[2],
    (_, name: string, separator: string) => `${name}${separator}${REDACTED}`,
  );
  return scrubbed;
}

/** A UTF-16 surrogate without its pair: not a character, and UTF-8 cannot encode it. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text PostgreSQL can store: NUL characters (which `text` cannot hold) and lone UTF-16 surrogates (which UTF-8
 * cannot encode: `invalid input syntax for type json`) become U+FFFD.
 */
export function storableText(text: string): string;
export function storableText(text: string | null): string | null;
export function storableText(text: string | null): string | null {
  if (text === null) return null;
  const withoutNul = text.includes("\u0000") ? text.replaceAll("\u0000", "\uFFFD") : text;
  return withoutNul.replace(LONE_SURROGATE, "\uFFFD");
}
