// The package ships no types: one CommonJS export, the Porter2 (Snowball English) stem of a lower-case word.
declare module 'wink-porter2-stemmer' {
  export default function stem(word: string): string;
}
