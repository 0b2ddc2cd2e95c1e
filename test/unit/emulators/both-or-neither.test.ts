import { describe, expect, it } from 'vitest';
import { bothOrNeither } from '../../../scripts/emulators/both-or-neither.js';
import type { EmulatorHandle } from '../../../scripts/emulators/emulator-handle.js';

function handle(name: string, stopped: string[]): EmulatorHandle {
  return { endpoint: `http://127.0.0.1/${name}`, pid: 1, stop: async () => void stopped.push(name) };
}

describe('starting two emulators: both or neither', () => {
  it('stops the one that started when the other failed (before: it ran on with nobody holding its PID)', async () => {
    const stopped: string[] = [];
    const slow = new Promise<EmulatorHandle>((_, reject) => setTimeout(() => reject(new Error('moto not ready within 60000 ms')), 5));
    await expect(bothOrNeither(Promise.resolve(handle('dynamodb', stopped)), slow)).rejects.toThrow('moto not ready');
    expect(stopped).toEqual(['dynamodb']);
  });

  it('hands both back, none stopped, when both started', async () => {
    const stopped: string[] = [];
    const [a, b] = await bothOrNeither(Promise.resolve(handle('dynamodb', stopped)), Promise.resolve(handle('moto', stopped)));
    expect([a.endpoint, b.endpoint]).toEqual(['http://127.0.0.1/dynamodb', 'http://127.0.0.1/moto']);
    expect(stopped).toEqual([]);
  });
});
