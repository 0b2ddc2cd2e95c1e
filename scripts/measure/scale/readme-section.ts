/** Replaces the text between `<!-- name:start -->` and `<!-- name:end -->` (markers kept); throws when they are missing. */
export function replaceBetweenMarkers(text: string, name: string, body: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`markers ${start} ... ${end} not found`);
  return `${text.slice(0, from + start.length)}\n${body.trim()}\n${text.slice(to)}`;
}
