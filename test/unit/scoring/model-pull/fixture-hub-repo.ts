import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FIXTURE_MODEL_DIR } from '../fixture-model.js';
import type { FakeRepo } from './fake-hub-server.js';

export const FIXTURE_COMMIT = 'b'.repeat(40);

const fixtureFile = (name: string): Buffer => readFileSync(path.join(FIXTURE_MODEL_DIR, name));

/** The committed TinyBERT-shaped fixture published the way the Hub's ONNX exports are (onnx/model_quantized.onnx on LFS). */
export function fixtureHubRepo(): FakeRepo {
  return {
    sha: FIXTURE_COMMIT,
    files: new Map([
      ['config.json', { content: fixtureFile('config.json'), lfs: false }],
      ['tokenizer.json', { content: fixtureFile('tokenizer.json'), lfs: false }],
      ['tokenizer_config.json', { content: fixtureFile('tokenizer_config.json'), lfs: false }],
      ['special_tokens_map.json', { content: fixtureFile('special_tokens_map.json'), lfs: false }],
      ['README.md', { content: fixtureFile('README.md'), lfs: false }],
      ['onnx/model_quantized.onnx', { content: fixtureFile('onnx/model_quantized.onnx'), lfs: true }],
    ]),
  };
}
