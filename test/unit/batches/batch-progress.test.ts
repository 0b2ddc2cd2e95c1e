import { afterEach, describe, expect, it } from 'vitest';
import { createPrometheusExporter, type PrometheusExporter } from '../../../shared/adapters/local/prometheus-exporter.js';
import { keyIdOf } from '../../../shared/auth/api-key.js';
import type { Scorer } from '../../../shared/core/scorer.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/index.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { batchTestRuntime, createBatchFromFile, type BatchTestRuntime } from '../../support/batch-test-runtime.js';
import { openAiBatchSchemaErrors } from '../../support/openai-batch-schemas.js';
import { prometheusSamples } from '../../support/prometheus-samples.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = Record<string, any>;
const A = keyIdOf('key-a');

let exporter: PrometheusExporter | undefined;
afterEach(() => exporter?.close());

async function getBatch(rt: BatchTestRuntime, id: string): Promise<Loose> {
  const response = await rt.app.handle(
    apiGatewayEvent({ method: 'GET', path: `/v1/batches/${id}`, headers: { authorization: 'Bearer key-a' } }),
  );
  const body = JSON.parse(response.body as string) as Loose;
  // Still OpenAI's batch object: the extension is one more field beside request_counts.
  expect(openAiBatchSchemaErrors('Batch', body)).toEqual([]);
  return body;
}

/** A model with no stored form (it scores texts only), so the chunks below encode their documents. */
const lengthModel: Scorer = {
  id: 'len',
  scoreKind: 'similarity',
  candidateRelative: false,
  score: async (_q, docs) => ({ scores: docs.map((d) => d.length), tokens: docs.length }),
};

describe('progress inside a line', () => {
  it.each([
    ['bm25 (its corpus analysed by these chunks)', 'bm25', 'analysed'],
    ['a model without a stored form (documents encoded)', 'len', 'encoded'],
  ])('moves chunk by chunk while one long corpus line runs, and /metrics counts the chunks: %s', async (_name, model, source) => {
    exporter = createPrometheusExporter();
    // A task per shard (no spans), so the one line has many chunks to move through.
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' }), lengthModel], { chunkCost: 40, corpusShardsPerTask: 1 });
    const corpus = await rt.files.put(
      A,
      'corpus.jsonl',
      'user_data',
      Array.from({ length: 60 }, (_, i) => JSON.stringify(`python http library number ${i} with some words`)).join('\n'),
    );
    const input = await rt.files.put(
      A,
      'in.jsonl',
      'batch',
      JSON.stringify({
        custom_id: 'long',
        method: 'POST',
        url: '/v1/rerank',
        body: { model, query: 'python http', documents_file_id: corpus.id, top_n: 3 },
      }) + '\n',
    );
    const id = await createBatchFromFile(rt, input.id);
    await rt.queue.run((t) => t.kind === 'plan');
    const chunks = rt.queue.tasks.filter((t) => t.kind === 'chunk').length;
    expect(chunks).toBeGreaterThan(4);

    const seen: number[] = [];
    for (let i = 0; i < chunks - 1; i++) {
      // One chunk task at a time, as a worker takes them.
      const [task] = rt.queue.tasks.splice(
        rt.queue.tasks.findIndex((t) => t.kind === 'chunk'),
        1,
      );
      await rt.engine.handle(task!);
      const batch = await getBatch(rt, id);
      // OpenAI's request_counts keep their meaning: the one line has not finished.
      expect(batch['request_counts']).toEqual({ total: 1, completed: 0, failed: 0 });
      expect(batch['progress']['total_chunks']).toBe(chunks);
      seen.push(batch['progress']['completed_chunks'] as number);
      expect(batch['progress']['fraction']).toBeCloseTo((i + 1) / chunks, 4);
    }
    expect(seen).toEqual(Array.from({ length: chunks - 1 }, (_, i) => i + 1));
    await rt.queue.run();
    const done = await getBatch(rt, id);
    expect(done['status']).toBe('completed');
    expect(done['progress']).toEqual({ fraction: 1 });
    const metrics = prometheusSamples((await exporter.render()).body);
    expect(metrics.get(`rerank_batch_chunks_total{source="${source}"}`)).toBe(chunks);
    expect(metrics.get(`rerank_batch_chunk_documents_total{source="${source}"}`)).toBe(60);
  });
});
