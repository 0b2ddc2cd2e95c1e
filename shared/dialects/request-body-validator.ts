import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { echoText } from '../core/echo-text.js';
import { invalidRequest } from '../core/rerank-error.js';
import { describeJsonValue } from './wire-fields.js';
import type { JsonSchema, JsonSchemaType } from './json-schema.js';
import { REQUEST_VALIDATOR_OPTIONS, REQUEST_VALIDATOR_VOCABULARY } from './request-validator-options.js';
import { REQUEST_VALIDATORS } from './request-validators.generated.js';

let ajv: Ajv2020 | undefined;

/** One ajv instance for the schemas not compiled ahead of time, made at its first use. */
function compile(schema: JsonSchema): ValidateFunction {
  if (ajv === undefined) {
    ajv = new Ajv2020(REQUEST_VALIDATOR_OPTIONS);
    ajv.addVocabulary([...REQUEST_VALIDATOR_VOCABULARY]);
  }
  return ajv.compile(schema as object);
}

/**
 * Each schema's validator, found once per schema object: the dialects' request schemas come compiled ahead of time
 * (`npm run validators`: ajv's standalone code, found by the schema's JSON text), so a cold start's first request
 * compiles nothing; any other schema (an anyOf branch an error is explained by, a test's) is compiled on first use.
 */
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

function validatorFor(schema: JsonSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = (REQUEST_VALIDATORS.get(JSON.stringify(schema)) as ValidateFunction | undefined) ?? compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

const TYPE_NAMES: Readonly<Record<JsonSchemaType, string>> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  object: 'a JSON object',
  array: 'an array',
  null: 'null',
};

const typesOf = (schema: JsonSchema): readonly JsonSchemaType[] =>
  schema.type === undefined ? [] : typeof schema.type === 'string' ? [schema.type] : schema.type;

/** `a string or a number`; `null` is left out when the value may also be something else (null means absent). */
function describeTypes(types: readonly JsonSchemaType[]): string {
  const shown = types.length > 1 ? types.filter((t) => t !== 'null') : types;
  return shown.map((t) => TYPE_NAMES[t]).join(' or ');
}

/** What a schema node accepts, in words, for the 400 message. */
function describeSchema(schema: JsonSchema): string {
  if (schema.anyOf) return schema.anyOf.map(describeSchema).join(' or ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const types = typesOf(schema);
  if (types.includes('object') && schema.required && schema.required.length > 0) {
    const fields = schema.required.map((key) => {
      const field = schema.properties?.[key];
      if (field?.const !== undefined) return `${key} ${JSON.stringify(field.const)}`;
      const fieldTypes = field ? typesOf(field) : [];
      return fieldTypes.length > 0 ? `${describeTypes(fieldTypes)} "${key}" field` : `a "${key}" field`;
    });
    return `an object with ${fields.join(' and ')}`;
  }
  return types.length > 0 ? describeTypes(types) : 'a valid value';
}

/** A JSON pointer into `body` as the dialects spell params: `input.documents[2]`, `messages`, `top_n`. */
function paramOf(body: unknown, pointer: string): string {
  let param = '';
  let current: unknown = body;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    param += Array.isArray(current) ? `[${key}]` : param === '' ? key : `.${key}`;
    current = typeof current === 'object' && current !== null ? (current as Record<string, unknown>)[key] : undefined;
  }
  return param;
}

const within = (param: string, child: string): string => (param === '' ? child : `${param}.${child}`);

/** A value the caller sent, as the message quotes it: a string cut before it is quoted, anything else cut as JSON. */
const quoted = (value: unknown): string =>
  typeof value === 'string' ? JSON.stringify(echoText(value)) : echoText(JSON.stringify(value) ?? String(value));

function messageOf(error: ErrorObject, param: string): string {
  const schema = (error.parentSchema ?? {}) as JsonSchema;
  const got = `got ${describeJsonValue(error.data)}`;
  const isInteger = typesOf(schema).includes('integer');
  switch (error.keyword) {
    case 'type':
      return `${param} must be ${describeTypes(typesOf(schema))}, ${got}`;
    case 'minimum':
      return `${param} must be ${isInteger ? 'an integer' : 'a number'} >= ${String(error.schema)}`;
    case 'exclusiveMinimum':
      return `${param} must be ${isInteger ? 'an integer' : 'a number'} > ${String(error.schema)}`;
    case 'minItems':
      return error.schema === 1 ? `${param} must not be empty` : `${param} must contain at least ${String(error.schema)} items`;
    case 'minLength':
      return error.schema === 1
        ? `${param} must be a non-empty string`
        : `${param} must be at least ${String(error.schema)} characters long`;
    case 'anyOf':
    case 'oneOf':
      return `${param} must be ${describeSchema(schema)}, ${got}`;
    case 'contains':
      return `${param} must contain ${describeSchema(schema.contains ?? {})}`;
    case 'not':
      return `${param} must not be ${describeSchema(schema.not ?? {})}`;
    case 'const':
    case 'enum':
      return `${param} must be ${describeSchema(schema)}, got ${quoted(error.data)}`;
    default:
      return `${param} ${error.message ?? 'is invalid'}`;
  }
}

const matchesType = (value: unknown, type: JsonSchemaType): boolean => {
  switch (type) {
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    default:
      return typeof value === type;
  }
};

interface Violation {
  readonly error: ErrorObject;
  /** JSON pointer of the error's value from the body's root. */
  readonly pointer: string;
}

/**
 * The violation to report. With `allErrors: false` ajv lists errors in evaluation order, so the last one
 * (ignoring `if`, which only repeats its `then`/`else` failure) is the keyword that failed at the top. For a
 * failed `anyOf` whose branches differ by type (a string, or an object with `text`), the branch the value's
 * own type selects explains the failure better (`documents[0].text must be a string`) than the list of forms.
 */
function violationOf(schema: JsonSchema, value: unknown, pointer: string): Violation | undefined {
  const validate = validatorFor(schema);
  if (validate(value)) return undefined;
  const errors = (validate.errors ?? []).filter((e) => e.keyword !== 'if');
  const error = errors[errors.length - 1];
  if (!error) return undefined;
  if (error.keyword === 'anyOf' || error.keyword === 'oneOf') {
    const branches = ((error.parentSchema as JsonSchema)[error.keyword] ?? []).filter((branch) => {
      const types = typesOf(branch);
      return types.length > 0 && types.some((t) => matchesType(error.data, t));
    });
    const only = branches.length === 1 ? branches[0] : undefined;
    const inner = only ? violationOf(only, error.data, pointer + error.instancePath) : undefined;
    if (inner) return inner;
  }
  return { error, pointer: pointer + error.instancePath };
}

/**
 * Checks a JSON-decoded body against a dialect's request schema; the first violation is a 400 naming the
 * field as the client spelled it (`body` for the body itself). The dialect's reader still runs afterwards:
 * it maps the fields and checks what a schema cannot say (e.g. the JSON inside a chat message's content).
 */
export function validateRequestBody(schema: JsonSchema, body: unknown): void {
  const violation = violationOf(schema, body, '');
  if (!violation) return;
  const { error, pointer } = violation;
  const at = paramOf(body, pointer);
  const param =
    error.keyword === 'required' ? within(at, String((error.params as { missingProperty: string }).missingProperty)) : at || 'body';
  const message = error.keyword === 'required' ? `${param} is required` : messageOf(error, param);
  const hint = (error.parentSchema as JsonSchema | undefined)?.['x-error-hint'];
  throw invalidRequest(hint ? `${message} (${hint})` : message, param);
}
