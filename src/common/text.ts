/** No NUL character (PostgreSQL cannot store one, in text or in JSON): for `@Matches` on inputs. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: a NUL is exactly what it refuses
export const NO_NUL = /^[^\u0000]*$/;
