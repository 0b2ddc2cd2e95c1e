import { describe, expect, it } from 'vitest';
import { AlreadyExistsError } from '../../../shared/core/already-exists-error.js';
import { acceptWork, type AcceptSteps } from '../../../shared/engine/accept-work.js';

/** Steps that record the order they ran in; each test overrides what it exercises. */
function recorded(overrides: Partial<AcceptSteps<string>> = {}): { steps: AcceptSteps<string>; ran: string[] } {
  const ran: string[] = [];
  const step =
    <T>(name: string, value: T) =>
    async () => {
      ran.push(name);
      return value;
    };
  const steps: AcceptSteps<string> = {
    replay: step('replay', undefined),
    admit: step('admit', undefined),
    hold: step('hold', true),
    release: step('release', undefined),
    store: step('store', undefined),
    stored: async (error) => {
      ran.push('stored');
      throw error;
    },
    enqueue: step('enqueue', undefined),
    unqueued: step('unqueued', 'failed work'),
    accepted: step('accepted', 'work'),
    ...overrides,
  };
  return { steps, ran };
}

describe('acceptWork', () => {
  it('replays, admits, holds, stores, queues, answers - in that order', async () => {
    const { steps, ran } = recorded();
    expect(await acceptWork(steps)).toBe('work');
    expect(ran).toEqual(['replay', 'admit', 'hold', 'store', 'enqueue', 'accepted']);
  });

  it('answers a retry with the first create, taking nothing', async () => {
    const { steps, ran } = recorded({ replay: async () => 'first work' });
    expect(await acceptWork(steps)).toBe('first work');
    expect(ran).toEqual([]);
  });

  it('takes nothing when admission refuses', async () => {
    const { steps, ran } = recorded({
      admit: async () => {
        throw new Error('no such file');
      },
    });
    await expect(acceptWork(steps)).rejects.toThrow('no such file');
    expect(ran).toEqual(['replay']);
  });

  it('gives back the hold it took when the record could not be stored', async () => {
    const { steps, ran } = recorded({
      store: async () => {
        throw new Error('throttled');
      },
    });
    await expect(acceptWork(steps)).rejects.toThrow('throttled');
    expect(ran).toEqual(['replay', 'admit', 'hold', 'stored', 'release']);
  });

  it('keeps a hold it did not take (a racing retry holds it) when the store fails', async () => {
    const { steps, ran } = recorded({
      hold: async () => false,
      store: async () => {
        throw new Error('throttled');
      },
    });
    await expect(acceptWork(steps)).rejects.toThrow('throttled');
    expect(ran).not.toContain('release');
  });

  it('gives back the hold it took when the id is taken by a record that is not this work (an expired job under the key)', async () => {
    const { steps, ran } = recorded({
      store: async () => {
        throw new AlreadyExistsError('job', 'j1');
      },
    });
    await expect(acceptWork(steps)).rejects.toBeInstanceOf(AlreadyExistsError);
    expect(ran).toEqual(['replay', 'admit', 'hold', 'stored', 'release']);
  });

  it('keeps a hold it did not take when the id is taken (the record that exists holds it)', async () => {
    const { steps, ran } = recorded({
      hold: async () => false,
      store: async () => {
        throw new AlreadyExistsError('job', 'j1');
      },
    });
    await expect(acceptWork(steps)).rejects.toBeInstanceOf(AlreadyExistsError);
    expect(ran).not.toContain('release');
  });

  it('answers the racing retry its store step finds', async () => {
    const { steps, ran } = recorded({
      store: async () => {
        throw new AlreadyExistsError('batch', 'b1');
      },
      stored: async () => 'raced work',
    });
    expect(await acceptWork(steps)).toBe('raced work');
    expect(ran).not.toContain('enqueue');
  });

  it('queues a record that is its own (a write applied, its answer lost)', async () => {
    const { steps, ran } = recorded({
      store: async () => {
        throw new AlreadyExistsError('batch', 'b1');
      },
      stored: async () => 'ours',
    });
    expect(await acceptWork(steps)).toBe('work');
    expect(ran).toContain('enqueue');
  });

  it('ends the work failed when its first tasks cannot be queued', async () => {
    const { steps, ran } = recorded({
      enqueue: async () => {
        throw new Error('queue down');
      },
    });
    expect(await acceptWork(steps)).toBe('failed work');
    expect(ran).toEqual(['replay', 'admit', 'hold', 'store', 'unqueued']);
  });
});
