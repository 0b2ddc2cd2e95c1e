import type { DownloadedFile, DownloadProgress } from './download-hub-file.js';

/** Where progress goes: process.stderr, or anything with write() (and isTTY when it redraws in place). */
export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

/**
 * model:pull's progress output, shared by the CLI and by `cdk synth` pulling a hub id in rerank:models, so both
 * look the same: one line per file, redrawn in place on a terminal, every 10% otherwise (CI logs).
 */
export function progressPrinter(stream: ProgressStream): (progress: DownloadProgress) => void {
  const tty = stream.isTTY === true;
  const started = new Map<string, number>();
  const lastStep = new Map<string, number>();
  return ({ file, receivedBytes, totalBytes }) => {
    const start = started.get(file) ?? performance.now();
    started.set(file, start);
    const percent = totalBytes ? Math.floor((receivedBytes / totalBytes) * 100) : undefined;
    const step = tty ? Math.floor(performance.now() / 200) : Math.floor((percent ?? 0) / 10);
    if (lastStep.get(file) === step && receivedBytes !== totalBytes) return;
    lastStep.set(file, step);
    const rate = receivedBytes / Math.max(1e-3, (performance.now() - start) / 1000);
    const line = `  ${file}  ${mb(receivedBytes)}${totalBytes ? ` / ${mb(totalBytes)}  ${percent}%` : ''}  ${mb(rate)}/s`;
    stream.write(tty ? `\r${line}\x1b[K` : `${line}\n`);
  };
}

/** The line printed once a file is verified and in place (or already was). */
export function fileDonePrinter(stream: ProgressStream): (file: DownloadedFile & { readonly skipped: boolean }) => void {
  return (f) => {
    if (stream.isTTY === true) stream.write('\r\x1b[K');
    const how = f.skipped
      ? 'already present, sha256 ok'
      : f.verifiedBy === 'none'
        ? 'no hub checksum to verify'
        : `${f.verifiedBy} verified`;
    stream.write(`  ${f.file}  ${mb(f.bytes)}  ${how}\n`);
  };
}
