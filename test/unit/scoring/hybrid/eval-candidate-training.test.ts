import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeCandidateTraining } from '../../../../scripts/eval/candidate-training.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'eval-candidate-training-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A model folder holding a training.json as train.py writes it. */
function folderWith(name: string, training: object): string {
  const folder = path.join(scratch, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'training.json'), JSON.stringify(training));
  return folder;
}

const hyperparameters = { mode: 'full', epochs: 3, lr: 0.001, body_lr: 2e-5, l2sp: 0.01, seed: 13, freeze_embeddings: true };

describe("the report names the candidate's design point", () => {
  it('says what was trained, at which rates and for how long, from training.json', () => {
    const folder = folderWith('full', { mode: 'full', best_epoch: 2, dev_mrr_before: 0.6229, dev_mrr_best: 0.6701, hyperparameters });

    expect(describeCandidateTraining(folder)).toBe(
      'mode full, InfoNCE: every weight but the token embeddings (frozen), head lr 0.001, body lr 0.00002, L2-SP 0.01, 3 epochs (kept epoch 2, dev MRR@10 0.623 -> 0.670), seed 13',
    );
  });

  it('tells a head-only run and an unfrozen full run apart', () => {
    const head = folderWith('head', { mode: 'head', best_epoch: 7, hyperparameters: { ...hyperparameters, mode: 'head', epochs: 10 } });
    const full = folderWith('full-unfrozen', {
      mode: 'full',
      best_epoch: 1,
      hyperparameters: { ...hyperparameters, freeze_embeddings: false },
    });

    expect(describeCandidateTraining(head)).toMatch(
      /^mode head, InfoNCE: the dense head only, lr 0.001, L2-SP 0.01, 10 epochs \(kept epoch 7\)/,
    );
    expect(describeCandidateTraining(full)).toMatch(/^mode full, InfoNCE: every weight, head lr 0.001, body lr 0.00002,/);
  });

  it('names the residual objective and its cosine scale', () => {
    const folder = folderWith('residual', {
      mode: 'head',
      best_epoch: 8,
      hyperparameters: { ...hyperparameters, mode: 'head', residual: 4.8 },
    });

    expect(describeCandidateTraining(folder)).toMatch(/^mode head, residual objective \(bm25 logit \+ 4.8 x cosine\): the dense head only/);
  });

  it('is undefined for a folder without training.json', () => {
    expect(describeCandidateTraining(path.join(scratch, 'nothing-here'))).toBeUndefined();
  });
});
