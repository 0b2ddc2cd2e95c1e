import { existsSync, linkSync, mkdirSync, readdirSync, rmSync, statSync, copyFileSync } from 'node:fs';
import path from 'node:path';

/** One model shape the project serves, as the cold-start bench deploys it. */
export interface ColdStartShape {
  /** Short id, also the served model's id. */
  readonly id: string;
  /** What the report calls it. */
  readonly label: string;
  /** The built folder, relative to the checkout; absent = the service's default models (RERANK_MODELS unset). */
  readonly folder?: string;
  /** The one ONNX file a pulled folder of this variant holds (relative to the folder); absent = the folder as it is. */
  readonly onnxFile?: string;
  /** The model a request names (the default hybrid's id for the default models). */
  readonly model: string;
  /** How to build the folder when it is missing. */
  readonly build: string;
}

const RANDOM_SHAPES = 'python3 scripts/model/build-random-shapes.py (torch, transformers, onnx, onnxruntime)';
const XLMR_BASE = 'python3 scripts/model/build-xlmr-base-shape.py bench/.models/xlmr-base';

/** Every shape the bench measures, smallest first. The random-weight shapes load and run as the real checkpoints do. */
export const COLD_START_SHAPES: readonly ColdStartShape[] = [
  {
    id: 'tinybert-l2-fp32',
    label: 'TinyBERT-L2 fp32',
    folder: 'bench/.models/tinybert-l2',
    onnxFile: 'onnx/model.onnx',
    model: 'tinybert-l2-fp32',
    build: RANDOM_SHAPES,
  },
  {
    id: 'tinybert-l2-int8',
    label: 'TinyBERT-L2 int8',
    folder: 'bench/.models/tinybert-l2',
    onnxFile: 'onnx/model_quantized.onnx',
    model: 'tinybert-l2-int8',
    build: RANDOM_SHAPES,
  },
  {
    id: 'minilm-l6-fp32',
    label: 'MiniLM-L6 fp32',
    folder: 'bench/.models/minilm-l6',
    onnxFile: 'onnx/model.onnx',
    model: 'minilm-l6-fp32',
    build: RANDOM_SHAPES,
  },
  {
    id: 'minilm-l6-int8',
    label: 'MiniLM-L6 int8',
    folder: 'bench/.models/minilm-l6',
    onnxFile: 'onnx/model_quantized.onnx',
    model: 'minilm-l6-int8',
    build: RANDOM_SHAPES,
  },
  { id: 'xlmr-base-int8', label: 'XLM-R base int8', folder: 'bench/.models/xlmr-base/int8', model: 'xlmr-base-int8', build: XLMR_BASE },
  {
    id: 'default',
    label: 'default (use-lite + BM25 hybrid, with the TinyBERT fixture)',
    model: 'use-lite-bm25',
    build: 'in the repository',
  },
  {
    id: 'qwen3-yes-no',
    label: 'LLM yes/no fixture (Qwen3 shape)',
    folder: 'models/qwen3-reranker-fixture',
    model: 'qwen3-yes-no',
    build: 'in the repository',
  },
];

/** The shapes whose folder exists in this checkout (the default models always do). */
export function availableShapes(root: string, shapes: readonly ColdStartShape[] = COLD_START_SHAPES): ColdStartShape[] {
  return shapes.filter((s) => s.folder === undefined || existsSync(path.join(root, s.folder, s.onnxFile ?? '')));
}

function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/**
 * The folder a deployment of this shape would hold: a pulled variant keeps one ONNX file (model:pull --variant), so
 * a built folder with both is staged as links to its other files plus that one graph, under `stageRoot`.
 * Returns the folder to serve (absolute).
 */
export function stageShapeFolder(root: string, shape: ColdStartShape, stageRoot: string): string | undefined {
  if (shape.folder === undefined) return undefined;
  const source = path.join(root, shape.folder);
  if (shape.onnxFile === undefined) return source;
  const target = path.join(stageRoot, shape.id);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(path.join(target, path.dirname(shape.onnxFile)), { recursive: true });
  for (const name of readdirSync(source)) {
    if (statSync(path.join(source, name)).isFile()) linkOrCopy(path.join(source, name), path.join(target, name));
  }
  linkOrCopy(path.join(source, shape.onnxFile), path.join(target, shape.onnxFile));
  return target;
}

/** RERANK_MODELS for a shape served alone (undefined: the service's default list). */
export function modelsSpec(shape: ColdStartShape, folder: string | undefined): string | undefined {
  return folder === undefined ? undefined : `${shape.id}=${folder}`;
}
