import { defineWireFields } from '../define-wire-fields.js';
import { at, withDefault } from '../wire-field.js';
import { scoringExtensions } from '../wire-field-groups.js';
import { DOCUMENTS_FILE_ID, MODEL, QUERY, TOP_N, TRUNCATE, booleanOrAbsent, documents, stringOrAbsent } from '../wire-types.js';

/** The body of DashScope's text-rerank endpoint: `{model, input: {query, documents}, parameters: {...}}`. */
export const dashScopeRequestFields = defineWireFields({
  title: 'DashScopeRerankRequest',
  inputs: { documentsFileId: at(['input', 'documents_file_id'], DOCUMENTS_FILE_ID) },
  fields: {
    model: at('model', MODEL),
    query: at(['input', 'query'], QUERY),
    documents: at(['input', 'documents'], documents('Strings, or objects with a string `text` (objects are returned as sent).')),
    topN: at(['parameters', 'top_n'], TOP_N),
    returnDocuments: at(
      ['parameters', 'return_documents'],
      withDefault(booleanOrAbsent('true = every result carries its document.'), false),
    ),
    ...scoringExtensions('parameters'),
    // qwen3-rerank takes a task instruction; our scorers may use it.
    prompt: at(['parameters', 'instruct'], stringOrAbsent('A task instruction (qwen3-rerank style), passed to scorers that take one.')),
    truncate: at(['parameters', 'truncate'], TRUNCATE),
  },
});
