/** One WordNet synset: its words and its gloss (definition and usage examples). */
export interface WordnetSynset {
  /** "n:02958343" - part of speech and byte offset, unique within WordNet. */
  readonly id: string;
  /** Lemmas with underscores as spaces, in WordNet's order. */
  readonly lemmas: readonly string[];
  /** The definition part of the gloss (before the first quoted example). */
  readonly definition: string;
  /** The quoted usage examples, quotes removed. */
  readonly examples: readonly string[];
}

/**
 * Parses a WordNet 3.0 data file (data.noun, data.verb, ...; wndb(5WN)): licence lines start with two
 * spaces; each other line is "offset lex_filenum ss_type w_cnt(hex) word lex_id ... | gloss".
 */
export function parseWordnetData(text: string, pos: string): WordnetSynset[] {
  const synsets: WordnetSynset[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('  ') || line.trim() === '') continue;
    const bar = line.indexOf(' | ');
    if (bar < 0) continue;
    const fields = line.slice(0, bar).split(' ');
    const count = Number.parseInt(fields[3] ?? '', 16);
    if (!Number.isFinite(count)) continue;
    const lemmas: string[] = [];
    for (let i = 0; i < count; i++) {
      const word = fields[4 + 2 * i];
      if (word !== undefined) lemmas.push(word.replace(/\(\w+\)$/, '').replace(/_/g, ' '));
    }
    const gloss = line.slice(bar + 3).trim();
    const quoteAt = gloss.indexOf('"');
    const definition = (quoteAt >= 0 ? gloss.slice(0, quoteAt) : gloss).replace(/[;\s]+$/, '').trim();
    const examples = [...gloss.matchAll(/"([^"]+)"/g)].map((m) => m[1]!.trim());
    synsets.push({ id: `${pos}:${fields[0]}`, lemmas, definition, examples });
  }
  return synsets;
}
