import pino, { Logger } from "pino";
import { LogLevel } from "../config/config";

export type { Logger };

/** Structured JSON logs on stderr, so stdout stays free for CLI output. */
export function createLogger(level: LogLevel): Logger {
  return pino({ level, base: { service: "memicl" } }, pino.destination(2));
}
