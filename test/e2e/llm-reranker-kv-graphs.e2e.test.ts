import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { familyFolder, LLM_RERANKER_KV_FIXTURE, loadFamilyGolden, sigmoid, type LlmKvGolden } from '../unit/scoring/family-fixtures.js';
import { FP16_SCORE_TOLERANCE } from '../unit/scoring/llm-fp16-tolerances.js';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

// The HTTP API serves the Hub-shaped LLM reranker exports (KV-cache inputs; fp32, and fp16 as a folder pulled
// with `--variant fp16` holds it: model_fp16.onnx alone) with the scores transformers computes.
const TOLERANCE = 1e-4;
const FP16_FILE = 'onnx/model_fp16.onnx';
const golden = loadFamilyGolden<LlmKvGolden>(LLM_RERANKER_KV_FIXTURE);
const plain = golden.cases.find((c) => c.name === 'relevant')!;
const instructed = golden.cases.find((c) => c.name === 'custom-instruction')!;
let server: RunningServer;
let fp16Folder: string;

beforeAll(async () => {
  fp16Folder = await mkdtemp(path.join(tmpdir(), 'qwen3-kv-fp16-'));
  await mkdir(path.join(fp16Folder, 'onnx'));
  for (const name of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json', FP16_FILE]) {
    await copyFile(path.join(familyFolder(LLM_RERANKER_KV_FIXTURE), name), path.join(fp16Folder, name));
  }
  server = await startDevServer({ RERANK_MODELS: `qwen3-kv=${familyFolder(LLM_RERANKER_KV_FIXTURE)},qwen3-kv-fp16=${fp16Folder}` });
});

afterAll(async () => {
  await server?.stop();
  await rm(fp16Folder, { recursive: true, force: true });
});

async function post<T>(urlPath: string, body: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${server.url}${urlPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

type RerankBody = { results: { index: number; relevance_score: number }[] };

async function scores(model: string): Promise<{ withDefault: number; withInstruction: number; withoutInstruction: number }> {
  // Cohere-style /v1/rerank without an instruction, DashScope carrying one in parameters.instruct, and the
  // same document under the default instruction.
  const withDefault = await post<RerankBody>('/v1/rerank', { model, query: plain.query, documents: [plain.document] });
  const withInstruction = await post<{ output: RerankBody }>('/api/v1/services/rerank/text-rerank/text-rerank', {
    model,
    input: { query: instructed.query, documents: [instructed.document] },
    parameters: { instruct: instructed.instruction },
  });
  const withoutInstruction = await post<RerankBody>('/v1/rerank', { model, query: instructed.query, documents: [instructed.document] });
  expect([withDefault.status, withInstruction.status, withoutInstruction.status]).toEqual([200, 200, 200]);
  return {
    withDefault: withDefault.body.results[0]!.relevance_score,
    withInstruction: withInstruction.body.output.results[0]!.relevance_score,
    withoutInstruction: withoutInstruction.body.results[0]!.relevance_score,
  };
}

describe('the Hub-shaped Qwen3 reranker exports through the HTTP API', () => {
  it('serves the fp32 KV-cache graph as p(yes) like transformers, the instruction changing the score', async () => {
    // Act
    const got = await scores('qwen3-kv');

    // Assert
    expect(Math.abs(got.withDefault - plain.score)).toBeLessThan(TOLERANCE);
    expect(Math.abs(got.withInstruction - instructed.score)).toBeLessThan(TOLERANCE);
    expect(Math.abs(got.withInstruction - got.withoutInstruction)).toBeGreaterThan(1e-3);
  });

  it('serves a folder holding only the fp16 export: Python onnxruntime scores, within the fp16 bound of transformers', async () => {
    // Act
    const got = await scores('qwen3-kv-fp16');

    // Assert
    expect(Math.abs(got.withDefault - sigmoid(plain.onnxLogits[FP16_FILE]!))).toBeLessThan(TOLERANCE);
    expect(Math.abs(got.withInstruction - sigmoid(instructed.onnxLogits[FP16_FILE]!))).toBeLessThan(TOLERANCE);
    expect(Math.abs(got.withDefault - plain.score)).toBeLessThan(FP16_SCORE_TOLERANCE);
    expect(Math.abs(got.withInstruction - got.withoutInstruction)).toBeGreaterThan(1e-3);
  });
});
