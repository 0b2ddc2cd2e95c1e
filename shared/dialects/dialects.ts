import { chatDialect } from './chat/chat-dialect.js';
import { dashScopeDialect } from './dashscope/dashscope-dialect.js';
import type { Dialect, DialectName } from './dialect.js';
import { openAiDialect } from './openai/openai-dialect.js';

/** Every dialect by name: a job remembers the name it was submitted in and is formatted back in it. */
export const DIALECTS: Readonly<Record<DialectName, Dialect>> = {
  openai: openAiDialect,
  dashscope: dashScopeDialect,
  chat: chatDialect,
};
