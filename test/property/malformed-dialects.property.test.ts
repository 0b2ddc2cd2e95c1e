import { describeMalformedDialect } from './support/malformed-dialect-suite.js';

// One file (one runtime load) for the three dialects: the suite's time goes to requests, not imports.
describeMalformedDialect('openai');
describeMalformedDialect('dashscope');
describeMalformedDialect('chat');
