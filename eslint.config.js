import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { housePlugin } from './scripts/lint/comment-wording.js';

/**
 * Imports point down, never back up (README "Layout"): functions -> http -> runtime -> adapters -> jobs | batches ->
 * engine -> dialects -> core. The two async lanes (jobs, batches) share engine/ and never import each other. Beside them, scoring, auth, openapi, observability and config depend on core's ports;
 * client is the published package and depends on nothing. Each folder under shared/ (and functions/) may
 * import only the folders listed here; anything else fails `npm run lint`, and so `npm test`.
 */
const MAY_IMPORT = {
  http: [
    'runtime',
    'adapters',
    'batches',
    'files',
    'quota',
    'jobs',
    'engine',
    'dialects',
    'core',
    'scoring',
    'auth',
    'openapi',
    'observability',
    'config',
  ],
  runtime: [
    'adapters',
    'batches',
    'files',
    'quota',
    'jobs',
    'engine',
    'dialects',
    'core',
    'scoring',
    'auth',
    'openapi',
    'observability',
    'config',
  ],
  // The queue adapters need engine/ only; the store adapters implement their lane's store port.
  adapters: ['batches', 'files', 'quota', 'jobs', 'engine', 'dialects', 'core', 'auth', 'observability', 'config'],
  // Batch rerank: the engine (planner, chunk worker, finalizer) over the file store and the same admission as sync.
  batches: ['engine', 'files', 'quota', 'dialects', 'core', 'auth', 'observability'],
  // Files and uploads: the FileStore port and what streams over it (JSONL lines, multipart parts).
  files: ['quota', 'core', 'auth', 'observability'],
  // The per-key ledger every bound is kept on (files, bytes, pending uploads, running jobs and batches).
  quota: ['core'],
  // Async jobs: a running job holds one of its key's running jobs on the quota ledger.
  jobs: ['engine', 'quota', 'dialects', 'core', 'auth', 'observability'],
  // What both lanes run on: the task queue port and task envelope, chunk scoring and the ledger, top-n ranking, the stored
  // outcome, idempotency and the accept path. It knows neither lane's store nor planner.
  engine: ['files', 'quota', 'core', 'auth', 'observability'],
  // The dialects own their JSON Schema vocabulary (json-schema.ts, request-schema-parts.ts); openapi reads them.
  dialects: ['core'],
  core: [],
  scoring: ['core', 'client', 'observability', 'config'],
  auth: ['core', 'observability'],
  // The document describes the dialects' bodies; the HTTP layer hands it the route table.
  openapi: ['core', 'dialects'],
  observability: ['core'],
  config: ['core'],
  client: [],
};
// The Lambda entry points sit above http/ and may import whatever it may, and http/ itself.
MAY_IMPORT.functions = ['http', ...MAY_IMPORT.http];

const MODULES = Object.keys(MAY_IMPORT);

/** The top-level folders around the library: entry points and tools, which library code never imports. */
const TOP_LEVEL = ['infra', 'scripts', 'test'];

/**
 * infra/ composes AWS resources and may read the library's declarations (route table, table keys, config,
 * model pull) but never builds a service at synth time; scripts/ drive the service and never import the CDK app.
 */
const TOP_LEVEL_FORBIDDEN = {
  infra: { top: ['scripts', 'test', 'functions'], shared: ['runtime', 'jobs', 'batches', 'dialects', 'auth', 'openapi', 'client'] },
  scripts: { top: ['infra'], shared: [] },
};

/** One override per folder: a relative import that reaches a folder it may not import is an error. */
const layering = MODULES.map((module) => {
  const forbidden = MODULES.filter((other) => other !== module && !MAY_IMPORT[module].includes(other));
  return {
    files: [module === 'functions' ? 'functions/**/*.ts' : `shared/${module}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(shared/)?(${forbidden.join('|')})(/|$)`,
              message: `${module} may import only ${MAY_IMPORT[module].join(', ') || 'itself'}: imports point down (README "Layout").`,
            },
            {
              regex: `^(\\.\\./)+(${TOP_LEVEL.join('|')})/`,
              message: `${module} is library code: it never imports ${TOP_LEVEL.join(', ')} (entry points and tools import it).`,
            },
          ],
        },
      ],
    },
  };
});

const topLevelLayering = Object.entries(TOP_LEVEL_FORBIDDEN).map(([folder, { top, shared }]) => ({
  files: [`${folder}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          { regex: `^(\\.\\./)+(${top.join('|')})/`, message: `${folder} may not import ${top.join(', ')}.` },
          ...(shared.length === 0
            ? []
            : [
                {
                  regex: `^(\\.\\./)+shared/(${shared.join('|')})/`,
                  message: `${folder} may not import shared/${shared.join(', shared/')}.`,
                },
              ]),
        ],
      },
    ],
  },
}));

/** Product code: the folders that ship. Tests and scripts are held to the same wording but not to the size budgets. */
const PRODUCT = ['shared/**/*.ts', 'functions/**/*.ts', 'infra/**/*.ts'];

/** Tables a script writes (biome.json leaves them as their writers print them): their size is their data's. */
const GENERATED = [
  'shared/scoring/lexical/background-idf-table.ts',
  'shared/scoring/lexical/bm25-calibration.ts',
  'shared/scoring/hybrid/use-lite-fusion.ts',
  'shared/dialects/request-validators.generated.ts',
];

/**
 * Size budgets: a file a reader can hold in mind, a function that fits a screen. What was over budget when the budget
 * came is listed in eslint-suppressions.json (`npx eslint --suppress-all`), so new code meets it at once and the list
 * only shrinks: ESLint fails on a suppression that no longer matches (`npx eslint --prune-suppressions` drops it).
 */
const sizeBudgets = {
  files: PRODUCT,
  ignores: GENERATED,
  rules: {
    'max-lines': ['error', { max: 300, skipBlankLines: true, skipComments: true }],
    'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
  },
};

const commentWording = { files: PRODUCT, plugins: { house: housePlugin }, rules: { 'house/comment-wording': 'error' } };

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', 'dist/', 'coverage/', 'bench/out/', '**/*.py'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[object.name=/^(it|describe|test)$/][property.name='only']", message: 'no .only in committed tests' },
      ],
    },
  },
  ...layering,
  ...topLevelLayering,
  sizeBudgets,
  commentWording,
);
