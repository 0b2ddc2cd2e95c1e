import type { RerankMode, RerankModeName } from '../rerank-mode.js';
import { chatMode } from './chat-mode.js';
import { dashScopeMode } from './dashscope-mode.js';
import { openAiMode } from './openai-mode.js';

export const RERANK_MODES: Readonly<Record<RerankModeName, RerankMode>> = {
  openai: openAiMode,
  dashscope: dashScopeMode,
  chat: chatMode,
};

export const isRerankModeName = (value: unknown): value is RerankModeName =>
  typeof value === 'string' && Object.hasOwn(RERANK_MODES, value);
