import { describe, expect, it } from 'vitest';
import { objectSchema } from '../../../shared/dialects/object-schema.js';

describe('objectSchema', () => {
  it('requires every property in the order listed, unless named optional', () => {
    const schema = objectSchema(
      { id: { type: 'string' }, score: { type: 'number' }, note: { type: 'string' } },
      { title: 'T', optional: ['note'] },
    );
    expect(schema).toEqual({
      title: 'T',
      type: 'object',
      required: ['id', 'score'],
      properties: { id: { type: 'string' }, score: { type: 'number' }, note: { type: 'string' } },
    });
  });

  it('leaves `required` out when every property is optional, and keeps a description', () => {
    const schema = objectSchema({ a: { type: 'integer' } }, { optional: ['a'], description: 'why' });
    expect(schema).toEqual({ type: 'object', properties: { a: { type: 'integer' } }, description: 'why' });
    expect('required' in schema).toBe(false);
  });

  it('refuses an optional name that is not a property (a typo would make a field silently required)', () => {
    expect(() => objectSchema({ a: { type: 'integer' } }, { optional: ['b'] })).toThrow(/optional names no property: b/);
  });
});
