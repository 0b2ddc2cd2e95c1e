import { rerankRequest, type RerankRequest } from '../core/rerank-request.js';
import type { RequestParamNames } from '../core/validate-request.js';
import type { JsonSchema } from './json-schema.js';
import type { CorpusPaths, Dialect } from './dialect.js';
import type { WireField, WirePath } from './wire-field.js';
import { expectObject, type JsonObject } from './wire-fields.js';

type AnyField = WireField<unknown, never>;

/** What each field reads to. */
export type ValuesOf<F> = { -readonly [K in keyof F]: F[K] extends { read: (...args: never[]) => infer T } ? T : never };

/** Fields named after the RerankRequest field they map to, each reading that field's type. */
export type RequestFields<F, C> = { readonly [K in keyof F]: K extends keyof RerankRequest ? WireField<RerankRequest[K], C> : never };

export interface WireDeclaration<I, F> {
  /** Names the schema's OpenAPI component. */
  readonly title: string;
  readonly description?: string;
  /** Wire-only fields, read first, in order: they shape how other fields are read (`rank_fields`) or are read by the dialect's own hook. */
  readonly inputs?: I;
  /** Fields that map one to one onto the RerankRequest field they are named after, read in order. */
  readonly fields: F;
  /** Cross-field rules (`if`/`then`/`else`) a list of fields cannot say. */
  readonly rules?: Pick<JsonSchema, 'if' | 'then' | 'else'>;
}

/** A dialect's request, declared once: its JSON Schema, its reader and the parameter names its errors use. */
export interface WireFields<I, F> {
  /** The request body as JSON Schema: validated before the reader runs, and published in `/openapi.json`. */
  readonly schema: JsonSchema;
  /** Reads a JSON-decoded body; a 400 names the field as the client spelled it. */
  read(body: unknown): { readonly inputs: ValuesOf<I>; readonly fields: ValuesOf<F> };
  /** How the client spells a declared field: `parameters.top_n`. */
  param(name: keyof I | keyof F): string;
  /** Where a declared field sits in the body: `['parameters', 'top_n']`. */
  path(name: keyof I | keyof F): WirePath;
  /** Where a corpus file id and the documents it stands for sit, when the declaration has a `documentsFileId` input. */
  readonly corpus: CorpusPaths | undefined;
  /** The value a body carries at a declared field's path, unread (`undefined` where the path runs through a non-object). */
  sent(body: unknown, name: keyof I | keyof F): unknown;
  /**
   * How the fields validateRerankRequest names are spelled: the fields named query, documents and batchSize
   * (`spelled` adds the ones a custom hook reads, e.g. the pipeline's documents).
   */
  paramNames(spelled?: Partial<RequestParamNames>): RequestParamNames;
}

const paramOf = (path: readonly string[]): string => path.join('.');

/** The RequestParamNames a dialect may spell besides query and documents: read from its declared fields. */
const OPTIONAL_PARAMS = [
  'batchSize',
  'prompt',
  'model',
  'strategy',
  'upstream',
  'boost',
  'maxChunksPerDoc',
  'maxTokensPerDocument',
  'metadata',
  'maxTokensPerQuery',
  'truncationSide',
  'latency',
  'priority',
] as const;

/** The fields under one object of the body, by key: a field's schema, or a nested object of fields. */
interface ObjectNode {
  readonly children: Map<string, JsonSchema | ObjectNode>;
  readonly required: string[];
}

const isObjectNode = (node: JsonSchema | ObjectNode): node is ObjectNode => node instanceof Object && 'children' in node;

/** Nests the fields' schemas along their paths; an object is required when any field in it is. */
function treeOf(fields: readonly AnyField[]): ObjectNode {
  const root: ObjectNode = { children: new Map(), required: [] };
  for (const field of fields) {
    let node = root;
    field.path.forEach((key, depth) => {
      if (field.required && !node.required.includes(key)) node.required.push(key);
      if (depth === field.path.length - 1) {
        node.children.set(key, field.schema);
        return;
      }
      const existing = node.children.get(key);
      const next = existing && isObjectNode(existing) ? existing : { children: new Map(), required: [] };
      node.children.set(key, next);
      node = next;
    });
  }
  return root;
}

/** `{type: 'object', required}` when required, else `{type: ['object', 'null']}` (null = absent), as the reader treats it. */
function objectSchema(node: ObjectNode, required: boolean): JsonSchema {
  const properties = [...node.children].map(([key, child]) => [
    key,
    isObjectNode(child) ? objectSchema(child, node.required.includes(key)) : child,
  ]);
  return {
    type: required ? 'object' : ['object', 'null'],
    ...(node.required.length > 0 ? { required: node.required } : {}),
    properties: Object.fromEntries(properties) as Record<string, JsonSchema>,
  };
}

/** The object a field's path runs through: an absent optional one reads as `{}`, an absent required one is a 400. */
function parentOf(body: JsonObject, path: WirePath, tree: ObjectNode): JsonObject {
  let parent = body;
  let node = tree;
  for (let depth = 0; depth < path.length - 1; depth++) {
    const key = path[depth] as string;
    const value = parent[key];
    if (!node.required.includes(key) && (value === undefined || value === null)) return {};
    parent = expectObject(value, paramOf(path.slice(0, depth + 1)));
    node = node.children.get(key) as ObjectNode;
  }
  return parent;
}

/**
 * One declaration per dialect: every wire field with its path, the RerankRequest field it maps to (its name),
 * its schema fragment, whether it is required and its default. The JSON Schema (and so `/openapi.json`), the
 * reader and the parameter names in error messages all derive from it.
 */
export function defineWireFields<
  const I extends Readonly<Record<string, AnyField>> = Record<never, never>,
  const F extends RequestFields<F, ValuesOf<I>> = RequestFields<Record<never, never>, never>,
>(declaration: WireDeclaration<I, F>): WireFields<I, F> {
  const inputs = Object.entries(declaration.inputs ?? {}) as [string, AnyField][];
  const fields = Object.entries(declaration.fields) as [string, AnyField][];
  const all = new Map<string, AnyField>([...fields, ...inputs]);
  const tree = treeOf([...all.values()]);
  const readAll = (body: JsonObject, entries: readonly [string, AnyField][], context: unknown): Record<string, unknown> => {
    const values: Record<string, unknown> = {};
    for (const [name, field] of entries) {
      const parent = parentOf(body, field.path, tree);
      const read = field.read as (value: unknown, param: string, context: unknown) => unknown;
      values[name] = read(parent[field.path[field.path.length - 1] as string], paramOf(field.path), context);
    }
    return values;
  };
  const fieldNamed = (name: keyof I | keyof F): AnyField => {
    const field = all.get(name as string);
    if (!field) throw new Error(`${String(name)} is not declared in ${declaration.title}`);
    return field;
  };
  const param = (name: keyof I | keyof F): string => paramOf(fieldNamed(name).path);
  const fileId = all.get('documentsFileId');
  const documents = all.get('documents');
  const declared = (name: string): string | undefined => (all.has(name) ? param(name) : undefined);
  const paramNames = (spelled: Partial<RequestParamNames> = {}): RequestParamNames => {
    const query = spelled.query ?? declared('query');
    const documents = spelled.documents ?? declared('documents');
    if (query === undefined || documents === undefined) throw new Error(`${declaration.title} declares no query or documents field`);
    const names: Record<string, string> = { query, documents };
    for (const field of OPTIONAL_PARAMS) {
      const name = spelled[field] ?? declared(field);
      if (name !== undefined) names[field] = name;
    }
    return names as unknown as RequestParamNames;
  };
  const body = objectSchema(tree, true);
  return {
    schema: {
      title: declaration.title,
      type: 'object',
      ...(body.required ? { required: body.required } : {}),
      ...(declaration.description ? { description: declaration.description } : {}),
      properties: body.properties ?? {},
      ...declaration.rules,
    },
    read(raw) {
      const obj = expectObject(raw, 'body');
      const inputValues = readAll(obj, inputs, undefined);
      return { inputs: inputValues as ValuesOf<I>, fields: readAll(obj, fields, inputValues) as ValuesOf<F> };
    },
    param,
    path: (name) => fieldNamed(name).path,
    corpus: fileId && documents ? { fileIdPath: fileId.path, documentsPath: documents.path } : undefined,
    sent: (raw, name) =>
      fieldNamed(name).path.reduce<unknown>(
        (value, key) => (typeof value === 'object' && value !== null ? (value as JsonObject)[key] : undefined),
        raw,
      ),
    paramNames,
  };
}

/**
 * The RerankRequest of the mapped fields: the ones a dialect does not read take their defaults, and an optional
 * field left undefined is left out (so requests stay comparable field by field).
 */
export function toRerankRequest(fields: Partial<RerankRequest> & Pick<RerankRequest, 'query' | 'documents'>): RerankRequest {
  const { query, documents, ...options } = fields;
  return rerankRequest(query, documents, Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)));
}

/** A declaration whose fields alone make a RerankRequest (they include query and documents). */
export interface RequestDeclaration {
  readonly schema: JsonSchema;
  read(body: unknown): { readonly fields: Partial<RerankRequest> & Pick<RerankRequest, 'query' | 'documents'> };
  paramNames(): RequestParamNames;
  readonly corpus?: CorpusPaths | undefined;
}

/** The parse side of a dialect whose declared fields map one to one: no hook, everything from the declaration. */
export function declaredParse(declaration: RequestDeclaration): Pick<Dialect, 'requestSchema' | 'paramNames' | 'parse' | 'corpus'> {
  const names = declaration.paramNames();
  return {
    ...(declaration.corpus ? { corpus: declaration.corpus } : {}),
    requestSchema: declaration.schema,
    paramNames: () => names,
    parse: (body) => toRerankRequest(declaration.read(body).fields),
  };
}
