import { describe, expect, it } from 'vitest';
import * as direct from '../../../shared/client/index.js';
import * as viaPackage from 'rerank-service/client';

describe('package exports', () => {
  it('rerank-service/client is the client SDK', () => {
    expect(viaPackage.RerankClient).toBe(direct.RerankClient);
    expect(Object.keys(viaPackage).sort()).toEqual(Object.keys(direct).sort());
  });
});
