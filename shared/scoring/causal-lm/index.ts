export { type CausalLmReranker } from './causal-lm-reranker.js';
export { loadCausalLmReranker, type CausalLmRerankerOptions } from './load-causal-lm-reranker.js';
export { formatPair, QWEN3_RERANK_TEMPLATE, readLlmRerankTemplate, TEMPLATE_FILE, type LlmRerankTemplate } from './llm-rerank-template.js';
