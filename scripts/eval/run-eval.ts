/**
 * Ranking quality of the scorers on the committed relevance set; prints a table and writes eval/report.md.
 *
 *   npm run eval [-- --set eval/debian-descriptions.jsonl --report eval/report.md --only bm25,random --k 10]
 *
 * Scorers come from EVAL_SCORERS (eval-scorers.ts); those whose model or module is missing are
 * listed as "not available". Scoring time excludes loading and one warm-up call per scorer.
 */
import { availableParallelism, cpus, loadavg, platform, release, totalmem } from 'node:os';
import { writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Scorer } from '../../shared/core/scorer.js';
import { EVAL_SCORERS, ScorerNotAvailable, type EvalScorerFactory } from './eval-scorers.js';
import { expectedRandomMetrics, ndcgAt, rankDocuments, reciprocalRankAt } from './ranking-metrics.js';
import { readRelevanceSet, type RelevanceQuery } from './relevance-set.js';

interface ScorerResult {
  readonly factory: EvalScorerFactory;
  readonly unavailable?: string;
  readonly mrr?: Estimate;
  readonly ndcg?: Estimate;
  readonly loadMs?: number;
  readonly scoreMs?: number;
  readonly tokens?: number;
}

interface Estimate {
  readonly mean: number;
  /** Half-width of the normal 95% confidence interval of the mean over queries. */
  readonly ci95: number;
}

function estimate(values: readonly number[]): Estimate {
  const n = values.length;
  const mean = values.reduce((s, v) => s + v, 0) / n;
  const variance = n > 1 ? values.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1) : 0;
  return { mean, ci95: 1.96 * Math.sqrt(variance / n) };
}

async function evaluate(scorer: Scorer, queries: readonly RelevanceQuery[], k: number): Promise<Omit<ScorerResult, 'factory' | 'loadMs'>> {
  const first = queries[0];
  if (first !== undefined) await scorer.score(first.query, first.documents); // warm-up (lazy init, caches)
  const mrr: number[] = [];
  const ndcg: number[] = [];
  let tokens = 0;
  let scoreMs = 0;
  for (const q of queries) {
    const started = performance.now();
    const batch = await scorer.score(q.query, q.documents);
    scoreMs += performance.now() - started;
    tokens += batch.tokens;
    const ranking = rankDocuments(batch.scores);
    const relevant = new Set(q.relevant);
    mrr.push(reciprocalRankAt(ranking, relevant, k));
    ndcg.push(ndcgAt(ranking, relevant, k));
  }
  return { mrr: estimate(mrr), ndcg: estimate(ndcg), scoreMs, tokens };
}

const fixed = (x: number, digits = 3): string => x.toFixed(digits);

function table(results: readonly ScorerResult[], queryCount: number, k: number): string {
  const rows = [
    `| scorer | MRR@${k} | nDCG@${k} | ms / query | total s | tokens | what it is |`,
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of results) {
    if (r.unavailable !== undefined) {
      rows.push(`| ${r.factory.name} | not available | | | | | ${r.unavailable} |`);
      continue;
    }
    rows.push(
      `| ${r.factory.name} | ${fixed(r.mrr!.mean)} ± ${fixed(r.mrr!.ci95)} | ${fixed(r.ndcg!.mean)} ± ${fixed(r.ndcg!.ci95)} | ` +
        `${fixed(r.scoreMs! / queryCount, 1)} | ${fixed(r.scoreMs! / 1000, 2)} | ${r.tokens} | ${r.factory.description} |`,
    );
  }
  return rows.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      set: { type: 'string', default: 'eval/debian-descriptions.jsonl' },
      report: { type: 'string', default: 'eval/report.md' },
      only: { type: 'string' },
      k: { type: 'string', default: '10' },
    },
  });
  const k = Number(values.k);
  const { meta, queries } = await readRelevanceSet(values.set);
  const only = values.only?.split(',').map((s) => s.trim());
  const factories = only === undefined ? EVAL_SCORERS : EVAL_SCORERS.filter((f) => only.includes(f.name));
  const candidates = queries[0]?.documents.length ?? 0;
  console.log(`${queries.length} queries x ${candidates} candidates from ${values.set}`);

  const loaded = new Map<string, Scorer>();
  const results: ScorerResult[] = [];
  for (const factory of factories) {
    let scorer: Scorer;
    const started = performance.now();
    try {
      scorer = await factory.load(loaded);
    } catch (error) {
      if (!(error instanceof ScorerNotAvailable)) throw error;
      console.log(`${factory.name}: not available (${error.message})`);
      results.push({ factory, unavailable: error.message });
      continue;
    }
    const loadMs = performance.now() - started;
    loaded.set(factory.name, scorer);
    const result = { factory, loadMs, ...(await evaluate(scorer, queries, k)) };
    results.push(result);
    console.log(`${factory.name}: MRR@${k} ${fixed(result.mrr!.mean)}  nDCG@${k} ${fixed(result.ndcg!.mean)}  ${fixed(result.scoreMs! / 1000, 2)} s`);
  }
  await Promise.all([...loaded.values()].map((scorer) => scorer.close?.()));

  const chance = expectedRandomMetrics(candidates, k);
  const rendered = table(results, queries.length, k);
  console.log(`\n${rendered}\n\nchance level (exact expectation): MRR@${k} ${fixed(chance.mrr)}, nDCG@${k} ${fixed(chance.ndcg)}`);

  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  // Timings are only comparable on a quiet machine; the load average at the end says whether it was.
  const load = loadavg().map((x) => fixed(x, 1)).join(' / ');
  const report = `# Ranking quality on Debian package descriptions

Generated by \`npm run eval\` (scripts/eval/run-eval.ts) on ${new Date().toISOString()}.

Machine: ${cpu}, ${availableParallelism()} CPUs available, ${fixed(totalmem() / 2 ** 30, 0)} GiB, ${platform()} ${release()}, Node ${process.version}.
Load average (1 / 5 / 15 min) when the run ended: ${load}; above the CPU count, other processes shared the CPUs and the timings are upper bounds.

## Set

\`${values.set}\`: ${queries.length} queries, ${candidates} candidates each, exactly one relevant (binary relevance).
Query = a Debian package's synopsis (short description) with the package's own binary and source names
removed; the relevant candidate is the same package's extended description; the ${candidates - 1} others are the
extended descriptions of other installed packages that BM25 (IDF over all ${String(meta['distinctDescriptions'] ?? '?')} distinct
descriptions) ranks highest for the query. Candidates are shuffled with a seeded PRNG. Built by
\`npm run eval:build-set\`; see eval/README.md for the source and licence.

## Results

${rendered}

± = half-width of the 95% confidence interval of the mean over the ${queries.length} queries.
Chance level (exact expectation for one relevant document among ${candidates}): MRR@${k} ${fixed(chance.mrr)}, nDCG@${k} ${fixed(chance.ndcg)}.
"ms / query" is scoring time for the ${candidates} candidates of one query (after one warm-up call, model loading excluded);
tokens = model tokens consumed over all queries (0 for token-free scorers).

## Reading it

- The negatives were MINED WITH BM25, so the set is adversarial to lexical scoring: every negative shares query
  words. The bm25 row is therefore a pessimistic figure for BM25 and a strong bar for a model (a model must beat
  lexical overlap to score well here). The scorer's request-local IDF (20 candidates) differs from the miner's
  pool-wide IDF, which is why it still finds the answer often.
- tinybert-l2-fixture has the real TinyBERT-L2 architecture and vocabulary with RANDOM weights: its row shows the
  pipeline runs end to end and what it costs, not a real cross-encoder's quality. Expect it near chance.
- Hybrid rows combine that fixture with BM25: with a random model, fusion can only dilute BM25; with a real
  model the same rows show what fusion adds.
- Rows marked "not available" have no model or loader on this machine (see the message).

## Reproduce

\`\`\`bash
npm ci
npm run eval                                   # all scorers; writes eval/report.md
npm run eval -- --only bm25,random             # a subset
npm run eval:build-set                         # rebuild the set from /var/lib/dpkg/status (differs per machine)
\`\`\`
`;
  await writeFile(values.report, report);
  console.log(`\nwrote ${values.report}`);
}

await main();
