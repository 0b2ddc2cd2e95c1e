import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Real text for corpus tests: the committed Debian evaluation set, package synopses (its queries) and extended
 * descriptions (its documents), read from the checkout.
 */
export function debianEvalSet(): { readonly queries: string[]; readonly documents: string[] } {
  const entries = readFileSync(resolve(import.meta.dirname, '../../eval/debian-descriptions.jsonl'), 'utf8')
    .split('\n')
    .slice(1)
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { query: string; documents: string[] });
  return { queries: entries.map((e) => e.query), documents: [...new Set(entries.flatMap((e) => e.documents))] };
}
