export { loadOnnxBiEncoder, cosine, type OnnxBiEncoder, type OnnxBiEncoderOptions } from './onnx-bi-encoder.js';
export { readBiEncoderFolder, BI_ENCODER_ONNX_CANDIDATES, type BiEncoderFolder } from './bi-encoder-folder.js';
export { UseTokenizer, USE_RESERVED_SYMBOLS, type UseVocabulary } from './use-tokenizer.js';
