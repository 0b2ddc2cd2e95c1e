/**
 * Builds the multi-source relevance sets (eval/sets/<source>.json.gz) from text Debian installs:
 *
 * - debian:  package synopsis -> the package's extended description (TRAIN split only; the eval split is
 *            the committed eval/debian-descriptions.jsonl, whose packages are excluded here)
 * - info:    GNU info node title -> the node's text (documentation shipped by Debian packages)
 * - wordnet: a synset's words ("car, auto, automobile") -> its gloss (package wordnet-base)
 * - man:     a man page's NAME summary (its own names removed) -> its DESCRIPTION section. EVAL ONLY:
 *            man pages are the unseen check; nothing is trained or tuned on them.
 *
 * Each query has one relevant document and 19 BM25-mined negatives from the same source's pool
 * (mine-candidates.ts). Train and eval splits of a source share no query (a seeded shuffle of the
 * eligible queries, cut in two). Deterministic for the same installed files and seed.
 *
 *   npm run eval:build-sets [-- --seed 5 --train 300 --eval 200]
 */
import { readFileSync, readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { tokenizeLexical } from '../../shared/scoring/lexical/lexical-tokenizer.js';
import { parseDebianDescriptions } from './debian-descriptions.js';
import { UNSTEMMED, mineCandidates, type MiningStats, type PoolQuery } from './mine-candidates.js';
import { encodePooledSet, firstWords, type PooledSet, type SplitName } from './pooled-set.js';
import { queryWithoutNames } from './query-without-names.js';
import { readRelevanceSet } from './relevance-set.js';
import { seededRandom, shuffled } from './seeded-random.js';
import { parseInfoNodes } from './text-sources/info-pages.js';
import { parseManPage } from './text-sources/man-pages.js';
import { parseWordnetData } from './text-sources/wordnet-synsets.js';

const MAX_DOCUMENT_WORDS = 120;
const NEGATIVES = 19;

/** A source before mining: its pool of documents and, per pool entry that can be a query, the query. */
interface SourceDraft {
  readonly name: string;
  readonly description: string;
  readonly origin: string;
  readonly licence: string;
  readonly pool: readonly string[];
  /** Eligible queries (unique, long enough), relevant = pool index. */
  readonly eligible: readonly PoolQuery[];
  /** Splits to cut, in order; eval first so its size does not depend on the train size asked for. */
  readonly splits: readonly SplitName[];
}

const readText = (path: string): string =>
  path.endsWith('.gz') ? gunzipSync(readFileSync(path)).toString('utf8') : readFileSync(path, 'utf8');
const contentWords = (text: string): number => tokenizeLexical(text, UNSTEMMED).length;

/** Keeps the first pool entry per distinct document text and the queries whose lower-cased text is unique. */
function dedupe<T>(
  items: readonly T[],
  doc: (t: T) => string,
  query: (t: T) => string | undefined,
): { pool: string[]; eligible: PoolQuery[]; picked: T[] } {
  const seenDocs = new Map<string, number>();
  const picked: T[] = [];
  for (const item of items) {
    const d = doc(item);
    seenDocs.set(d, (seenDocs.get(d) ?? 0) + 1);
    if (seenDocs.get(d) === 1) picked.push(item);
  }
  const queryCounts = new Map<string, number>();
  for (const item of picked) {
    const q = query(item)?.toLowerCase();
    if (q !== undefined) queryCounts.set(q, (queryCounts.get(q) ?? 0) + 1);
  }
  const pool = picked.map(doc);
  const eligible: PoolQuery[] = [];
  picked.forEach((item, index) => {
    const q = query(item);
    if (q !== undefined && seenDocs.get(pool[index]!) === 1 && queryCounts.get(q.toLowerCase()) === 1)
      eligible.push({ id: String(index), query: q, relevant: index });
  });
  return { pool, eligible, picked };
}

async function debianSource(excluded: ReadonlySet<string>): Promise<SourceDraft> {
  const all = parseDebianDescriptions(readText('/var/lib/dpkg/status')).sort((a, b) => (a.package < b.package ? -1 : 1));
  const { pool, eligible, picked } = dedupe(
    all,
    (d) => d.long,
    (d) => {
      const q = queryWithoutNames(d.short, [d.package, d.source]);
      return !excluded.has(d.package) && contentWords(q) >= 2 && contentWords(d.long) >= 15 ? q : undefined;
    },
  );
  return {
    name: 'debian',
    description: "Debian package synopsis (the package's own names removed) -> the package's extended description",
    origin: '/var/lib/dpkg/status',
    licence: "each description is part of its Debian package, under that package's licence (/usr/share/doc/<package>/copyright)",
    pool: pool.map((d) => firstWords(d, MAX_DOCUMENT_WORDS)),
    eligible: eligible.map((q) => ({ ...q, id: picked[q.relevant]!.package })),
    splits: ['train'],
  };
}

function infoSource(): SourceDraft {
  const dir = '/usr/share/info';
  const byManual = new Map<string, string[]>();
  for (const file of readdirSync(dir).sort()) {
    const match = /^(.+?)\.info(?:-\d+)?(?:\.gz)?$/.exec(file);
    if (match === null) continue;
    byManual.set(match[1]!, [...(byManual.get(match[1]!) ?? []), join(dir, file)]);
  }
  const nodes = [...byManual].flatMap(([manual, files]) => parseInfoNodes(files.map(readText).join('\x1f'), manual));
  const usable = nodes.filter((n) => contentWords(n.body) >= 15);
  const { pool, eligible, picked } = dedupe(
    usable,
    (n) => firstWords(n.body, MAX_DOCUMENT_WORDS),
    (n) => (contentWords(n.title) >= 2 ? n.title : undefined),
  );
  return {
    name: 'info',
    description: 'GNU info manual node title (section number and quotes removed) -> the text of that node (first 120 words, menu dropped)',
    origin: `/usr/share/info (${byManual.size} manuals: ${[...byManual.keys()].join(', ')})`,
    licence: 'GNU manuals, GNU Free Documentation License or the licence stated in each manual',
    pool,
    eligible: eligible.map((q) => ({ ...q, id: `${picked[q.relevant]!.manual}:${picked[q.relevant]!.node}` })),
    splits: ['eval', 'train'],
  };
}

function wordnetSource(seed: number, poolSize: number): SourceDraft {
  const synsets = ['noun', 'verb', 'adj'].flatMap((pos) => parseWordnetData(readText(`/usr/share/wordnet/data.${pos}`), pos[0]!));
  const sampled = shuffled(synsets, seededRandom(seed)).slice(0, poolSize);
  const gloss = (s: (typeof synsets)[number]): string => [s.definition, ...s.examples].join('; ');
  const { pool, eligible, picked } = dedupe(
    sampled.filter((s) => contentWords(gloss(s)) >= 6),
    gloss,
    (s) => (s.lemmas.length >= 2 ? s.lemmas.join(', ') : undefined),
  );
  return {
    name: 'wordnet',
    description: 'the words of a WordNet synset ("car, auto, automobile, machine, motorcar") -> its gloss (definition; examples)',
    origin: `/usr/share/wordnet/data.{noun,verb,adj} (package wordnet-base), ${poolSize} synsets sampled`,
    licence: 'WordNet 3.0 licence (Princeton University), see /usr/share/doc/wordnet-base/copyright',
    pool,
    // Lemmas rarely occur in other glosses (half the negatives would be random): mine with the
    // definition too, so negatives are glosses about similar things.
    eligible: eligible.map((q) => ({ ...q, id: picked[q.relevant]!.id, mineWith: `${q.query} ${picked[q.relevant]!.definition}` })),
    splits: ['eval', 'train'],
  };
}

function manSource(seed: number, sampleSize: number): SourceDraft {
  const dir = '/usr/share/man/man1';
  // The Google Cloud SDK's thousands of generated gcloud_* pages would otherwise make up most of the sample.
  const files = shuffled(
    readdirSync(dir)
      .filter((f) => !f.startsWith('gcloud'))
      .sort(),
    seededRandom(seed),
  ).slice(0, sampleSize);
  const pages = files.flatMap((file) => {
    try {
      const page = parseManPage(readText(join(dir, file)), file.replace(/\.gz$/, '').replace(/\.[^.]+$/, ''));
      return page === null ? [] : [page];
    } catch {
      return [];
    }
  });
  const usable = pages.filter((p) => contentWords(p.description) >= 15);
  const { pool, eligible, picked } = dedupe(
    usable,
    (p) => firstWords(p.description, MAX_DOCUMENT_WORDS),
    (p) => {
      const q = queryWithoutNames(p.summary, p.names);
      return contentWords(q) >= 2 ? q : undefined;
    },
  );
  return {
    name: 'man',
    description:
      "man page NAME summary (the page's own names removed) -> its DESCRIPTION section (first 120 words). UNSEEN CHECK: never trained or tuned on",
    origin: `${dir}, ${sampleSize} pages sampled (gcloud_* pages excluded)`,
    licence: "each man page is part of its Debian package, under that package's licence",
    pool,
    eligible: eligible.map((q) => ({ ...q, id: picked[q.relevant]!.name })),
    splits: ['eval'],
  };
}

function cut(draft: SourceDraft, sizes: Record<SplitName, number>, seed: number): PooledSet {
  const order = shuffled(draft.eligible, seededRandom(seed));
  const stats: MiningStats = { randomFilledNegatives: 0 };
  const taken: { split: SplitName; q: PoolQuery }[] = [];
  let at = 0;
  for (const split of draft.splits) {
    for (const q of order.slice(at, at + sizes[split])) taken.push({ split, q });
    at += sizes[split];
  }
  const mined = mineCandidates(
    draft.pool,
    taken.map((t) => t.q),
    NEGATIVES,
    seed,
    stats,
  );
  // Store only the documents some query uses, re-indexed in first-use order.
  const index = new Map<number, number>();
  const documents: string[] = [];
  const queries = mined.map((m, i) => ({
    id: m.id,
    split: taken[i]!.split,
    query: m.query,
    candidates: m.candidates.map((c) => {
      if (!index.has(c)) index.set(c, documents.push(draft.pool[c]!) - 1);
      return index.get(c)!;
    }),
    relevant: [m.candidates.indexOf(m.relevant)],
  }));
  const counts = Object.fromEntries(draft.splits.map((s) => [s, queries.filter((q) => q.split === s).length]));
  const meta = {
    source: draft.name,
    description: draft.description,
    origin: draft.origin,
    licence: draft.licence,
    builtBy: 'npm run eval:build-sets (scripts/eval/build-source-sets.ts)',
    seed,
    candidatesPerQuery: NEGATIVES + 1,
    poolDocuments: draft.pool.length,
    eligibleQueries: draft.eligible.length,
    queries: counts,
    randomFilledNegatives: stats.randomFilledNegatives,
  };
  return { meta, documents, queries };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: 'eval/sets' },
      seed: { type: 'string', default: '5' },
      train: { type: 'string', default: '300' },
      eval: { type: 'string', default: '200' },
      only: { type: 'string' },
    },
  });
  const seed = Number(values.seed);
  const sizes = { train: Number(values.train), eval: Number(values.eval) };
  const debianEval = await readRelevanceSet('eval/debian-descriptions.jsonl');
  const builders: Record<string, () => Promise<SourceDraft> | SourceDraft> = {
    debian: () => debianSource(new Set(debianEval.queries.map((q) => q.id))),
    info: infoSource,
    wordnet: () => wordnetSource(seed, 8000),
    man: () => manSource(seed, 5000),
  };
  await mkdir(values.out, { recursive: true });
  for (const [name, build] of Object.entries(builders)) {
    if (values.only !== undefined && !values.only.split(',').includes(name)) continue;
    const set = cut(await build(), sizes, seed);
    const bytes = encodePooledSet(set);
    await writeFile(join(values.out, `${name}.json.gz`), bytes);
    console.log(
      `${name}: ${JSON.stringify(set.meta.queries)} queries, ${set.documents.length} documents, ${(bytes.length / 1024).toFixed(0)} KiB`,
    );
  }
}

await main();
