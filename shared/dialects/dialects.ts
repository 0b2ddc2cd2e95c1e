import { bedrockDialect } from './bedrock/bedrock-dialect.js';
import { bedrockInvokeDialect } from './bedrock/bedrock-invoke-dialect.js';
import { pineconeDialect } from './pinecone/pinecone-dialect.js';
import { weaviateDialect } from './weaviate/weaviate-dialect.js';
import { chatDialect } from './chat/chat-dialect.js';
import { cohereV2Dialect } from './cohere-v2/cohere-v2-dialect.js';
import { dashScopeDialect } from './dashscope/dashscope-dialect.js';
import type { Dialect, DialectName } from './dialect.js';
import { nimDialect } from './nim/nim-dialect.js';
import { vllmScoreDialect } from './vllm-score/vllm-score-dialect.js';
import { mixedbreadDialect } from './mixedbread/mixedbread-dialect.js';
import { vertexDialect } from './vertex/vertex-dialect.js';
import { llamaStackDialect } from './llama-stack/llama-stack-dialect.js';
import { openAiDialect } from './openai/openai-dialect.js';
import { pipelineDialect } from './pipeline/pipeline-dialect.js';
import { ragToolDialect } from './rag-tool/rag-tool-dialect.js';
import { teiDialect } from './tei/tei-dialect.js';
import { voyageDialect } from './voyage/voyage-dialect.js';
import { zeroEntropyDialect } from './zeroentropy/zeroentropy-dialect.js';

/** Every dialect by name: a job remembers the name it was submitted in and is formatted back in it. */
export const DIALECTS: Readonly<Record<DialectName, Dialect>> = {
  openai: openAiDialect,
  dashscope: dashScopeDialect,
  chat: chatDialect,
  'rag-tool': ragToolDialect,
  'llama-stack': llamaStackDialect,
  pipeline: pipelineDialect,
  'cohere-v2': cohereV2Dialect,
  voyage: voyageDialect,
  tei: teiDialect,
  nim: nimDialect,
  'vllm-score': vllmScoreDialect,
  mixedbread: mixedbreadDialect,
  vertex: vertexDialect,
  zeroentropy: zeroEntropyDialect,
  bedrock: bedrockDialect,
  'bedrock-invoke': bedrockInvokeDialect,
  pinecone: pineconeDialect,
  weaviate: weaviateDialect,
};
