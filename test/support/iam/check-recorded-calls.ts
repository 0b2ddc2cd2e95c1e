import { appendFileSync } from 'node:fs';
import { removeScratchDirs, synthRerankStack } from '../../infra/support/synth-rerank.js';
import { recordedCalls, type LambdaName, type RecordedCall } from './aws-call-recorder.js';
import { evaluateRequest } from './iam-policy-evaluator.js';
import { iamRequestsOf, queueArnOfUrl } from './iam-requests.js';
import { resolveRoles, type TemplateJson } from './template-roles.js';

export interface IamCheckReport {
  /** IAM requests evaluated (a DeleteObjects of three keys is three). */
  readonly checked: number;
  /** One line per distinct denied request: function, action, resource, leading keys, decision. */
  readonly denials: readonly string[];
  /** Distinct `function action` pairs that were checked and allowed. */
  readonly coverage: readonly string[];
  /** Calls the test made itself (set-up, assertions): not a function's, not checked. */
  readonly unattributed: number;
}

/** The queues each function's local poller received from: its event source mappings' stand-ins. */
function polledQueues(calls: readonly RecordedCall[]): Map<LambdaName, Set<string>> {
  const polled = new Map<LambdaName, Set<string>>();
  for (const call of calls) {
    if (call.lambda === undefined || call.command !== 'ReceiveMessage') continue;
    const queueUrl = (call.input as { QueueUrl?: string }).QueueUrl;
    if (queueUrl !== undefined) polled.set(call.lambda, (polled.get(call.lambda) ?? new Set()).add(queueArnOfUrl(queueUrl)));
  }
  return polled;
}

/** Every attributed call against the role the template gives its function, on the emulators' resources (`env`). */
export function checkCalls(
  calls: readonly RecordedCall[],
  template: TemplateJson,
  env: Readonly<Record<string, string | undefined>>,
): IamCheckReport {
  const roles = resolveRoles(template, env, polledQueues(calls));
  const denials = new Set<string>();
  const coverage = new Set<string>();
  let checked = 0;
  for (const call of calls) {
    if (call.lambda === undefined) continue;
    const identity = roles.identity.get(call.lambda) ?? [];
    for (const request of iamRequestsOf(call, roles.partitionKeyOf)) {
      checked += 1;
      const { decision } = evaluateRequest(request, identity, roles.resource);
      if (decision === 'allow') {
        coverage.add(`${call.lambda} ${request.action}`);
        continue;
      }
      const keys = request.context['dynamodb:LeadingKeys'];
      denials.add(
        `${call.lambda}: ${request.action} on ${request.resource}${keys === undefined ? '' : ` LeadingKeys ${JSON.stringify(keys)}`} (${call.command}, ${decision})`,
      );
    }
  }
  return {
    checked,
    denials: [...denials].sort(),
    coverage: [...coverage].sort(),
    unattributed: calls.filter((c) => c.lambda === undefined).length,
  };
}

/** Appends the report's `function action` pairs to RERANK_IAM_COVERAGE_FILE when it is set (for the coverage list). */
export function appendCoverage(report: IamCheckReport): IamCheckReport {
  const out = process.env['RERANK_IAM_COVERAGE_FILE'];
  if (out !== undefined && out !== '') appendFileSync(out, report.coverage.map((line) => `${line}\n`).join(''));
  return report;
}

let template: TemplateJson | undefined;

/** The stack's template as `cdk synth` writes it (assets not bundled: the policies are the same), once per test file. */
export function synthesizedTemplate(): TemplateJson {
  if (template === undefined) {
    template = synthRerankStack({ bundle: false }).templateJson as TemplateJson;
    removeScratchDirs();
  }
  return template;
}

/**
 * For an emulator suite's afterAll: fails with every denied request, and appends the coverage to the file
 * RERANK_IAM_COVERAGE_FILE names (when set) so a run can list what was checked.
 */
export function expectRecordedCallsAllowed(env: Readonly<Record<string, string | undefined>>): IamCheckReport {
  const report = appendCoverage(checkCalls(recordedCalls(), synthesizedTemplate(), env));
  if (report.checked === 0)
    throw new Error('the IAM check recorded no call made as a function: is the recorder installed and are handlers run with asLambda?');
  if (report.denials.length > 0) {
    throw new Error(`${report.denials.length} AWS call(s) the deployed IAM policies would deny:\n${report.denials.join('\n')}`);
  }
  return report;
}
