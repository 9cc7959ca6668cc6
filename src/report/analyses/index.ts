// The study's analyses as pure functions of a few kinds of rows the SQL of report.sql.ts returns: counts per cell
// (sample x setting x k), outcomes per instance of a cell, performance per repeat and per instance. One file per
// table of the report; no I/O anywhere here.

export * from "./against-control";
export * from "./cdd";
export * from "./codec";
export * from "./comparison";
export * from "./contamination";
export * from "./contamination-summary";
export * from "./controls";
export * from "./correlations";
export * from "./floor";
export * from "./guided-general";
export * from "./logprob";
export * from "./memorization";
export * from "./memorized-vs-not";
export * from "./ngram";
export * from "./paired";
export * from "./performance";
export * from "./performance-vs-zero-shot";
export * from "./quiz";
export * from "./review";
export * from "./rows";
export * from "./targets";
export * from "./threshold";
export * from "./transitions";
export * from "./ts-guessing";
export * from "./verdict";
