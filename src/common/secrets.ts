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

/** Adds a value to scrub everywhere (values shorter than 6 characters are too common to scrub safely). */
export function registerSecret(value: string | null | undefined): void {
  if (value && value.length >= 6) secrets.add(value);
}

export function scrubSecrets(text: string): string;
export function scrubSecrets(text: string | null): string | null;
export function scrubSecrets(text: string | null): string | null {
  if (text === null) return null;
  let scrubbed = text;
  for (const secret of secrets)
    if (scrubbed.includes(secret)) scrubbed = scrubbed.split(secret).join(REDACTED);
  scrubbed = scrubbed.replace(PATTERNS[0], (_, scheme: string) => `${scheme} ${REDACTED}`);
  scrubbed = scrubbed.replace(PATTERNS[1], REDACTED);
  scrubbed = scrubbed.replace(
    PATTERNS[2],
    (_, name: string, separator: string) => `${name}${separator}${REDACTED}`,
  );
  return scrubbed;
}

/** Text PostgreSQL can store: NUL characters (which `text` cannot hold) become U+FFFD. */
export function storableText(text: string): string;
export function storableText(text: string | null): string | null;
export function storableText(text: string | null): string | null {
  return text === null || !text.includes("\u0000") ? text : text.replaceAll("\u0000", "\uFFFD");
}
