const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A one-line summary without the names of what it describes (a package's binary and source names, a
 * command's names), so a query is not answered by spotting the name that the document usually repeats.
 * Only exact names are removed, as whole words; other identifiers ("GNU C Library", "OpenSSL") stay,
 * since they are what a user would type.
 */
export function queryWithoutNames(summary: string, names: Iterable<string>): string {
  let query = summary;
  for (const name of new Set(names)) {
    if (name === '') continue;
    query = query.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(name)}(?![\\p{L}\\p{N}])`, 'giu'), ' ');
  }
  return query
    .replace(/\(\s*\)/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s\-:,;.]+|[\s\-:,;]+$/g, '')
    .trim();
}
