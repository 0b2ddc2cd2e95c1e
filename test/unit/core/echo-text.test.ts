import { describe, expect, it } from 'vitest';
import { ECHO_MAX_CHARS, echoText, MESSAGE_MAX_CHARS } from '../../../shared/core/echo-text.js';
import { RerankError } from '../../../shared/core/rerank-error.js';

describe('echoText', () => {
  it('keeps short text as sent and cuts long text to its first 256 characters and "..."', () => {
    expect(echoText('gpt-4o')).toBe('gpt-4o');
    expect(echoText('a'.repeat(ECHO_MAX_CHARS))).toBe('a'.repeat(ECHO_MAX_CHARS));
    expect(echoText('a'.repeat(ECHO_MAX_CHARS + 1))).toBe(`${'a'.repeat(ECHO_MAX_CHARS)}...`);
  });

  it('never ends in half a surrogate pair', () => {
    const cut = echoText(`${'a'.repeat(ECHO_MAX_CHARS - 1)}😀tail`);
    expect(cut).toBe(`${'a'.repeat(ECHO_MAX_CHARS - 1)}...`);
    expect(Buffer.from(cut, 'utf8').toString('utf8')).toBe(cut);
  });
});

describe('RerankError bounds every text it carries to a client', () => {
  it('cuts a message built without echoText, and a param naming a caller key', () => {
    const error = new RerankError('invalid_request', `field "${'k'.repeat(1_000_000)}" is unknown`, {
      param: `documents[0].${'k'.repeat(10_000)}`,
    });
    expect(error.publicMessage.length).toBe(MESSAGE_MAX_CHARS + 3);
    expect(error.param?.length).toBe(ECHO_MAX_CHARS + 3);
  });
});
