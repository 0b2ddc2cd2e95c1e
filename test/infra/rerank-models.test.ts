import { describe, expect, it } from 'vitest';
import { bundledFolders, bundledModelsSpec, DeployModelsError, readDeployModels } from '../../infra/config/rerank-models.js';
import { loadServiceConfig } from '../../shared/config/service-config.js';
import { PROJECT_ROOT } from './support/synth-rerank.js';

const deploy = (context: Record<string, string>) => readDeployModels((key) => context[key], PROJECT_ROOT);

describe('rerank:models (cdk context, the RERANK_MODELS syntax)', () => {
  it('deploys exactly what npm start serves when nothing is set', () => {
    // Act
    const models = deploy({});

    // Assert
    expect(models.models).toEqual(loadServiceConfig({ RERANK_CODE_ROOT: PROJECT_ROOT }).models);
    expect(bundledModelsSpec(models)).toBe(
      'use-lite-bm25=hybrid:use-lite+bm25,use-lite=models/use-lite,bm25=lexical,tinybert-l2-fixture=models/tinybert-l2-fixture',
    );
    expect(bundledFolders(models).map((f) => f.target)).toEqual(['models/use-lite', 'models/tinybert-l2-fixture']);
  });

  it('takes folders, lexical and hybrids with the first as the default', () => {
    // Act
    const models = deploy({
      'rerank:models': 'xlmr=models/xlmr-fixture,bm25=lexical,blend=hybrid:xlmr+bm25,qwen3=models/qwen3-reranker-fixture',
    });

    // Assert
    expect(models.defaultId).toBe('xlmr');
    expect(bundledModelsSpec(models)).toBe('xlmr=models/xlmr,bm25=lexical,blend=hybrid:xlmr+bm25,qwen3=models/qwen3');
    expect(bundledFolders(models)).toEqual([
      { id: 'xlmr', source: `${PROJECT_ROOT}/models/xlmr-fixture`, target: 'models/xlmr' },
      { id: 'qwen3', source: `${PROJECT_ROOT}/models/qwen3-reranker-fixture`, target: 'models/qwen3' },
    ]);
  });

  it('makes -c rerank:modelId=use-lite-bm25 the default hybrid, without packaging a folder of that name', () => {
    // Act
    const models = deploy({ 'rerank:modelId': 'use-lite-bm25' });
    const fixtureFirst = deploy({ 'rerank:modelId': 'tinybert-l2-fixture' });

    // Assert
    expect(models.defaultId).toBe('use-lite-bm25');
    expect(bundledFolders(models).map((f) => f.id)).not.toContain('use-lite-bm25');
    expect(bundledModelsSpec(fixtureFirst).split(',')[0]).toBe('tinybert-l2-fixture=models/tinybert-l2-fixture');
  });

  it('still deploys one legacy rerank:modelFolder under its id', () => {
    // Act
    const models = deploy({ 'rerank:modelFolder': 'models/xlmr-fixture', 'rerank:modelId': 'bge-like' });

    // Assert
    expect(bundledModelsSpec(models)).toBe('bge-like=models/bge-like');
  });

  it.each([
    [{ 'rerank:modelId': 'no-such-model' }, /not one of the served models/],
    [{ 'rerank:models': 'a=hybrid:b+c' }, /names a model that is not listed/],
    [{ 'rerank:models': 'a=models/x', 'rerank:modelFolder': 'models/y' }, /not both/],
  ])('rejects %j with a clear message', (context, message) => {
    expect(() => deploy(context)).toThrow(DeployModelsError);
    expect(() => deploy(context)).toThrow(message);
  });
});
