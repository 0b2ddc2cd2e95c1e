import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVED_FUSION_FILE, fusionFitTarget } from '../../../../scripts/eval/fusion-fit-target.js';

const root = path.resolve(import.meta.dirname, '../../../..');

describe('where fit-default-fusion.ts writes its fit', () => {
  it('never writes into the committed models/use-lite folder unless told where to put the fit', () => {
    expect(() => fusionFitTarget({ root, modelFolder: 'models/use-lite', write: false })).toThrow(
      /models\/use-lite is committed.*--fit-out/,
    );
    expect(() => fusionFitTarget({ root, modelFolder: path.join(root, 'models/use-lite/'), write: false })).toThrow(/--fit-out/);
  });

  it('writes a --fit-out file where it is named, even for the committed folder', () => {
    const target = fusionFitTarget({ root, modelFolder: 'models/use-lite', fitOut: 'eval/.cache/use-lite-fusion.json', write: false });

    expect(target).toEqual({ kind: 'file', path: path.join(root, 'eval/.cache/use-lite-fusion.json') });
  });

  it("keeps a fine-tuned model's fit beside it, where the eval's candidate row reads it", () => {
    expect(fusionFitTarget({ root, modelFolder: 'models/use-lite-tuned', write: false })).toEqual({
      kind: 'file',
      path: path.join(root, 'models/use-lite-tuned/fusion.json'),
    });
  });

  it('serves the fit with --write, and refuses --write together with --fit-out', () => {
    expect(fusionFitTarget({ root, modelFolder: 'models/use-lite', write: true })).toEqual({
      kind: 'served',
      path: path.join(root, SERVED_FUSION_FILE),
    });
    expect(() => fusionFitTarget({ root, modelFolder: 'models/use-lite', fitOut: 'x.json', write: true })).toThrow(/give one/);
  });
});
