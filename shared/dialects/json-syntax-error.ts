/** Where a text stops being JSON, told in the terms an editor shows: line and column (both from 1). */
export interface JsonSyntaxError {
  /** UTF-16 offset of the first character that cannot continue the JSON text (its length if it ends early). */
  readonly offset: number;
  readonly line: number;
  readonly column: number;
  /** What is wrong and where, e.g. `unexpected character "]" at line 1, column 35`; never quotes more than that one character (bodies may hold secrets). */
  readonly summary: string;
}

type Expect = 'value' | 'valueOrClose' | 'key' | 'keyOrClose' | 'colon' | 'commaOrClose' | 'end';

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const HEX = /^[0-9a-fA-F]$/;

/** End offset of the string starting at `start` (a '"'), or -(offset of the fault) - 1. */
function scanString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) return -i - 1;
    if (c === 0x5c) {
      const next = text[i + 1];
      if (next === 'u') {
        for (let k = i + 2; k < i + 6; k++) if (!HEX.test(text[k] ?? '')) return -k - 1;
        i += 5;
      } else if (next !== undefined && ESCAPES.has(next)) i += 1;
      else return -(i + 1) - 1;
    }
  }
  return -text.length - 1;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** End offset of the number starting at `start`, or -(offset of the first character that cannot continue it) - 1. */
function scanNumber(text: string, start: number): number {
  let i = start;
  if (text[i] === '-') i++;
  if (text[i] === '0') i++;
  else if (isDigit(text[i])) while (isDigit(text[i])) i++;
  else return -i - 1;
  if (text[i] === '.') {
    i++;
    if (!isDigit(text[i])) return -i - 1;
    while (isDigit(text[i])) i++;
  }
  if (text[i] === 'e' || text[i] === 'E') {
    i++;
    if (text[i] === '+' || text[i] === '-') i++;
    if (!isDigit(text[i])) return -i - 1;
    while (isDigit(text[i])) i++;
  }
  return i;
}

/**
 * The first syntax error of a text JSON.parse rejected, found by one pass of a JSON grammar (RFC 8259)
 * with an explicit stack: linear in the text and independent of the V8 version's message wording
 * (which gives a position for some errors and a quoted excerpt for others). Undefined for valid JSON.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const stack: string[] = [];
  let expect: Expect = 'value';
  let i = 0;
  const afterValue = (): Expect => (stack.length === 0 ? 'end' : 'commaOrClose');
  const fault = (offset: number): JsonSyntaxError => describe(text, offset);
  for (;;) {
    while (i < text.length && WHITESPACE.has(text[i]!)) i++;
    if (i >= text.length) return expect === 'end' ? undefined : fault(text.length);
    const c = text[i]!;
    switch (expect) {
      case 'end':
        return fault(i);
      case 'colon':
        if (c !== ':') return fault(i);
        i++;
        expect = 'value';
        break;
      case 'commaOrClose': {
        const top = stack[stack.length - 1];
        if (c === ',') {
          i++;
          expect = top === '{' ? 'key' : 'value';
        } else if ((c === '}' && top === '{') || (c === ']' && top === '[')) {
          stack.pop();
          i++;
          expect = afterValue();
        } else return fault(i);
        break;
      }
      case 'key':
      case 'keyOrClose': {
        if (c === '}' && expect === 'keyOrClose') {
          stack.pop();
          i++;
          expect = afterValue();
          break;
        }
        if (c !== '"') return fault(i);
        const end = scanString(text, i);
        if (end < 0) return fault(-end - 1);
        i = end;
        expect = 'colon';
        break;
      }
      case 'value':
      case 'valueOrClose': {
        if (c === ']' && expect === 'valueOrClose') {
          stack.pop();
          i++;
          expect = afterValue();
        } else if (c === '{' || c === '[') {
          stack.push(c);
          i++;
          expect = c === '{' ? 'keyOrClose' : 'valueOrClose';
        } else if (c === '"') {
          const end = scanString(text, i);
          if (end < 0) return fault(-end - 1);
          i = end;
          expect = afterValue();
        } else if (c === 't' || c === 'f' || c === 'n') {
          const literal = c === 't' ? 'true' : c === 'f' ? 'false' : 'null';
          for (let k = 0; k < literal.length; k++) if (text[i + k] !== literal[k]) return fault(i + k);
          i += literal.length;
          expect = afterValue();
        } else {
          const end = scanNumber(text, i);
          if (end < 0) return fault(-end - 1);
          i = end;
          expect = afterValue();
        }
        break;
      }
    }
  }
}

function describe(text: string, offset: number): JsonSyntaxError {
  let line = 1;
  let lineStart = 0;
  for (let k = text.indexOf('\n'); k !== -1 && k < offset; k = text.indexOf('\n', k + 1)) {
    line++;
    lineStart = k + 1;
  }
  const column = offset - lineStart + 1;
  if (offset >= text.length) {
    return { offset, line, column, summary: text.trim() === '' ? 'it is empty' : `it ends early, at line ${line}, column ${column}` };
  }
  const code = text.codePointAt(offset)!;
  const shown =
    code < 0x20 || code === 0x7f
      ? `control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`
      : `character ${JSON.stringify(String.fromCodePoint(code))}`;
  return { offset, line, column, summary: `unexpected ${shown} at line ${line}, column ${column}` };
}
