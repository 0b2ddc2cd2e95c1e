/**
 * AWS SDKs sign with SigV4 and send no other credential: the key is the access key id, and the signature is not
 * checked (SECURITY.md), so a key put in `secretAccessKey` is the usual mistake.
 */
export const BEDROCK_KEY_PLACEMENT =
  'AWS SDKs sign with SigV4: set the key as the access key id, credentials {accessKeyId: <key>, secretAccessKey: <anything>} (boto3: aws_access_key_id), not as the secret';
