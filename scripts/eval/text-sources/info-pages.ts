/** One node of a GNU info manual: its title (the heading under the node line) and its prose. */
export interface InfoNode {
  readonly manual: string;
  readonly node: string;
  /** Heading text without its section number and quotes, e.g. "Invoking grep". */
  readonly title: string;
  /** The node's text before its menu, whitespace collapsed. */
  readonly body: string;
}

/** Quote characters makeinfo puts around code ('grep', ‘grep’, “x”): dropped from titles. */
const QUOTES = /[‘’“”'"`]/g;

/**
 * Parses an info file (already decompressed) into nodes. Nodes are separated by the unit separator
 * (0x1f) and start with a "File: x.info,  Node: Name, ..." line; the title is the first line that is
 * underlined with *, =, - or . characters. Index, copying and top nodes carry no prose worth a query.
 */
export function parseInfoNodes(text: string, manual: string): InfoNode[] {
  const nodes: InfoNode[] = [];
  for (const part of text.split('\x1f')) {
    const lines = part.replace(/^\n+/, '').split('\n');
    const header = /^File: [^,]+,\s+Node: ([^,\t]+)/.exec(lines[0] ?? '');
    if (header === null) continue;
    const node = header[1]!.trim();
    if (/^(Top|.*Index|Copying.*|GNU Free Documentation License|.*License)$/i.test(node)) continue;
    let titleAt = -1;
    for (let i = 1; i + 1 < Math.min(lines.length, 8); i++) {
      if (lines[i]!.trim() !== '' && /^[*=\-.]{3,}\s*$/.test(lines[i + 1]!)) {
        titleAt = i;
        break;
      }
    }
    if (titleAt < 0) continue;
    const title = lines[titleAt]!.replace(/^[\d.A-Z]*\d[\d.]*\s+/, '')
      .replace(QUOTES, '')
      .replace(/\s+/g, ' ')
      .trim();
    const rest = lines.slice(titleAt + 2).join('\n');
    const menuAt = rest.search(/^\* Menu:/m);
    const body = (menuAt >= 0 ? rest.slice(0, menuAt) : rest).replace(/\s+/g, ' ').trim();
    nodes.push({ manual, node, title, body });
  }
  return nodes;
}
