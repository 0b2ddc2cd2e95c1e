/**
 * Seed 000/001's client (Lexilux, chat mode) reading a chat reply, step by step as the seeds describe it:
 * `choices[0].message.content` parsed as JSON; a direct list or a dict with `results` or `data`; `score` or
 * `relevance_score`; `index` or `document_index`, else the document text mapped back to its index; the
 * document a string or `{text}`/`{content}`; sorted by score descending; `top_k` applied; and, when its
 * caller asked for documents, a result without one is dropped.
 */
export type LexiluxResult = [index: number, score: number] | [index: number, score: number, document: string];

const documentText = (value: unknown): string | undefined => {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) {
    const { text, content } = value as { text?: unknown; content?: unknown };
    if (typeof text === 'string') return text;
    if (typeof content === 'string') return content;
  }
  return undefined;
};

export function parseLikeLexilux(
  reply: unknown,
  candidates: readonly string[],
  options: { includeDocs: boolean; topK?: number },
): LexiluxResult[] {
  const content = (reply as { choices: { message: { content: string } }[] }).choices[0]?.message.content ?? '';
  const parsed = JSON.parse(content) as unknown;
  const items: unknown[] = Array.isArray(parsed)
    ? parsed
    : ((parsed as { results?: unknown[]; data?: unknown[] }).results ?? (parsed as { data?: unknown[] }).data ?? []);
  const mentions: [number, number, string | undefined][] = [];
  for (const item of items) {
    if (Array.isArray(item)) {
      const [first, score] = item as [unknown, number];
      const index = typeof first === 'number' ? first : candidates.indexOf(String(first));
      if (index >= 0) mentions.push([index, score, typeof first === 'string' ? first : undefined]);
      continue;
    }
    const r = item as Record<string, unknown>;
    const score = Number(r['score'] ?? r['relevance_score']);
    const doc = documentText(r['document']);
    const rawIndex = r['index'] ?? r['document_index'];
    const index = typeof rawIndex === 'number' ? rawIndex : doc === undefined ? -1 : candidates.indexOf(doc);
    if (index >= 0) mentions.push([index, score, doc]);
  }
  mentions.sort((a, b) => b[1] - a[1]);
  const kept = options.topK === undefined ? mentions : mentions.slice(0, options.topK);
  if (!options.includeDocs) return kept.map(([index, score]) => [index, score]);
  return kept.filter((m): m is [number, number, string] => m[2] !== undefined).map(([index, score, doc]) => [index, score, doc]);
}
