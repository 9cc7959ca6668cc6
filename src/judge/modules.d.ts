// The two packages ship no type declarations; these cover what the judge uses.

declare module "stopword" {
  /** English stop words, lower case. */
  export const eng: string[];
}

declare module "wink-porter2-stemmer" {
  /** The Porter2 (Snowball English) stem of one lower-case word. */
  export default function stem(word: string): string;
}
