/**
 * A URL as it may appear in error messages and logs: origin and path only. User info
 * (`user:pass@`) and the query (`?api_key=...`) can carry credentials, so neither is ever quoted.
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}${parsed.search ? '?…' : ''}`;
  } catch {
    return '<invalid url>';
  }
}
