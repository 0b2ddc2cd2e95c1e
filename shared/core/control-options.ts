import type { RequestControl, TruncationSide } from './request-controls.js';
import type { Scorer, ScoreOptions } from './scorer.js';

/** The controls a scorer uses: its declaration, or what its older flags say (countsTokens, usesInstruction). */
export function controlsOf(scorer: Pick<Scorer, 'controls' | 'countsTokens' | 'usesInstruction'>): readonly RequestControl[] {
  if (scorer.controls) return scorer.controls;
  return [...(scorer.usesInstruction ? (['instruction'] as const) : []), ...(scorer.countsTokens ? (['max_tokens_per_doc'] as const) : [])];
}

/** A request's controls as the scorer's options take them. */
export interface RequestedControls {
  readonly instruction?: string | undefined;
  readonly maxDocumentTokens?: number | undefined;
  readonly maxQueryTokens?: number | undefined;
  readonly truncationSide?: TruncationSide | undefined;
}

/**
 * The ScoreOptions a scorer gets for a request's controls: the token caps and the side only where the scorer's
 * tokenizer path applies them (Scorer.controls); a control it has no use for is left out, so it never changes a score,
 * and reported unused. The instruction is always handed over (a scorer without an instruction slot ignores it). The
 * sync path and the chunk workers both build their options here, so a job scores what the synchronous answer scores.
 */
export function controlOptions(
  scorer: Pick<Scorer, 'controls' | 'countsTokens' | 'usesInstruction'>,
  requested: RequestedControls,
): ScoreOptions {
  const used = controlsOf(scorer);
  const pick = <T>(control: RequestControl, value: T | undefined): T | undefined => (used.includes(control) ? value : undefined);
  const options = {
    instruction: requested.instruction,
    maxDocumentTokens: pick('max_tokens_per_doc', requested.maxDocumentTokens),
    maxQueryTokens: pick('max_tokens_per_query', requested.maxQueryTokens),
    truncationSide: pick('truncation_side', requested.truncationSide),
  };
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as ScoreOptions;
}
