import type { HubRepoInfo, HubSibling } from './hub-repo-files.js';
import { MissingModelFileError } from './model-pull-error.js';

/** Tokenizer and config files a PyTorch checkpoint folder needs for export (scripts/model/export-onnx.py). */
const CHECKPOINT_SUPPORT =
  /^(config\.json|tokenizer\.json|tokenizer_config\.json|special_tokens_map\.json|generation_config\.json|vocab\.(txt|json)|merges\.txt|sentencepiece\.bpe\.model|spiece\.model|config_sentence_transformers\.json|modules\.json)$/;
/** Weights: one safetensors file, its shards with their index, or the legacy pytorch_model.bin (shards). */
const SAFETENSORS = /^model(-\d{5}-of-\d{5})?\.safetensors$|^model\.safetensors\.index\.json$/;
const PYTORCH_BIN = /^pytorch_model(-\d{5}-of-\d{5})?\.bin$|^pytorch_model\.bin\.index\.json$/;

/**
 * The files of a repo that publishes no ONNX graph, for a local export: root-level config, tokenizer and
 * weights only (never the TF / Flax / OpenVINO copies). safetensors is preferred over pickled .bin weights.
 */
export function selectPytorchFiles(info: HubRepoInfo): HubSibling[] {
  const root = info.siblings.filter((s) => !s.rfilename.includes('/'));
  const weights = root.filter((s) => SAFETENSORS.test(s.rfilename));
  const chosen = weights.length > 0 ? weights : root.filter((s) => PYTORCH_BIN.test(s.rfilename));
  if (chosen.length === 0) throw new MissingModelFileError(`${info.id} has no model.safetensors or pytorch_model.bin at its root`);
  if (!root.some((s) => s.rfilename === 'config.json')) throw new MissingModelFileError(`${info.id} has no config.json`);
  return [...root.filter((s) => CHECKPOINT_SUPPORT.test(s.rfilename)), ...chosen];
}
