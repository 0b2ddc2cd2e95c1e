import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_PATH_CHARS, matchRoute, normalizePath } from '../../../shared/http/api-routes.js';

describe('route matching before auth', () => {
  it('strips trailing slashes exactly as the old regex did, for any path of slashes and letters', () => {
    const regex = (path: string): string => (path.length > 1 ? path.replace(/\/+$/, '') : path);
    fc.assert(
      fc.property(fc.stringMatching(/^\/[a-z/]{0,40}$/), (path) => {
        const expected = regex(path);
        // The old regex left '' for a path of slashes only; the scan keeps the root.
        expect(normalizePath(path)).toBe(expected === '' ? '/' : expected);
      }),
    );
  });

  it('matches a long run of slashes followed by another character without backtracking (the quadratic case)', () => {
    // 16,000 slashes then `x`: the old regex tried every start in the run (~0.15 s per request here); the scan is linear.
    const hostile = `/docs${'/'.repeat(16_000)}x`;
    expect(normalizePath(hostile)).toBe(hostile);
    expect(matchRoute('GET', hostile, hostile.length).found).toBe('none');
    expect(matchRoute('GET', `/docs${'/'.repeat(2_000)}`).found).toBe('route');
  });

  it(`refuses paths longer than ${DEFAULT_MAX_PATH_CHARS} characters before matching them, in the envelope of the path's prefix`, () => {
    const at = (length: number, prefix = '/v1/') => prefix + 'a'.repeat(length - prefix.length);
    expect(matchRoute('GET', at(DEFAULT_MAX_PATH_CHARS)).found).toBe('none');
    const refused = matchRoute('GET', at(DEFAULT_MAX_PATH_CHARS + 1));
    expect(refused).toMatchObject({ found: 'too-long', length: DEFAULT_MAX_PATH_CHARS + 1, maxPathChars: DEFAULT_MAX_PATH_CHARS });
    const dashScope = matchRoute('POST', at(DEFAULT_MAX_PATH_CHARS + 1, '/api/v1/services/'));
    expect(dashScope.found === 'too-long' && dashScope.errorDialect.name).toBe('dashscope');
    // The limit is configurable (RERANK_MAX_PATH_CHARS).
    expect(matchRoute('GET', '/health', 6).found).toBe('too-long');
    expect(matchRoute('GET', '/health', 7).found).toBe('route');
  });
});
