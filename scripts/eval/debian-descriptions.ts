/** One binary package's description, as dpkg/apt store it (deb-control(5) "Description" field). */
export interface DebianDescription {
  readonly package: string;
  /** Source package name; the binary name when the stanza has no Source field. */
  readonly source: string;
  /** The synopsis: the text on the Description line itself. */
  readonly short: string;
  /** The extended description as plain text: paragraphs separated by a blank line. */
  readonly long: string;
}

/**
 * Parses a dpkg status file (or any deb822 file with full descriptions) into descriptions.
 * Continuation lines start with one space; " ." is an empty line; lines indented by two or more
 * spaces are verbatim (kept on their own line). Stanzas without a long description are skipped.
 * Several stanzas may describe the same package (multi-arch): the first one wins.
 */
export function parseDebianDescriptions(text: string): DebianDescription[] {
  const seen = new Set<string>();
  const descriptions: DebianDescription[] = [];
  for (const stanza of text.split(/\n\s*\n/)) {
    const fields = parseStanza(stanza);
    const name = fields.get('package');
    const description = fields.get('description');
    if (name === undefined || description === undefined || seen.has(name)) continue;
    const [first = '', ...rest] = description.split('\n');
    const long = extendedDescription(rest);
    if (first.trim() === '' || long === '') continue;
    seen.add(name);
    const source = (fields.get('source') ?? name).split(' ')[0]!; // "Source: name (version)"
    descriptions.push({ package: name, source, short: first.trim(), long });
  }
  return descriptions;
}

/** Field name (lower case) -> value with continuation lines joined by '\n' (leading space kept). */
function parseStanza(stanza: string): Map<string, string> {
  const fields = new Map<string, string>();
  let current: string | undefined;
  for (const line of stanza.split('\n')) {
    if (/^[ \t]/.test(line)) {
      if (current !== undefined) fields.set(current, `${fields.get(current)}\n${line}`);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    current = line.slice(0, colon).toLowerCase();
    fields.set(current, line.slice(colon + 1).trim());
  }
  return fields;
}

function extendedDescription(lines: readonly string[]): string {
  const paragraphs: string[][] = [[]];
  for (const raw of lines) {
    const line = raw.replace(/^[ \t]/, '');
    if (line.trim() === '.') {
      paragraphs.push([]);
      continue;
    }
    const verbatim = /^[ \t]/.test(line);
    const paragraph = paragraphs[paragraphs.length - 1]!;
    const text = line.trim();
    if (verbatim || paragraph.length === 0) paragraph.push(text);
    else paragraph[paragraph.length - 1] += ` ${text}`;
  }
  return paragraphs
    .map((p) => p.join('\n'))
    .filter((p) => p !== '')
    .join('\n\n');
}
