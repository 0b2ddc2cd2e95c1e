import { describe, expect, it } from 'vitest';
import { batchLineDialect } from '../../../shared/dialects/batch-line-admission.js';
import { DIALECTS } from '../../../shared/dialects/dialects.js';

describe('a batch line url names its dialect from DIALECTS', () => {
  it('maps every declared path of a queueable dialect to it, and nothing else', () => {
    // A prefixed dialect's paths are relative to the operator's prefix (Weaviate's `/rerank`): not batch urls.
    for (const dialect of Object.values(DIALECTS).filter((d) => d.underPrefix === undefined)) {
      for (const path of dialect.paths) expect(batchLineDialect(path)).toBe(dialect.queueable === false ? undefined : dialect);
    }
    expect(batchLineDialect('/rerank')).toBe(DIALECTS.openai);
    expect(Object.values(DIALECTS).some((dialect) => dialect.queueable === false)).toBe(true);
    for (const url of ['/v1/rerank/jobs', '/v1/batches', '/v1/models', '/nope', '']) expect(batchLineDialect(url)).toBeUndefined();
  });
});
