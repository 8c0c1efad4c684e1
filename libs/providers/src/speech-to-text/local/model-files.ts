// Where the local recogniser's parts are on disk (CONTRACTS §4: Moonshine, English). The weights are the
// quantized ONNX files inside @usefulsensors/moonshine-js@0.1.16 (MIT; later versions no longer carry the
// English base model, so the version is pinned). That package's `exports` name only its browser bundle, so
// `require.resolve('<pkg>/package.json')` refuses; the folder is found by walking the same node_modules
// directories require() would search. onnxruntime-node and llama-tokenizer-js are resolved here too and
// handed to the inference thread as paths (moonshine-thread.ts).
import { existsSync } from 'node:fs';
import path from 'node:path';

export const MOONSHINE_MODELS = ['base', 'tiny'] as const;
export type MoonshineModel = (typeof MOONSHINE_MODELS)[number];

export const MOONSHINE_PACKAGE = '@usefulsensors/moonshine-js';

export interface MoonshineFiles {
  encoder: string;
  decoder: string;
  /** onnxruntime-node's entry (CommonJS). */
  onnxruntime: string;
  /** llama-tokenizer-js's entry (an ES module): Moonshine's vocabulary is LLaMA's SentencePiece. */
  tokenizer: string;
}

/** The package folder of moonshine-js, found along require()'s search path. */
export function moonshinePackageDir(): string {
  // The literal name (not the constant) lets Nx list the package in the service's generated package.json (Docker image).
  for (const dir of require.resolve.paths('@usefulsensors/moonshine-js') ?? []) {
    const candidate = path.join(dir, MOONSHINE_PACKAGE);
    if (existsSync(path.join(candidate, 'dist', 'model'))) return candidate;
  }
  throw new Error(`The local speech recogniser's weights are missing: ${MOONSHINE_PACKAGE} is not installed (run npm install)`);
}

/** The files one model size needs; throws naming what is missing. */
export function moonshineFiles(model: MoonshineModel): MoonshineFiles {
  const dir = path.join(moonshinePackageDir(), 'dist', 'model', model, 'quantized');
  const encoder = path.join(dir, 'encoder_model.onnx');
  const decoder = path.join(dir, 'decoder_model_merged.onnx');
  for (const file of [encoder, decoder]) {
    if (!existsSync(file)) throw new Error(`The local speech recogniser's ${model} model is missing (${file}); reinstall ${MOONSHINE_PACKAGE}@0.1.16`);
  }
  return { encoder, decoder, onnxruntime: require.resolve('onnxruntime-node'), tokenizer: require.resolve('llama-tokenizer-js') };
}
