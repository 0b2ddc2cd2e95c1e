import type { Tokenizer } from '@huggingface/tokenizers';
import { ModelFolderError } from '../model-folder.js';
import type { TemplateCut } from './cut-prompt-texts.js';
import { formatPair, type LlmRerankTemplate } from './llm-rerank-template.js';

/**
 * A causal-LM reranker's prompts as token ids: the template's fixed prefix and suffix around the formatted
 * (instruction, query, document) pair, the pair cut at its end to the model's window.
 */
export class PromptEncoder {
  readonly #template: LlmRerankTemplate;
  readonly #tokenizer: Tokenizer;
  readonly #prefixIds: number[];
  readonly #suffixIds: number[];
  /** Tokens left for the formatted pair once the template's prefix and suffix are in. */
  readonly #budget: number;

  constructor(id: string, template: LlmRerankTemplate, maxLength: number, tokenizer: Tokenizer) {
    this.#template = template;
    this.#tokenizer = tokenizer;
    this.#prefixIds = this.#ids(template.prefix);
    this.#suffixIds = this.#ids(template.suffix);
    this.#budget = maxLength - this.#prefixIds.length - this.#suffixIds.length;
    if (this.#prefixIds.length + this.#suffixIds.length + 1 > maxLength) {
      throw new ModelFolderError(`model ${id}: the prompt template alone is longer than the max length ${maxLength}`);
    }
  }

  #ids(text: string): number[] {
    return this.#tokenizer.encode(text, { add_special_tokens: false }).ids;
  }

  encode(query: string, document: string, instruction?: string): number[] {
    // The whole formatted pair is tokenized as one text (byte-level BPE merges across the boundaries) and cut
    // at its end, as the reference code's tokenizer(..., truncation=True, max_length=budget) does.
    const body = this.#ids(formatPair(this.#template, instruction, query, document)).slice(0, this.#budget);
    return [...this.#prefixIds, ...body, ...this.#suffixIds];
  }

  /**
   * Every document's prompt, one at a time (so a caller can let other requests in between long documents), with the
   * part they share (instruction and query) tokenized once per request instead of once per document: a long
   * instruction cost its length times the documents. The shared head ends where the pre-tokenizer splits anyway
   * (before the whitespace leading into the document), and the first document's ids are checked against tokenizing
   * its pair whole; a template where they differ is tokenized whole.
   */
  *encodeEach(query: string, documents: readonly string[], instruction?: string): Generator<number[]> {
    if (documents.length === 0) return;
    const marker = '\u0000document\u0000';
    const shape = formatPair(this.#template, instruction, query, marker);
    const at = shape.indexOf(marker);
    const head = shape.slice(0, at).trimEnd();
    const gap = shape.slice(head.length, at);
    const after = shape.slice(at + marker.length);
    // A template that does not split at the document (or splits differently than the whole pair): tokenized whole.
    const split = at >= 0 && shape.indexOf(marker, at + 1) < 0;
    const headIds = split ? this.#ids(head) : [];
    const body = (document: string) => [...headIds, ...this.#ids(`${gap}${document}${after}`)].slice(0, this.#budget);
    const first = split ? body(documents[0]!) : [];
    const check = split ? this.#ids(formatPair(this.#template, instruction, query, documents[0]!)).slice(0, this.#budget) : [];
    if (!split || first.length !== check.length || first.some((id, i) => id !== check[i])) {
      for (const document of documents) yield this.encode(query, document, instruction);
      return;
    }
    for (let i = 0; i < documents.length; i++) yield [...this.#prefixIds, ...(i === 0 ? first : body(documents[i]!)), ...this.#suffixIds];
  }

  /** What cutting a request's texts needs of this model: its tokenizer, the window left by the prompt's fixed parts. */
  templateCut(instruction: string | undefined): TemplateCut {
    return {
      tokens: { ids: (text) => this.#ids(text), text: (ids) => this.#tokenizer.decode([...ids]) },
      budget: this.#budget,
      emptyPrompt: (query) => formatPair(this.#template, instruction, query, ''),
    };
  }
}
