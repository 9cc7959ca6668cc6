import pino, { Logger } from "pino";
import { scrubSecrets } from "../common/secrets";
import { LogLevel } from "../config/config";

export type { Logger };

/** Structured JSON logs on stderr, so stdout stays free for CLI output; secrets are scrubbed from every line. */
export function createLogger(level: LogLevel): Logger {
  return pino(
    { level, base: { service: "memicl" }, hooks: { streamWrite: (line) => scrubSecrets(line) } },
    pino.destination(2),
  );
}
