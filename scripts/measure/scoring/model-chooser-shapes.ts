import { COLD_START_SHAPES, type ColdStartShape } from '../cold-start/cold-start-shapes.js';
import type { BenchMachine } from '../cold-start/bench-machine.js';

/** A served shape with what the chooser says of its quality (published for Hub models, measured for the default). */
export interface ChooserShape extends ColdStartShape {
  /** The Hub checkpoint with this shape, or the default's name. */
  readonly checkpoint: string;
  readonly quality: string;
  /** Slow shapes get fewer repetitions per size. */
  readonly slow?: boolean;
}

const QUALITY: Record<string, Pick<ChooserShape, 'checkpoint' | 'quality' | 'slow'>> = {
  default: {
    checkpoint: '`use-lite-bm25` (default, no download)',
    quality:
      'measured here: MRR@10 0.57-0.74 on three held-out sets, 0.747 unseen man pages (1 relevant in 20 BM25-mined candidates); English',
  },
  'tinybert-l2-int8': {
    checkpoint: '`cross-encoder/ms-marco-TinyBERT-L-2-v2` `:quantized`',
    quality: 'published fp32: nDCG@10 69.84 (TREC DL19), MRR@10 32.56 (MS MARCO dev); English',
  },
  'tinybert-l2-fp32': { checkpoint: '`cross-encoder/ms-marco-TinyBERT-L-2-v2`', quality: 'as above (fp32)' },
  'minilm-l6-int8': {
    checkpoint: '`cross-encoder/ms-marco-MiniLM-L-6-v2` `:quantized`',
    quality: 'published fp32: nDCG@10 74.30 (TREC DL19), MRR@10 39.01 (MS MARCO dev); English',
  },
  'minilm-l6-fp32': { checkpoint: '`cross-encoder/ms-marco-MiniLM-L-6-v2`', quality: 'as above (fp32)' },
  'xlmr-base-int8': {
    checkpoint: '`BAAI/bge-reranker-base` `:quantized`',
    quality: 'published fp32: MRR 34.6 (mMARCO zh dev), MAP 67.3 (T2Reranking); Chinese + English',
    slow: true,
  },
};

/** In table order (the default first): the cold-start bench's shapes that answer real rerank requests (the LLM yes/no fixture is a 2-layer test graph). */
export const CHOOSER_SHAPES: readonly ChooserShape[] = Object.keys(QUALITY).flatMap((id) => {
  const shape = COLD_START_SHAPES.find((s) => s.id === id);
  return shape === undefined ? [] : [{ ...shape, ...QUALITY[id]! }];
});

export interface ChooserRow {
  readonly shape: string;
  readonly threads: number;
  readonly documents: number;
  readonly samples: number;
  readonly wallP50Ms: number;
  readonly cpuP50Ms: number;
}

export interface ChooserRun {
  readonly date: string;
  readonly machine: BenchMachine;
  readonly load: { threads: number; start: number; end: number }[];
  readonly rows: ChooserRow[];
}
