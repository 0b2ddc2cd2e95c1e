export { loadOnnxBiEncoder, cosine, type OnnxBiEncoder, type OnnxBiEncoderOptions } from './onnx-bi-encoder.js';
export { readBiEncoderFolder, readRerankKind, BI_ENCODER_ONNX_CANDIDATES, type BiEncoderFolder, type RerankKind } from './bi-encoder-folder.js';
export { UseTokenizer, USE_RESERVED_SYMBOLS, type UseVocabulary } from './use-tokenizer.js';
