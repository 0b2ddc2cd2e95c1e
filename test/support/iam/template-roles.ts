import type { LambdaName } from './aws-call-recorder.js';
import type { PolicyStatement } from './iam-policy-evaluator.js';
import { EMULATOR_ACCOUNT, EMULATOR_REGION, bucketArn, queueArnOfUrl, tableArn } from './iam-requests.js';

type Resource = { readonly Type: string; readonly Properties?: Record<string, unknown> };
export type TemplateJson = { readonly Resources: Record<string, Resource> };

/** Each recorded function's Lambda in the template, by its construct id (the logical id's stem). */
const LAMBDA_CONSTRUCT_IDS: Readonly<Record<LambdaName, string>> = {
  api: 'ApiFunction',
  worker: 'WorkerFunction',
  deadLetter: 'DeadLetterFunction',
  batchWorker: 'BatchWorkerFunction',
  batchDeadLetter: 'BatchDeadLetterFunction',
  authorizer: 'EdgeAuthFunction',
};

/** What the IAM check needs from a synthesized template, resolved against the emulators. */
export interface ResolvedRoles {
  /** Each function's role: the statements of every policy attached to it. */
  readonly identity: ReadonlyMap<LambdaName, readonly PolicyStatement[]>;
  /** Resource policies (the files bucket's enforceSSL deny). */
  readonly resource: readonly PolicyStatement[];
  /** The partition key attribute of each table, by the emulator's table name. */
  readonly partitionKeyOf: (table: string) => string;
}

interface Binding {
  readonly ref: string;
  readonly arn: string;
}

/** A resource's Ref and Arn on the emulators, from one of them as the stack's environment gives it. */
function bindingOf(type: string, value: string, given: 'ref' | 'arn'): Binding {
  switch (type) {
    case 'AWS::DynamoDB::Table': {
      const name = given === 'arn' ? value.slice(value.indexOf('table/') + 'table/'.length) : value;
      return { ref: name, arn: tableArn(name) };
    }
    case 'AWS::SQS::Queue':
      return given === 'arn' ? { ref: value, arn: value } : { ref: value, arn: queueArnOfUrl(value) };
    case 'AWS::S3::Bucket':
      return { ref: value, arn: bucketArn(value) };
    default:
      throw new Error(`the IAM check cannot bind a ${type} from the environment`);
  }
}

const refsIn = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value === null || typeof value !== 'object') return [];
  const record = value as Record<string, unknown>;
  if (typeof record['Ref'] === 'string') return [record['Ref']];
  return Object.values(record).flatMap(refsIn);
};

/**
 * Resolves the template's roles to the emulators. A resource is bound through the environment variable the stack
 * sets on a function (`RERANK_JOBS_TABLE: {Ref: JobsTable}` and the emulator stack's value of RERANK_JOBS_TABLE); a
 * queue no variable names (the chunk DLQ) through the event source mapping that feeds a function, bound to the one
 * unbound queue that function's local poller received from. Intrinsics left unbound resolve to `unresolved:<id>`,
 * which no recorded call's resource equals.
 */
export function resolveRoles(
  template: TemplateJson,
  env: Readonly<Record<string, string | undefined>>,
  polledQueueArns: ReadonlyMap<LambdaName, ReadonlySet<string>>,
): ResolvedRoles {
  const resources = template.Resources;
  const typeOf = (id: string) => resources[id]?.Type ?? '?';
  const bindings = new Map<string, Binding>();
  const bind = (id: string, binding: Binding) => {
    const known = bindings.get(id);
    if (known !== undefined && known.arn !== binding.arn) throw new Error(`${id} is bound to both ${known.arn} and ${binding.arn}`);
    bindings.set(id, binding);
  };

  const lambdaIds = new Map<LambdaName, string>();
  for (const [name, stem] of Object.entries(LAMBDA_CONSTRUCT_IDS) as [LambdaName, string][]) {
    const ids = Object.keys(resources).filter(
      (id) => typeOf(id) === 'AWS::Lambda::Function' && new RegExp(`^${stem}[0-9A-F]{8}$`).test(id),
    );
    if (ids.length !== 1) throw new Error(`expected one Lambda function ${stem} in the template, found ${ids.length}`);
    lambdaIds.set(name, ids[0]!);
  }

  for (const id of lambdaIds.values()) {
    const variables = ((resources[id]!.Properties?.['Environment'] as { Variables?: Record<string, unknown> } | undefined)?.Variables ??
      {}) as Record<string, unknown>;
    for (const [variable, value] of Object.entries(variables)) {
      const local = env[variable];
      if (local === undefined || value === null || typeof value !== 'object') continue;
      const intrinsic = value as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
      if (typeof intrinsic.Ref === 'string') bind(intrinsic.Ref, bindingOf(typeOf(intrinsic.Ref), local, 'ref'));
      const getAtt = intrinsic['Fn::GetAtt'];
      if (getAtt !== undefined && getAtt[1] === 'Arn') bind(getAtt[0], bindingOf(typeOf(getAtt[0]), local, 'arn'));
    }
  }

  const lambdaOfResource = (id: string): LambdaName | undefined => {
    const target = typeOf(id) === 'AWS::Lambda::Alias' ? refsIn(resources[id]!.Properties?.['FunctionName'])[0] : id;
    return [...lambdaIds].find(([, lambdaId]) => lambdaId === target)?.[0];
  };
  for (const mapping of Object.values(resources).filter((r) => r.Type === 'AWS::Lambda::EventSourceMapping')) {
    const lambda = refsIn(mapping.Properties?.['FunctionName'])
      .map(lambdaOfResource)
      .find((name) => name !== undefined);
    const source = (mapping.Properties?.['EventSourceArn'] as { 'Fn::GetAtt'?: [string, string] } | undefined)?.['Fn::GetAtt']?.[0];
    if (lambda === undefined || source === undefined || bindings.has(source)) continue;
    const bound = new Set([...bindings.values()].map((b) => b.arn));
    const candidates = [...(polledQueueArns.get(lambda) ?? [])].filter((arn) => !bound.has(arn));
    if (candidates.length === 1) bind(source, { ref: candidates[0]!, arn: candidates[0]! });
  }

  const resolve = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(resolve);
    if (value === null || typeof value !== 'object') return value;
    const record = value as Record<string, unknown>;
    if (typeof record['Ref'] === 'string') {
      const id = record['Ref'];
      const pseudo: Record<string, string> = {
        'AWS::Partition': 'aws',
        'AWS::Region': EMULATOR_REGION,
        'AWS::AccountId': EMULATOR_ACCOUNT,
        'AWS::URLSuffix': 'amazonaws.com',
      };
      return pseudo[id] ?? bindings.get(id)?.ref ?? `unresolved:${id}`;
    }
    if (record['Fn::GetAtt'] !== undefined) {
      const [id, attribute] = record['Fn::GetAtt'] as [string, string];
      return attribute === 'Arn' ? (bindings.get(id)?.arn ?? `unresolved:${id}.Arn`) : `unresolved:${id}.${attribute}`;
    }
    if (record['Fn::Join'] !== undefined) {
      const [separator, parts] = record['Fn::Join'] as [string, unknown[]];
      return (resolve(parts) as unknown[]).map(String).join(separator);
    }
    const intrinsic = Object.keys(record).find((key) => key.startsWith('Fn::'));
    if (intrinsic !== undefined) throw new Error(`the IAM check cannot resolve ${intrinsic}`);
    return Object.fromEntries(Object.entries(record).map(([key, inner]) => [key, resolve(inner)]));
  };

  const statementsOf = (document: unknown): PolicyStatement[] => {
    const statements = (resolve(document) as { Statement?: PolicyStatement | PolicyStatement[] } | undefined)?.Statement ?? [];
    return Array.isArray(statements) ? statements : [statements];
  };
  const identity = new Map<LambdaName, PolicyStatement[]>();
  for (const [name, lambdaId] of lambdaIds) {
    const role = (resources[lambdaId]!.Properties?.['Role'] as { 'Fn::GetAtt'?: [string, string] } | undefined)?.['Fn::GetAtt']?.[0];
    if (role === undefined) throw new Error(`${lambdaId} has no role of this template`);
    const roleProperties = resources[role]?.Properties ?? {};
    if (roleProperties['ManagedPolicyArns'] !== undefined) throw new Error(`${role} has managed policies, which the IAM check cannot read`);
    const inline = ((roleProperties['Policies'] as { PolicyDocument: unknown }[] | undefined) ?? []).flatMap((p) =>
      statementsOf(p.PolicyDocument),
    );
    const attached = Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && refsIn(r.Properties?.['Roles']).includes(role))
      .flatMap((r) => statementsOf(r.Properties?.['PolicyDocument']));
    identity.set(name, [...inline, ...attached]);
  }

  const resource = Object.values(resources)
    .filter((r) => r.Type === 'AWS::S3::BucketPolicy' || r.Type === 'AWS::SQS::QueuePolicy')
    .flatMap((r) => statementsOf(r.Properties?.['PolicyDocument']));

  const partitionKeys = new Map<string, string>();
  for (const [id, r] of Object.entries(resources)) {
    if (r.Type !== 'AWS::DynamoDB::Table') continue;
    const hash = (r.Properties?.['KeySchema'] as { AttributeName: string; KeyType: string }[]).find((k) => k.KeyType === 'HASH');
    const name = bindings.get(id)?.ref;
    if (hash !== undefined && name !== undefined) partitionKeys.set(name, hash.AttributeName);
  }
  const partitionKeyOf = (table: string) => {
    const key = partitionKeys.get(table.startsWith('arn:') ? table.slice(table.indexOf('table/') + 'table/'.length) : table);
    if (key === undefined) throw new Error(`table ${table} is no table of the template bound to the emulators`);
    return key;
  };
  return { identity, resource, partitionKeyOf };
}
