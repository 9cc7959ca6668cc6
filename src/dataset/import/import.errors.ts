/** A problem with the imported content, tied to the line it was found on. */
export class ImportError extends Error {
  constructor(
    readonly line: number,
    readonly problem: string,
  ) {
    super(`line ${line}: ${problem.length > 2000 ? `${problem.slice(0, 2000)}... (cut)` : problem}`);
  }
}
