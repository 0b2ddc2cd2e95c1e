import { Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks, type NagPack } from 'cdk-nag';
import type { IConstruct } from 'constructs';

/** The rule packs the stack must pass: an unacknowledged finding fails `cdk synth` (and so `npm test`). */
export const nagPacks = (): NagPack[] => [new AwsSolutionsChecks(), new ServerlessChecks()];

export function addNagPacks(app: IConstruct): void {
  Validations.of(app).addPlugins(...nagPacks());
}
