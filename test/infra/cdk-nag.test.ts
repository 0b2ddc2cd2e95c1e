import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAG_ACKNOWLEDGEMENTS } from '../../infra/nag/acknowledge-nag-findings.js';
import { nagPacks } from '../../infra/nag/nag-packs.js';
import { removeScratchDirs, synthRerankStack, type SynthResult } from './support/synth-rerank.js';

/**
 * cdk-nag (v3, matching aws-cdk-lib 2.x) over the stack as cdk.json configures it and with every optional part
 * switched, scoring functions as zips and as container images: no finding may be left unacknowledged.
 * `cdk synth` runs the same packs (infra/app.ts), so the CLI synth test fails too when one is.
 */
let synths: SynthResult[];

beforeAll(() => {
  synths = [
    synthRerankStack({ bundle: false }),
    synthRerankStack({
      bundle: false,
      context: {
        'rerank:edgeAuthorizer': 'false',
        'rerank:alarmEmail': 'ops@example.com',
        'rerank:apiProvisionedConcurrency': '2',
        'rerank:retainTable': 'false',
      },
    }),
    // Container-image scoring functions: Lambda pulls the image with its own service access, the role gains nothing.
    synthRerankStack({ bundle: false, context: { 'rerank:packaging': 'image' } }),
  ];
});

afterAll(removeScratchDirs);

describe('cdk-nag AwsSolutions and Serverless packs', () => {
  it('finds nothing unacknowledged', () => {
    for (const { stack } of synths) {
      for (const pack of nagPacks()) {
        const report = pack.validateScope(stack);
        const findings = report.violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
        expect(findings, pack.name).toEqual([]);
        expect(report.success, pack.name).toBe(true);
      }
    }
  });

  it('gives every acknowledgement a reason and records it in the template metadata', () => {
    for (const ack of Object.values(NAG_ACKNOWLEDGEMENTS)) expect(ack.reason.length, ack.id).toBeGreaterThan(40);
    const acknowledged = JSON.stringify(
      synths.flatMap(({ stack }) =>
        stack.node.findAll().flatMap((c) => c.node.metadata.filter((m) => m.type === 'aws:cdk:acknowledged-rules')),
      ),
    );
    for (const ack of Object.values(NAG_ACKNOWLEDGEMENTS)) expect(acknowledged, ack.id).toContain(ack.reason.slice(0, 40));
  });
});
