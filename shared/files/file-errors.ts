/** What FileStore adapters throw; the HTTP layer turns them into the dialect's 404 / 413. */
export class FileNotFoundError extends Error {
  constructor(
    readonly fileId: string,
    options?: { cause?: unknown },
  ) {
    super(`No file ${fileId}`, options);
    this.name = 'FileNotFoundError';
  }
}

export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than ${maxBytes} bytes`);
    this.name = 'FileTooLargeError';
  }
}
