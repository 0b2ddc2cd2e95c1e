/**
 * C0 and C1 control characters (ESC, BEL, CR, ...) shown as `\xNN`: repo ids, file names and error bodies come from
 * the hub, and these messages are printed on the operator's terminal at `npm start` and `cdk synth`. Newline and tab
 * stay: our own messages use them, and they move no cursor and set no colour or title.
 */
const escapeControlCharacters = (text: string): string =>
  // eslint-disable-next-line no-control-regex
  text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

/** Base of every model:pull failure; the message says what to do, `cause` keeps the low-level error. */
export class ModelPullError extends Error {
  override readonly name: string = 'ModelPullError';

  constructor(message: string, options?: { cause?: unknown }) {
    // Every message may carry remote text: escaped once here, so no subclass or call site can forget it.
    super(escapeControlCharacters(message), options);
  }
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
