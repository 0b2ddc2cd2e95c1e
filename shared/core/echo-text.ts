/**
 * Caller text a message quotes (a model name, a field value, an object key) is cut to this many characters: enough to
 * recognise what was sent, never the bulk of it. A message can quote it more than once and a dialect's envelope can
 * carry the message twice, so an uncut 2.5 MB model name made a 7.5 MB 400, more than Lambda can return.
 */
export const ECHO_MAX_CHARS = 256;

/** A whole error message is cut to this many characters, whatever it quotes: the bound for a message built without echoText. */
export const MESSAGE_MAX_CHARS = 2_048;

/**
 * `text` as a message may quote it: its first `max` characters and "..." when longer. Cut between code points, so a
 * message never ends in half a surrogate pair (which would not encode as UTF-8). Linear in `max`, not in `text`.
 */
export function echoText(text: string, max: number = ECHO_MAX_CHARS): string {
  if (text.length <= max) return text;
  const end = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, end)}...`;
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
