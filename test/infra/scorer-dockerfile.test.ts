import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runtimeMajor, SCORER_ESBUILD, SCORER_RUNTIME } from '../../infra/packaging/scorer-esbuild.js';
import { imageHandler, SCORER_DOCKERFILE } from '../../infra/packaging/scorer-image.js';
import { parseDockerfile } from './support/dockerfile.js';
import { PROJECT_ROOT } from './support/synth-rerank.js';

/**
 * hadolint is in neither npm nor Debian's apt here, so the rules that matter for this image are checked directly
 * (README "Big models" also records a dockerfilelint run). That the COPY sources exist in the staged build context
 * is checked on a real staging, in scorer-image.test.ts.
 */
const dockerfile = parseDockerfile(readFileSync(path.join(PROJECT_ROOT, SCORER_DOCKERFILE), 'utf8'));

describe('container/Dockerfile', () => {
  it("builds on AWS's Lambda Node base image, pinned to the zip functions' runtime major", () => {
    expect(dockerfile.from).toHaveLength(1);
    const [image, tag] = dockerfile.from[0]!.split(':');
    expect(image).toBe('public.ecr.aws/lambda/nodejs');
    // A pinned tag (never `latest` or none): the image runs the Node the zip functions and esbuild's target name.
    expect(tag).toBe(String(runtimeMajor(SCORER_RUNTIME)));
    expect(SCORER_ESBUILD.target).toBe(`node${tag}`);
  });

  it("names the API bundle's module and export in CMD, in exec form (the other functions override it)", () => {
    // The export is `handler`, as the zip functions' Handler (`index.handler`) names it.
    expect(dockerfile.cmd).toEqual([imageHandler('functions/api/handler.ts')]);
    expect(dockerfile.cmd).toEqual(['functions/api/handler.handler']);
  });

  it('copies only from the build context into LAMBDA_TASK_ROOT, runs nothing and fetches nothing', () => {
    const keywords = dockerfile.instructions.map((i) => i.keyword);
    expect(keywords.filter((k) => !['FROM', 'COPY', 'ENV', 'CMD'].includes(k))).toEqual([]);
    expect(dockerfile.copyTargets.length).toBeGreaterThan(0);
    for (const target of dockerfile.copyTargets) expect(target.startsWith('${LAMBDA_TASK_ROOT}/')).toBe(true);
    for (const source of dockerfile.copySources) expect(source).not.toMatch(/^\/|\.\.|^https?:|\*/);
    expect(dockerfile.copySources).toEqual(['models', 'node_modules', 'functions']);
  });
});
