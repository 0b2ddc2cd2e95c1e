import { backgroundStatistics, type BackgroundStatistics } from '../../shared/scoring/lexical/background-idf.js';
import { lexicalFeatures, type LexicalFeatures } from '../../shared/scoring/lexical/lexical-features.js';
import { tokenizeLexical } from '../../shared/scoring/lexical/lexical-tokenizer.js';
import type { LogisticModel } from '../../shared/scoring/logistic-model.js';
import { backgroundTable } from './background-table.js';
import { bm25Model, fitBm25Calibration, type Bm25Fit } from './fit-bm25-calibration.js';

/** A train query of one source: its text, its candidates and the relevant one. */
export interface SourceQuery {
  readonly source: string;
  readonly query: string;
  readonly documents: readonly string[];
  readonly relevant: number;
}

/** Everything the served `bm25` learned from data: its IDF table and its calibrated logistic model. */
export interface LexicalSide {
  readonly background: BackgroundStatistics;
  readonly bm25: LogisticModel;
}

/** A fold's lexical side and the fit behind it (its k and cross-validated MRR, for the report). */
export interface HeldOutLexicalSide extends LexicalSide {
  readonly heldOut: string;
  readonly fit: Bm25Fit;
  readonly idfDocuments: number;
}

/** The pair's lexical features under a side's IDF (tokens as served: stemmed, stopwords dropped). */
export function lexicalFeaturesUnder(
  side: Pick<LexicalSide, 'background'>,
  query: string,
  documents: readonly string[],
): LexicalFeatures[] {
  const queryTerms = tokenizeLexical(query);
  return documents.map((d) => lexicalFeatures(queryTerms, tokenizeLexical(d), side.background));
}

/**
 * The served bm25's recipe (build-background-idf.ts, then fit-fusion.ts's fit) rerun WITHOUT one source:
 * the IDF table over the other sources' documents and the calibration over their train queries. With it
 * the held-out source's bm25 baseline and its bm25Logit feature are out of sample, as they are on text
 * the service has never seen; the served bm25 saw every training source's documents and labels.
 *
 * `idfDocuments` are the documents each source contributes to the IDF table (the committed table takes
 * every split's, labels unused); `trainQueries` those fitted on. Nothing of `heldOut` is read.
 */
export function fitLexicalSideWithout(
  heldOut: string,
  trainQueries: readonly SourceQuery[],
  idfDocuments: ReadonlyMap<string, readonly string[]>,
): HeldOutLexicalSide {
  const documents = [...idfDocuments].filter(([source]) => source !== heldOut).flatMap(([, docs]) => docs);
  const table = backgroundTable(documents);
  const background = backgroundStatistics(table);
  const kept = trainQueries.filter((q) => q.source !== heldOut);
  const fit = fitBm25Calibration(
    kept.map((q) => ({ lexical: lexicalFeaturesUnder({ background }, q.query, q.documents), relevant: q.relevant })),
  );
  const sources = [...new Set(kept.map((q) => q.source))];
  const bm25 = bm25Model(
    fit,
    `${kept.length} train queries of ${sources.join(', ')} (IDF over ${table.documents} of their documents); leave-one-source-out fold without ${heldOut}`,
  );
  return { heldOut, background, bm25, fit, idfDocuments: table.documents };
}
