/** One man page reduced to what a search would use: its one-line summary and its description. */
export interface ManPage {
  readonly name: string;
  /** The NAME section after the dash ("list directory contents"). */
  readonly summary: string;
  /** The names listed before the dash in NAME ("ls", "dir"). */
  readonly names: readonly string[];
  /** The DESCRIPTION section as plain text, whitespace collapsed. */
  readonly description: string;
}

/** Crude roff-to-text for man(7) and mdoc(7) sources: drops requests, fonts and escapes, keeps words. */
export function roffToText(lines: readonly string[]): string {
  const out: string[] = [];
  for (const line of lines) {
    if (/^\.\s*\\"/.test(line) || /^'\\"/.test(line)) continue;
    let text = line;
    const request = /^\.\s*([A-Za-z]{1,3})\b\s*(.*)$/.exec(line);
    if (request !== null) {
      // Font and mdoc macros carry text as arguments; everything else (.PP, .TP, .sp, .in) is layout.
      if (!/^(B|I|BR|BI|IB|IR|RB|RI|SM|SB|Nm|Nd|Ar|Fl|Cm|Pa|Xr|Em|Sy|Dq|Ql|Op|Va|Ev|Li|It|Dv|Er|Fn|Ic|Tn)$/.test(request[1]!)) continue;
      text = request[2]!.replace(/"/g, '');
    } else if (line.startsWith('.')) continue;
    text = text
      .replace(/\\f(\[[^\]]*\]|\(..|.)/g, '')
      .replace(/\\\*(\[[^\]]*\]|\(..|.)/g, '')
      .replace(/\\\((em|en|hy)/g, '-')
      .replace(/\\\(../g, '')
      .replace(/\\\[[^\]]*\]/g, '')
      .replace(/\\[-e]/g, (m) => (m === '\\-' ? '-' : '\\'))
      .replace(/\\[&,/|^~ 0:%c]/g, ' ')
      .replace(/\\s[-+]?\d/g, '');
    out.push(text);
  }
  return out.join(' ').replace(/\s+/g, ' ').trim();
}

/** Splits a man page source into sections (.SH / .Sh headings, upper-cased); null for `.so` redirections. */
export function parseManPage(source: string, name: string): ManPage | null {
  if (/^\.so\s/m.test(source.slice(0, 200)) && source.length < 400) return null;
  const sections = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of source.split('\n')) {
    const heading = /^\.(?:SH|Sh)\s+"?([^"]*)"?\s*$/.exec(line);
    if (heading !== null) {
      const key = heading[1]!.trim().toUpperCase();
      current = sections.get(key) ?? [];
      sections.set(key, current);
      continue;
    }
    current?.push(line);
  }
  const nameSection = sections.get('NAME');
  const description = sections.get('DESCRIPTION');
  if (nameSection === undefined || description === undefined) return null;
  const nameText = roffToText(nameSection);
  const nd = nameSection.find((l) => l.startsWith('.Nd '));
  let summary: string;
  let names: string[];
  if (nd !== undefined) {
    summary = roffToText([nd]);
    names = nameSection
      .filter((l) => l.startsWith('.Nm '))
      .map((l) =>
        l
          .slice(4)
          .replace(/[\s,]+$/, '')
          .trim(),
      );
  } else {
    const dash = /\s+-+\s+/.exec(nameText);
    if (dash === null) return null;
    summary = nameText.slice(dash.index + dash[0].length);
    names = nameText
      .slice(0, dash.index)
      .split(/[\s,]+/)
      .filter((n) => n !== '');
  }
  return { name, summary: summary.trim(), names: [...names, name], description: roffToText(description) };
}
