import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';

/**
 * The Authorization header an AWS SDK sends for a POST of `body` to `url`, signed by the SDK's own SigV4 signer with
 * `accessKeyId` (a rerank key, as SigV4 clients present it) and any secret.
 */
export async function sigV4Authorization(url: string, body: string, accessKeyId: string, secretAccessKey = 'not-checked'): Promise<string> {
  const signer = new SignatureV4({
    service: 'bedrock',
    region: 'us-west-2',
    credentials: { accessKeyId, secretAccessKey },
    sha256: Sha256,
  });
  const { hostname, port, pathname } = new URL(url);
  const signed = await signer.sign({
    method: 'POST',
    protocol: 'http:',
    hostname,
    ...(port ? { port: Number(port) } : {}),
    path: pathname,
    headers: { host: port ? `${hostname}:${port}` : hostname, 'content-type': 'application/json' },
    body,
  });
  return signed.headers['authorization'] as string;
}
