/**
 * Builds eval/debian-descriptions.jsonl: Debian package synopses as queries, extended descriptions as
 * documents, with lexical hard negatives. Deterministic for a given status file and seed.
 *
 *   npm run eval:build-set [-- --status /var/lib/dpkg/status --out eval/debian-descriptions.jsonl --queries 200 --negatives 19 --seed 3]
 *
 * The built set is committed because the source differs between machines (it lists the packages
 * installed on the machine; small CI images have few), so rebuilding elsewhere gives another set.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { bm25Scores } from '../../shared/scoring/lexical/bm25-scorer.js';
import { tokenizeLexical } from '../../shared/scoring/lexical/lexical-tokenizer.js';
import { parseDebianDescriptions, type DebianDescription } from './debian-descriptions.js';
import { UNSTEMMED } from './mine-candidates.js';
import { formatRelevanceSet, type RelevanceQuery } from './relevance-set.js';
import { queryWithoutNames } from './query-without-names.js';
import { hashSeed, seededRandom, shuffled } from './seeded-random.js';

const MIN_QUERY_TERMS = 2;
const MIN_DOCUMENT_TERMS = 15;

/** The synopsis without the package's own names (binary and source); see queryWithoutNames. */
export function queryFromSynopsis(description: Pick<DebianDescription, 'package' | 'source' | 'short'>): string {
  return queryWithoutNames(description.short, [description.package, description.source]);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      status: { type: 'string', default: '/var/lib/dpkg/status' },
      out: { type: 'string', default: 'eval/debian-descriptions.jsonl' },
      queries: { type: 'string', default: '200' },
      negatives: { type: 'string', default: '19' },
      seed: { type: 'string', default: '3' },
    },
  });
  const queryCount = Number(values.queries);
  const negativeCount = Number(values.negatives);
  const seed = Number(values.seed);

  const all = parseDebianDescriptions(await readFile(values.status, 'utf8')).sort((a, b) => (a.package < b.package ? -1 : 1));
  // One document per distinct extended description (transitional and -dbg packages often share one):
  // an identical text can be neither a fair negative nor a unique answer.
  const byLong = new Map<string, DebianDescription[]>();
  for (const d of all) byLong.set(d.long, [...(byLong.get(d.long) ?? []), d]);
  const pool = all.filter((d) => byLong.get(d.long)![0] === d);
  const poolTerms = pool.map((d) => tokenizeLexical(d.long, UNSTEMMED));

  const queryCounts = new Map<string, number>();
  for (const d of pool) {
    const key = queryFromSynopsis(d).toLowerCase();
    queryCounts.set(key, (queryCounts.get(key) ?? 0) + 1);
  }
  const eligible = pool
    .map((d, index) => ({ d, index, query: queryFromSynopsis(d) }))
    .filter(
      ({ d, index, query }) =>
        byLong.get(d.long)!.length === 1 &&
        queryCounts.get(query.toLowerCase()) === 1 &&
        tokenizeLexical(query, UNSTEMMED).length >= MIN_QUERY_TERMS &&
        poolTerms[index]!.length >= MIN_DOCUMENT_TERMS,
    );
  if (eligible.length < queryCount)
    throw new Error(`only ${eligible.length} eligible packages in ${values.status}; asked for ${queryCount}`);
  if (pool.length <= negativeCount) throw new Error(`only ${pool.length} distinct descriptions; need more than ${negativeCount}`);

  const chosen = shuffled(eligible, seededRandom(seed))
    .slice(0, queryCount)
    .sort((a, b) => a.index - b.index);
  let randomFill = 0;
  let sameSource = 0;
  const queries: RelevanceQuery[] = chosen.map(({ d, index, query }) => {
    // Hard negatives: the other descriptions BM25 (IDF over the whole pool) ranks highest for the query.
    const scores = bm25Scores(tokenizeLexical(query, UNSTEMMED), poolTerms);
    const others = pool.map((_, i) => i).filter((i) => i !== index);
    const matching = others.filter((i) => scores[i]! > 0).sort((a, b) => scores[b]! - scores[a]! || a - b);
    const negatives = matching.slice(0, negativeCount);
    if (negatives.length < negativeCount) {
      // Too few lexical matches: fill with random other descriptions (counted in the meta line).
      const rest = shuffled(
        others.filter((i) => !negatives.includes(i)),
        seededRandom(hashSeed(d.package, seed)),
      );
      randomFill += negativeCount - negatives.length;
      negatives.push(...rest.slice(0, negativeCount - negatives.length));
    }
    sameSource += negatives.filter((i) => pool[i]!.source === d.source).length;
    const order = shuffled([index, ...negatives], seededRandom(hashSeed(`order:${d.package}`, seed)));
    return {
      id: d.package,
      query,
      documents: order.map((i) => pool[i]!.long),
      packages: order.map((i) => pool[i]!.package),
      relevant: [order.indexOf(index)],
    };
  });

  const meta = {
    description:
      'Debian package synopses (package and source names removed) as queries; the extended description of the same package ' +
      'is the one relevant document; the other candidates are the extended descriptions of other packages that BM25 ranks highest for the query.',
    source: `${values.status} (Debian bookworm packages installed on the build machine)`,
    licence:
      "Each description is part of its Debian package and is distributed under that package's licence (see /usr/share/doc/<package>/copyright); " +
      'they are used here only as short evaluation text.',
    builtBy: 'npm run eval:build-set (scripts/eval/build-relevance-set.ts)',
    seed,
    queries: queries.length,
    candidatesPerQuery: negativeCount + 1,
    distinctDescriptions: pool.length,
    eligibleQueries: eligible.length,
    randomFilledNegatives: randomFill,
    sameSourceNegatives: sameSource,
  };
  await writeFile(values.out, formatRelevanceSet({ meta, queries }));
  console.log(`wrote ${queries.length} queries x ${negativeCount + 1} candidates to ${values.out}`);
  console.log(JSON.stringify(meta, null, 2));
}

await main();
