export { loadCausalLmReranker, type CausalLmReranker, type CausalLmRerankerOptions } from './causal-lm-reranker.js';
export { formatPair, QWEN3_RERANK_TEMPLATE, readLlmRerankTemplate, TEMPLATE_FILE, type LlmRerankTemplate } from './llm-rerank-template.js';
