/** The JSON types a schema names (JSON Schema 2020-12 `type`). */
export type JsonSchemaType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

/**
 * The subset of JSON Schema 2020-12 (= OpenAPI 3.1's Schema Object) this service writes its wire formats in.
 * Schemas are plain `as const` objects: the same value validates requests (ajv) and is copied into `/openapi.json`.
 * `x-error-hint` (an OpenAPI specification extension) is appended to the 400 message when this node rejects a value.
 */
export interface JsonSchema {
  readonly $ref?: string;
  readonly title?: string;
  readonly description?: string;
  readonly examples?: readonly unknown[];
  readonly default?: unknown;
  readonly deprecated?: boolean;
  readonly type?: JsonSchemaType | readonly JsonSchemaType[];
  readonly const?: unknown;
  readonly enum?: readonly unknown[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | JsonSchema;
  readonly items?: JsonSchema;
  readonly contains?: JsonSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly allOf?: readonly JsonSchema[];
  readonly not?: JsonSchema;
  readonly if?: JsonSchema;
  readonly then?: JsonSchema;
  readonly else?: JsonSchema;
  /** A string that carries a JSON document: annotations only (the dialect's reader parses and checks it). */
  readonly contentMediaType?: string;
  readonly contentSchema?: JsonSchema;
  readonly 'x-error-hint'?: string;
}
