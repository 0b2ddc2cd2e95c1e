import { describe, expect, it } from 'vitest';
import { CONTEXT_PREFIX, DEFAULT_RERANK_SETTINGS, readRerankSettings, RerankSettingsError, threadsForMemory } from '../../infra/config/rerank-settings.js';
import { cdkJsonContext } from './support/synth-rerank.js';

const fromContext = (context: Record<string, unknown>) => readRerankSettings((key) => context[key]);

describe('rerank cdk context', () => {
  it('cdk.json documents exactly the defaults (modelId defaults to the model folder name)', () => {
    const rerankKeys = Object.fromEntries(
      Object.entries(cdkJsonContext())
        .filter(([key]) => key.startsWith(CONTEXT_PREFIX))
        .map(([key, value]) => [key.slice(CONTEXT_PREFIX.length), value]),
    );
    const { modelId, ...documented } = DEFAULT_RERANK_SETTINGS;
    expect(rerankKeys).toEqual(documented);
    expect(fromContext(cdkJsonContext())).toEqual(DEFAULT_RERANK_SETTINGS);
    expect(modelId).toBe('tinybert-l2-fixture');
  });

  it('reads -c overrides, which arrive as strings', () => {
    const settings = fromContext({
      'rerank:apiMemoryMb': '4096',
      'rerank:pointInTimeRecovery': 'true',
      'rerank:architecture': 'x86_64',
      'rerank:modelFolder': 'models/minilm-l6',
    });
    expect(settings).toMatchObject({ apiMemoryMb: 4096, pointInTimeRecovery: true, architecture: 'x86_64', modelId: 'minilm-l6' });
  });

  it.each([
    ['rerank:apiMemoryMb', '100'],
    ['rerank:architecture', 'mips'],
    ['rerank:pointInTimeRecovery', 'yes'],
    ['rerank:workerMaxConcurrency', 1],
    ['rerank:logRetentionDays', 2],
    ['rerank:apiTimeoutSeconds', 30],
    ['rerank:apiKeysSecretArn', 'my-secret'],
    ['rerank:modelFolder', 'a=b'],
  ])('rejects %s = %s naming the key', (key, value) => {
    expect(() => fromContext({ [key]: value })).toThrow(RerankSettingsError);
    expect(() => fromContext({ [key]: value })).toThrow(key);
  });

  it('keeps the job wait inside the API timeout (HTTP API integrations stop at 30 s)', () => {
    expect(() => fromContext({ 'rerank:jobWaitMs': 27_000 })).toThrow(/jobWaitMs/);
    expect(fromContext({ 'rerank:jobWaitMs': 26_000 }).jobWaitMs).toBe(26_000);
  });

  it('needs a batching window for worker batches above 10', () => {
    expect(() => fromContext({ 'rerank:workerBatchSize': 20 })).toThrow(/workerBatchingWindowSeconds/);
    expect(fromContext({ 'rerank:workerBatchSize': 20, 'rerank:workerBatchingWindowSeconds': 1 }).workerBatchSize).toBe(20);
  });

  it('gives the scorer one thread per vCPU of the memory size (1,769 MB each, at most 6)', () => {
    expect([512, 1769, 1770, 3008, 3538, 5308, 10_240].map(threadsForMemory)).toEqual([1, 1, 2, 2, 2, 4, 6]);
  });
});
