/**
 * The query and candidates every dialect's published example ranks (Dialect.example): one small, realistic set, so
 * the examples differ only in how each wire format spells it.
 */
export const EXAMPLE_QUERY = 'python http library';
export const EXAMPLE_DOCUMENTS: readonly string[] = [
  'urllib is a built-in Python library for HTTP requests',
  'requests is a popular third-party HTTP library for Python',
  'Bamboo forests grow quickly in warm climates',
];
