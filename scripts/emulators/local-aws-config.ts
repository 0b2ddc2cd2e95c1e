/** SDK client settings for a local emulator: dummy credentials (nothing real is ever sent) and a fixed region. */
export const localAwsConfig = (endpoint: string) =>
  ({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  }) as const;
