import { BadInputError } from "../../common/errors";

/**
 * Parses a verbalizer list: one `label: words` (or `label=words`, or tab-separated) per line.
 * Blank lines and lines starting with `#` are skipped.
 */
export function parseVerbalizerFile(text: string): Record<string, string> {
  const verbalizers: Record<string, string> = {};
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const match = /^([^:=\t]+?)\s*[:=\t]\s*(.+)$/.exec(line);
    if (!match) throw new BadInputError(`verbalizers, line ${index + 1}: expected "label: words"`);
    verbalizers[match[1]] = match[2];
  });
  return verbalizers;
}
