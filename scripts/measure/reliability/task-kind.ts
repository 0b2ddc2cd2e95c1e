/** What the chaos harness needs to know of a task message to inject its faults: its lane, its kind, a job chunk's query. */
export interface TaskInfo {
  readonly lane: 'jobs' | 'batches';
  /** chunk / finish / plan / finalize. */
  readonly kind: 'chunk' | 'finish' | 'plan' | 'finalize';
  /** A job chunk's index and query (where a poisoned job names its bad chunk). */
  readonly chunkIndex?: number;
  readonly query?: string;
}

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const field = (value: unknown, name: string): unknown => (isObject(value) ? value[name] : undefined);

/**
 * Reads a task message body in any wire form the engine sends or still reads: the envelope (`owner`, `kind`, `chunk`,
 * `candidates`) or the two older forms (a job's ChunkTask / its finish as `{kind: 'merge', jobId}`, a batch's BatchTask). The harness
 * reads the JSON itself, so its faults stay independent of the codec under test; undefined = not a task.
 */
export function taskInfo(body: string): TaskInfo | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  const owner = value['owner'];
  if (isObject(owner)) {
    const lane = typeof owner['job'] === 'string' ? 'jobs' : 'batches';
    const kind = value['kind'] as TaskInfo['kind'];
    const inline = field(value['candidates'], 'inline');
    const chunkIndex = field(value['chunk'], 'index');
    const query = field(inline, 'query');
    return {
      lane,
      kind,
      ...(typeof chunkIndex === 'number' ? { chunkIndex } : {}),
      ...(typeof query === 'string' ? { query } : {}),
    };
  }
  if (typeof value['batchId'] === 'string') return { lane: 'batches', kind: value['kind'] as TaskInfo['kind'] };
  if (value['kind'] === 'merge') return { lane: 'jobs', kind: 'finish' };
  const { chunkIndex, query } = value;
  if (typeof chunkIndex !== 'number' || typeof query !== 'string') return undefined;
  return { lane: 'jobs', kind: 'chunk', chunkIndex, query };
}
