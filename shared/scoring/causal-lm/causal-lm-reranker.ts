import { FAMILY_CONTROLS } from '../../core/request-controls.js';
import type { ScoreBatch, ScoreOptions, Scorer } from '../../core/scorer.js';
import { CostMeter, paceWarmUpDocument } from '../cost-meter.js';
import { lengthBatches, type BatchLimits } from '../length-batches.js';
import { mapInSlices } from '../map-in-slices.js';
import type { OnnxSession } from '../onnx-runtime/onnx-session.js';
import { cutForTemplate, withWindowCuts } from './cut-prompt-texts.js';
import type { LlmRerankTemplate } from './llm-rerank-template.js';
import type { PromptEncoder } from './prompt-encoder.js';
import type { YesNoMargins } from './yes-no-margins.js';

export interface CausalLmReranker extends Scorer {
  readonly scoreKind: 'logit';
  readonly maxLength: number;
  readonly inputNames: readonly string[];
  readonly template: LlmRerankTemplate;
  /** Token ids of one prompt exactly as they are fed (exposed for parity tests). */
  encode(query: string, document: string, instruction?: string): number[];
  /** Every document's prompt for one request, the shared instruction and query tokenized once (equal to `encode` each). */
  encodeRequest(query: string, documents: readonly string[], instruction?: string): number[][];
  /** Seconds these texts would take at this machine's measured pace (from load: measurePaceAtLoad). */
  estimateSeconds(query: string, documents: readonly string[]): number | undefined;
  close(): Promise<void>;
}

/** What a loaded causal-LM reranker is made of (load-causal-lm-reranker.ts builds it). */
export interface CausalLmParts {
  readonly id: string;
  readonly template: LlmRerankTemplate;
  readonly maxLength: number;
  readonly inputNames: readonly string[];
  readonly prompts: PromptEncoder;
  readonly margins: YesNoMargins;
  readonly session: OnnxSession;
  readonly limits: BatchLimits;
}

/** An LLM reranker scored from yes/no next-token logits: prompts in length batches, each batch one margin run. */
export class OnnxCausalLmReranker implements CausalLmReranker {
  readonly scoreKind = 'logit' as const;
  readonly usesInstruction = true;
  readonly controls = FAMILY_CONTROLS['llm-reranker'];
  readonly id: string;
  readonly template: LlmRerankTemplate;
  readonly maxLength: number;
  readonly inputNames: readonly string[];
  readonly #prompts: PromptEncoder;
  readonly #margins: YesNoMargins;
  readonly #session: OnnxSession;
  readonly #limits: BatchLimits;
  #closed = false;
  /** The measured pace behind estimateSeconds (prompts are long: the attention term dominates). */
  readonly #meter: CostMeter;
  /** True while the load's warm-up pair is scored: the meter keeps it only until a real request. */
  #warmingUp = false;

  constructor(parts: CausalLmParts) {
    this.id = parts.id;
    this.template = parts.template;
    this.maxLength = parts.maxLength;
    this.inputNames = parts.inputNames;
    this.#prompts = parts.prompts;
    this.#margins = parts.margins;
    this.#session = parts.session;
    this.#limits = parts.limits;
    this.#meter = new CostMeter(parts.maxLength, undefined);
  }

  encode(query: string, document: string, instruction?: string): number[] {
    return this.#prompts.encode(query, document, instruction);
  }

  encodeRequest(query: string, documents: readonly string[], instruction?: string): number[][] {
    return [...this.#prompts.encodeEach(query, documents, instruction)];
  }

  async score(query: string, documents: readonly string[], options?: ScoreOptions): Promise<ScoreBatch> {
    if (this.#closed) throw new Error(`scorer ${this.id} is closed`);
    // Long prompts take tens of ms each to tokenize: yield to the event loop every few of them, so /health and other
    // requests are answered while a large request is being prepared (30 x 65,000 characters took 1.3 s in one piece).
    const texts = cutForTemplate(this.#prompts.templateCut(options?.instruction), query, documents, options ?? {});
    const encoded = this.#prompts.encodeEach(texts.query, texts.documents, options?.instruction);
    const prompts = await mapInSlices(encoded, (p) => p, options?.signal);
    const lengths = prompts.map((p) => p.length);
    const scores = new Array<number>(documents.length);
    const started = performance.now();
    for (const batch of lengthBatches(lengths, this.#limits)) {
      options?.signal?.throwIfAborted(); // past the deadline no further batch starts
      const results = await this.#margins.run(batch.map((index) => prompts[index]!));
      batch.forEach((index, i) => (scores[index] = results[i]!));
    }
    this.#meter.record(lengths, (performance.now() - started) / 1000, this.#warmingUp);
    const cuts = withWindowCuts(texts.cuts, lengths, this.maxLength, texts.window);
    return { scores, tokens: lengths.reduce((sum, n) => sum + n, 0), ...(cuts ? { cuts } : {}) };
  }

  estimateSeconds(query: string, documents: readonly string[]): number | undefined {
    return this.#meter.estimateSeconds(query, documents);
  }

  /**
   * Measures the pace before the first request: one short untimed run first (a fresh session's first run pays
   * its allocations, which would overstate the pace), then the timed ~128-token warm-up pair.
   */
  async measurePace(): Promise<void> {
    this.#warmingUp = true;
    try {
      await this.#margins.run([this.encode('pace', 'pace')]);
      await this.score('pace', [paceWarmUpDocument()]);
    } finally {
      this.#warmingUp = false;
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#session.release();
  }
}
