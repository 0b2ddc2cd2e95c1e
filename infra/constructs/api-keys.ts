import { RemovalPolicy } from 'aws-cdk-lib';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';

export interface ApiKeysProps {
  /** An existing secret's full ARN; when absent the stack creates a secret holding one generated key. */
  readonly existingSecretArn?: string;
}

/** The env var naming the secret; the function reads the keys at cold start, so no key is ever in the template. */
export const API_KEYS_SECRET_ENV = 'RERANK_API_KEYS_SECRET_ARN';

/**
 * Storage for the allowed Bearer keys: a Secrets Manager secret whose value is a comma-separated list
 * (or a JSON array) of keys. Created with one random 48-character key so a fresh stack is never open.
 */
export class ApiKeys extends Construct {
  readonly secret: secretsmanager.ISecret;

  constructor(scope: Construct, id: string, props: ApiKeysProps = {}) {
    super(scope, id);
    this.secret = props.existingSecretArn
      ? secretsmanager.Secret.fromSecretCompleteArn(this, 'Secret', props.existingSecretArn)
      : new secretsmanager.Secret(this, 'Secret', {
          description: 'Rerank API Bearer keys: comma-separated list (or JSON array) of accepted keys',
          generateSecretString: { passwordLength: 48, excludePunctuation: true, includeSpace: false },
          removalPolicy: RemovalPolicy.DESTROY,
        });
  }

  /** Read access to this one secret (GetSecretValue, DescribeSecret) and its ARN in the function's env, in one step. */
  grantReadKeys(fn: iam.IGrantable & { addEnvironment(key: string, value: string): unknown }): void {
    this.secret.grantRead(fn);
    fn.addEnvironment(API_KEYS_SECRET_ENV, this.secret.secretArn);
  }
}
