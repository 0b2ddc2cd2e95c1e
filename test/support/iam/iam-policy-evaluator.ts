import type { IamRequest } from './iam-requests.js';

/** A policy statement with its intrinsics already resolved to strings. */
export interface PolicyStatement {
  readonly Sid?: string;
  readonly Effect: 'Allow' | 'Deny';
  readonly Action?: string | readonly string[];
  readonly NotAction?: string | readonly string[];
  readonly Resource?: string | readonly string[];
  readonly NotResource?: string | readonly string[];
  readonly Principal?: unknown;
  readonly Condition?: Readonly<Record<string, Readonly<Record<string, string | readonly string[]>>>>;
}

export type Decision = 'allow' | 'explicit-deny' | 'implicit-deny';

export interface Evaluation {
  readonly decision: Decision;
  /** The statement that decided (the deny that matched, or the first allow). */
  readonly statement?: PolicyStatement;
}

const list = (value: string | readonly string[] | undefined): readonly string[] =>
  value === undefined ? [] : typeof value === 'string' ? [value] : value;

/** IAM's `*` (any run, `/` included) and `?` (one character); everything else literal. */
function wildcard(pattern: string, value: string, ignoreCase: boolean): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replaceAll('*', '.*')
    .replaceAll('?', '.');
  return new RegExp(`^${source}$`, ignoreCase ? 'is' : 's').test(value);
}

type ValueTest = (policyValue: string, requestValue: string) => boolean;

/** The condition operators this evaluator knows; any other makes evaluation throw rather than guess. */
const OPERATORS: Readonly<Record<string, { readonly test: ValueTest; readonly negated: boolean }>> = {
  StringEquals: { test: (p, r) => p === r, negated: false },
  StringNotEquals: { test: (p, r) => p === r, negated: true },
  StringEqualsIgnoreCase: { test: (p, r) => p.toLowerCase() === r.toLowerCase(), negated: false },
  StringLike: { test: (p, r) => wildcard(p, r, false), negated: false },
  StringNotLike: { test: (p, r) => wildcard(p, r, false), negated: true },
  ArnEquals: { test: (p, r) => p === r, negated: false },
  ArnLike: { test: (p, r) => wildcard(p, r, false), negated: false },
  ArnNotLike: { test: (p, r) => wildcard(p, r, false), negated: true },
  Bool: { test: (p, r) => p.toLowerCase() === r.toLowerCase(), negated: false },
};

/**
 * One condition block entry, with IAM's set semantics: `ForAllValues` holds when every request value matches (and so
 * when the key is absent), `ForAnyValue` when one does; a single-valued operator on an absent key fails unless
 * `IfExists`. A negated operator (`StringNotLike`) holds for a value that matches none of the policy's values.
 */
function conditionHolds(operator: string, policyValues: readonly string[], requestValues: readonly string[] | undefined): boolean {
  if (operator === 'Null') {
    const wantsAbsent = policyValues.some((v) => v.toLowerCase() === 'true');
    return wantsAbsent === (requestValues === undefined || requestValues.length === 0);
  }
  const set = /^(ForAllValues|ForAnyValue):/.exec(operator)?.[1];
  const ifExists = operator.endsWith('IfExists');
  const base = operator.replace(/^(ForAllValues|ForAnyValue):/, '').replace(/IfExists$/, '');
  const known = OPERATORS[base];
  if (known === undefined) throw new Error(`condition operator ${operator} is not supported by the IAM check`);
  const valueHolds = (value: string) => {
    const matched = policyValues.some((policyValue) => known.test(policyValue, value));
    return known.negated ? !matched : matched;
  };
  const values = requestValues ?? [];
  if (set === 'ForAllValues') return values.every(valueHolds);
  if (set === 'ForAnyValue') return values.some(valueHolds);
  if (values.length === 0) return ifExists;
  return values.some(valueHolds);
}

function conditionsHold(statement: PolicyStatement, request: IamRequest): boolean {
  return Object.entries(statement.Condition ?? {}).every(([operator, keys]) =>
    Object.entries(keys).every(([key, policyValues]) => conditionHolds(operator, list(policyValues), request.context[key])),
  );
}

function actionMatches(statement: PolicyStatement, action: string): boolean {
  if (statement.NotAction !== undefined) return !list(statement.NotAction).some((p) => wildcard(p, action, true));
  return list(statement.Action).some((p) => wildcard(p, action, true));
}

function resourceMatches(statement: PolicyStatement, resource: string): boolean {
  if (statement.NotResource !== undefined) return !list(statement.NotResource).some((p) => wildcard(p, resource, false));
  return list(statement.Resource).some((p) => wildcard(p, resource, false));
}

/** A resource policy statement applies to the function's role only through a `*` principal (all this stack writes). */
function principalIsEveryone(principal: unknown): boolean {
  if (principal === '*') return true;
  const aws = (principal as { AWS?: unknown } | undefined)?.AWS;
  return aws === '*' || (Array.isArray(aws) && aws.includes('*'));
}

const applies = (statement: PolicyStatement, request: IamRequest) =>
  actionMatches(statement, request.action) && resourceMatches(statement, request.resource) && conditionsHold(statement, request);

/**
 * IAM's decision for one request within one account: an explicit Deny in either policy wins; otherwise an Allow in
 * the role's policies or in the resource's policy (to `*`) allows; otherwise it is implicitly denied.
 */
export function evaluateRequest(
  request: IamRequest,
  identity: readonly PolicyStatement[],
  resource: readonly PolicyStatement[] = [],
): Evaluation {
  const forRole = resource.filter((statement) => principalIsEveryone(statement.Principal));
  const all = [...identity, ...forRole];
  const deny = all.find((statement) => statement.Effect === 'Deny' && applies(statement, request));
  if (deny !== undefined) return { decision: 'explicit-deny', statement: deny };
  const allow = all.find((statement) => statement.Effect === 'Allow' && applies(statement, request));
  return allow === undefined ? { decision: 'implicit-deny' } : { decision: 'allow', statement: allow };
}
