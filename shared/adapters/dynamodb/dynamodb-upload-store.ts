import {
  GetItemCommand,
  QueryCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
  type AttributeValue,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { isConditionFailure } from './condition-failed.js';
import { FILE_PURPOSES, type FilePurpose } from '../../files/file-store.js';
import { UploadStateError, type UploadPart, type UploadRecord, type UploadStatus, type UploadStore } from '../../files/upload-store.js';
import { JOB_TABLE_PARTITION_KEY as PK, JOB_TABLE_SORT_KEY as SK, JOB_TABLE_TTL_ATTRIBUTE as TTL } from './job-table-keys.js';
import { pendingUploadsPk as pendingPk, uploadPk } from './upload-table-keys.js';

const META = 'META';
/** Items outlive their upload's hour by a day, then the table's TTL removes them. */
const KEEP_AFTER_EXPIRY_SECONDS = 86_400;

const s = (value: string): AttributeValue => ({ S: value });
const n = (value: number): AttributeValue => ({ N: String(value) });

const partItem = (part: UploadPart): AttributeValue => ({
  M: { id: s(part.id), fileId: s(part.fileId), bytes: n(part.bytes), createdAt: n(part.createdAt) },
});

function partOf(value: AttributeValue): UploadPart {
  const m = value.M ?? {};
  return { id: m['id']?.S ?? '', fileId: m['fileId']?.S ?? '', bytes: Number(m['bytes']?.N), createdAt: Number(m['createdAt']?.N) };
}

function recordOf(id: string, item: Record<string, AttributeValue>): UploadRecord | undefined {
  const purpose = item['purpose']?.S;
  if (purpose === undefined || !(FILE_PURPOSES as readonly string[]).includes(purpose)) return undefined;
  const fileId = item['fileId']?.S;
  return {
    id,
    ownerKeyId: item['owner']?.S ?? '',
    filename: item['filename']?.S ?? '',
    purpose: purpose as FilePurpose,
    bytes: Number(item['bytes']?.N),
    mimeType: item['mimeType']?.S ?? '',
    createdAt: Number(item['createdAt']?.N),
    expiresAt: Number(item['expiresAt']?.N),
    status: (item['status']?.S ?? 'pending') as UploadStatus,
    parts: (item['parts']?.L ?? []).map(partOf),
    ...(fileId === undefined ? {} : { fileId }),
  };
}

/**
 * UploadStore on the jobs table, so uploads work on AWS with the table the stack already has. A part is appended to
 * the upload's item by one conditional update (still pending, fewer than the part cap): two parts sent at once both
 * land, and a part racing a cancel or complete is refused. Ending an upload and dropping its pending marker is one
 * transaction, conditional on the upload still being pending.
 */
export class DynamoDbUploadStore implements UploadStore {
  readonly #client: DynamoDBClient;
  readonly #table: string;

  constructor(client: DynamoDBClient, table: string) {
    this.#client = client;
    this.#table = table;
  }

  async create(upload: UploadRecord): Promise<void> {
    const ttl = n(upload.expiresAt + KEEP_AFTER_EXPIRY_SECONDS);
    await this.#client.send(
      new TransactWriteItemsCommand({
        TransactItems: [
          {
            Put: {
              TableName: this.#table,
              Item: {
                [PK]: s(uploadPk(upload.id)),
                [SK]: s(META),
                owner: s(upload.ownerKeyId),
                filename: s(upload.filename),
                purpose: s(upload.purpose),
                bytes: n(upload.bytes),
                mimeType: s(upload.mimeType),
                createdAt: n(upload.createdAt),
                expiresAt: n(upload.expiresAt),
                status: s(upload.status),
                parts: { L: upload.parts.map(partItem) },
                [TTL]: ttl,
              },
              ConditionExpression: 'attribute_not_exists(#pk)',
              ExpressionAttributeNames: { '#pk': PK },
            },
          },
          {
            Put: {
              TableName: this.#table,
              Item: { [PK]: s(pendingPk(upload.ownerKeyId)), [SK]: s(upload.id), expiresAt: n(upload.expiresAt), [TTL]: ttl },
            },
          },
        ],
      }),
    );
  }

  async get(id: string): Promise<UploadRecord | undefined> {
    const { Item } = await this.#client.send(
      new GetItemCommand({ TableName: this.#table, Key: { [PK]: s(uploadPk(id)), [SK]: s(META) }, ConsistentRead: true }),
    );
    return Item === undefined ? undefined : recordOf(id, Item);
  }

  async addPart(id: string, part: UploadPart, maxParts: number): Promise<UploadRecord> {
    // The announced size never changes, so reading it first is safe; the bytes received so far are a counter on
    // the item, checked and added in the same conditional update as the part (parallel parts cannot pass it).
    const announced = await this.get(id);
    if (announced === undefined || announced.status !== 'pending') throw new UploadStateError('not_pending', `upload ${id} is not pending`);
    const room = announced.bytes - part.bytes;
    if (room < 0) throw new UploadStateError('too_many_bytes', `the parts would pass the ${announced.bytes} bytes upload ${id} announced`);
    try {
      const { Attributes } = await this.#client.send(
        new UpdateItemCommand({
          TableName: this.#table,
          Key: { [PK]: s(uploadPk(id)), [SK]: s(META) },
          UpdateExpression: 'SET #parts = list_append(#parts, :part) ADD #received :bytes',
          ConditionExpression:
            'attribute_exists(#pk) AND #status = :pending AND size(#parts) < :max AND (attribute_not_exists(#received) OR #received <= :room)',
          ExpressionAttributeNames: { '#pk': PK, '#parts': 'parts', '#status': 'status', '#received': 'received' },
          ExpressionAttributeValues: {
            ':part': { L: [partItem(part)] },
            ':pending': s('pending'),
            ':max': n(maxParts),
            ':bytes': n(part.bytes),
            ':room': n(room),
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return recordOf(id, Attributes ?? {}) as UploadRecord;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const current = await this.get(id);
      if (current?.status !== 'pending') throw new UploadStateError('not_pending', `upload ${id} is not pending`);
      if (current.parts.length >= maxParts) throw new UploadStateError('too_many_parts', `an upload takes at most ${maxParts} parts`);
      throw new UploadStateError('too_many_bytes', `the parts would pass the ${announced.bytes} bytes upload ${id} announced`);
    }
  }

  async end(id: string, status: Exclude<UploadStatus, 'pending'>, fileId?: string): Promise<boolean> {
    const current = await this.get(id);
    if (current === undefined || current.status !== 'pending') return false;
    try {
      await this.#client.send(
        new TransactWriteItemsCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.#table,
                Key: { [PK]: s(uploadPk(id)), [SK]: s(META) },
                UpdateExpression: fileId === undefined ? 'SET #status = :status' : 'SET #status = :status, fileId = :file',
                ConditionExpression: '#status = :pending',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: {
                  ':status': s(status),
                  ':pending': s('pending'),
                  ...(fileId === undefined ? {} : { ':file': s(fileId) }),
                },
              },
            },
            { Delete: { TableName: this.#table, Key: { [PK]: s(pendingPk(current.ownerKeyId)), [SK]: s(id) } } },
          ],
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async pendingCount(ownerKeyId: string, now: number): Promise<number> {
    let count = 0;
    let start: Record<string, AttributeValue> | undefined;
    do {
      const page = await this.#client.send(
        new QueryCommand({
          TableName: this.#table,
          KeyConditionExpression: '#pk = :pk',
          FilterExpression: 'expiresAt > :now',
          ExpressionAttributeNames: { '#pk': PK },
          ExpressionAttributeValues: { ':pk': s(pendingPk(ownerKeyId)), ':now': n(now) },
          Select: 'COUNT',
          ...(start === undefined ? {} : { ExclusiveStartKey: start }),
        }),
      );
      count += page.Count ?? 0;
      start = page.LastEvaluatedKey;
    } while (start !== undefined);
    return count;
  }
}
