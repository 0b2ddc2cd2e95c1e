import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVICE_VERSION } from '../../../shared/http/service-info.js';

describe('GET /info version', () => {
  it('is the version package.json has (bundles carry no package.json to read it from)', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(SERVICE_VERSION).toBe(pkg.version);
  });
});
