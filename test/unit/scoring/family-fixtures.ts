import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The committed random-weight fixtures of each reranker family (scripts/model/build-family-fixtures.py). */
export const CROSS_ENCODER_FAMILIES = [
  'xlmr-fixture',
  'xlmr-2label-softmax-fixture',
  'xlmr-2label-sigmoid-fixture',
  'modernbert-fixture',
] as const;
export const LLM_RERANKER_FIXTURE = 'qwen3-reranker-fixture';
/** The same weights in the Hub exports' graph: KV-cache inputs, onnx/model.onnx (fp32) and onnx/model_fp16.onnx. */
export const LLM_RERANKER_KV_FIXTURE = 'qwen3-reranker-kv-fixture';

export const familyFolder = (name: string): string => path.join(root, 'models', name);

export interface CrossEncoderGoldenCase {
  readonly name: string;
  readonly query: string;
  readonly document: string;
  readonly tokens: number;
  readonly untruncatedTokens: number;
  /** null for pairs too long to be worth committing token by token. */
  readonly inputIds: number[] | null;
  /** The head's raw logits (PyTorch). */
  readonly logits: number[];
  /** sentence-transformers CrossEncoder.predict: the relevance probability. */
  readonly score: number;
}

export interface CrossEncoderGolden {
  readonly maxLength: number;
  readonly numLabels: number;
  readonly activation: string;
  readonly cases: CrossEncoderGoldenCase[];
}

export interface LlmGoldenCase {
  readonly name: string;
  readonly instruction: string | null;
  readonly query: string;
  readonly document: string;
  readonly tokens: number;
  readonly inputIds: number[] | null;
  /** logit(yes) - logit(no) at the last token. */
  readonly logit: number;
  /** p(yes), the Qwen3-Reranker model card's score. */
  readonly score: number;
}

export interface LlmGolden {
  readonly maxLength: number;
  readonly prefix: string;
  readonly suffix: string;
  readonly defaultInstruction: string;
  readonly cases: LlmGoldenCase[];
}

export interface LlmKvGoldenCase extends LlmGoldenCase {
  /** logit(yes) - logit(no) that Python onnxruntime computes with each graph (by file) from an empty cache. */
  readonly onnxLogits: Readonly<Record<string, number>>;
}

export interface LlmKvGolden extends LlmGolden {
  readonly graphs: readonly string[];
  readonly cases: LlmKvGoldenCase[];
}

/** Reference values written by scripts/model/family-golden.py (transformers / sentence-transformers). */
export function loadFamilyGolden<T = CrossEncoderGolden>(name: string): T {
  return JSON.parse(readFileSync(path.join(root, 'test', 'fixtures', 'model-families', `${name}.json`), 'utf8')) as T;
}

export const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));
