/** Base of every model:pull failure; the message says what to do, `cause` keeps the low-level error. */
export class ModelPullError extends Error {
  override readonly name: string = 'ModelPullError';
}

/** The hub answered 401/404 for the repository (missing, private or gated). */
export class RepoNotFoundError extends ModelPullError {
  override readonly name = 'RepoNotFoundError';
}

/** The repository has no file the scorer can use (no tokenizer.json, no ONNX graph of the asked variant). */
export class MissingModelFileError extends ModelPullError {
  override readonly name = 'MissingModelFileError';
}

/** A downloaded file does not hash to what the hub says; the partial file is deleted. */
export class ChecksumMismatchError extends ModelPullError {
  override readonly name = 'ChecksumMismatchError';

  constructor(
    readonly file: string,
    readonly algorithm: 'sha256' | 'git-sha1',
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`${file}: ${algorithm} mismatch (hub says ${expected}, downloaded ${actual}); the file was deleted, pull again`);
  }
}

/** The transfer broke off; the partial file is kept and the next pull resumes it (Range request). */
export class InterruptedDownloadError extends ModelPullError {
  override readonly name = 'InterruptedDownloadError';
}
