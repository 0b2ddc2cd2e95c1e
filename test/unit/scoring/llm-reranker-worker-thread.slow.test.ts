import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCausalLmReranker, type CausalLmReranker } from '../../../shared/scoring/causal-lm/index.js';
import { familyFolder, LLM_RERANKER_FIXTURE, LLM_RERANKER_KV_FIXTURE } from './family-fixtures.js';

// The LLM reranker runs its graph on a worker thread by default (the event loop stays free during seconds-long runs);
// what crosses to the worker and back must not change a single score, on either graph shape and either precision.
const QUERY = 'how do I list open network ports';
const DOCUMENTS = [
  'ss -tulpn lists listening TCP and UDP sockets with the owning process',
  'netstat is deprecated on many distributions in favour of ss',
  'The recipe calls for two cups of flour and a pinch of salt',
  'lsof -i shows open internet files, which includes listening ports '.repeat(20),
];

for (const [fixture, variant] of [
  [LLM_RERANKER_FIXTURE, undefined],
  [LLM_RERANKER_KV_FIXTURE, undefined],
  [LLM_RERANKER_KV_FIXTURE, 'fp16'],
] as const) {
  describe(`${fixture}${variant ? ` (${variant})` : ''}: on a worker thread and in this thread`, () => {
    let onWorker: CausalLmReranker;
    let inThread: CausalLmReranker;

    beforeAll(async () => {
      const base = { id: 'llm', folder: familyFolder(fixture), threads: 1, ...(variant ? { variant } : {}), maxRunTokens: 64 };
      onWorker = await loadCausalLmReranker(base);
      inThread = await loadCausalLmReranker({ ...base, inWorkerThread: false });
    });
    afterAll(async () => {
      await Promise.all([onWorker.close(), inThread.close()]);
    });

    it('gives the same scores and token counts, instructed or not, in cache chunks or one run', async () => {
      for (const options of [undefined, { instruction: 'Given a shell question, find commands that answer it' }]) {
        const [a, b] = await Promise.all([onWorker.score(QUERY, DOCUMENTS, options), inThread.score(QUERY, DOCUMENTS, options)]);
        expect(a.tokens).toBe(b.tokens);
        expect(a.scores).toStrictEqual(b.scores);
        expect(a.scores.every(Number.isFinite)).toBe(true);
      }
    });

    it('refuses a run once closed', async () => {
      const scorer = await loadCausalLmReranker({ id: 'llm', folder: familyFolder(fixture), threads: 1, ...(variant ? { variant } : {}) });
      await scorer.close();
      await expect(scorer.score(QUERY, DOCUMENTS)).rejects.toThrow(/closed/);
    });
  });
}
