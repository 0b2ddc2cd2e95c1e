/**
 * The one list of where an ONNX export lives in a Hugging Face model folder, per variant: what
 * `model:pull --variant` downloads, what a scorer's `variant` loads and, in order, what a folder loads by
 * default. Hub repos (Xenova / onnx-community / optimum exports) publish the variants side by side in
 * `onnx/`: model.onnx (fp32), model_fp16.onnx, model_quantized.onnx (dynamic int8), model_int8.onnx,
 * model_uint8.onnx, model_q4.onnx, ...; a bare `model.onnx` at the root is also common.
 */
export type ModelVariant = 'fp32' | 'fp16' | 'quantized' | 'int8' | 'uint8' | 'q4';

export const MODEL_VARIANTS: readonly ModelVariant[] = ['fp32', 'fp16', 'quantized', 'int8', 'uint8', 'q4'];

/** Each variant's file names, in preference order. */
export const ONNX_VARIANT_FILES: Readonly<Record<ModelVariant, readonly string[]>> = {
  fp32: ['onnx/model.onnx', 'model.onnx'],
  fp16: ['onnx/model_fp16.onnx', 'model_fp16.onnx'],
  quantized: [
    'onnx/model_quantized.onnx',
    'model_quantized.onnx',
    'onnx/model_int8.onnx',
    'onnx/model_qint8_avx512_vnni.onnx',
    'onnx/model_quint8_avx2.onnx',
  ],
  // optimum's dynamic int8 export is named model_quantized.onnx: the same weights when no model_int8.onnx exists.
  int8: ['onnx/model_int8.onnx', 'model_int8.onnx', 'onnx/model_quantized.onnx', 'model_quantized.onnx'],
  uint8: ['onnx/model_uint8.onnx', 'model_uint8.onnx'],
  q4: ['onnx/model_q4.onnx', 'model_q4.onnx'],
};

/**
 * What a folder loads when no file or variant is named: fp32 first (a folder that ships both is most
 * faithful with fp32), then the 8-bit exports. fp16 and q4 are never picked implicitly (CPU kernels for
 * them are slow or missing).
 */
export const ONNX_FILE_CANDIDATES: readonly string[] = [
  ...new Set([...ONNX_VARIANT_FILES.fp32, ...ONNX_VARIANT_FILES.quantized, ...ONNX_VARIANT_FILES.int8, ...ONNX_VARIANT_FILES.uint8]),
];
