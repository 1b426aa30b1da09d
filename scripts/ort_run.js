// Runs one ONNX model in ONNX Runtime (npm onnxruntime-node, CPU) for scripts/runtime_campaign.py.
//
//   NODE_PATH=<cache>/node_modules node scripts/ort_run.js JOB.json
//
// JOB.json: {"model": path, "optimization": "disabled" | "all", "threads": 1,
//            "inputs": [{"name", "type": "float32" | "float64" | "float16" | "int8" | "uint8" | "int16" | "uint16" |
//                        "int32" | "uint32" | "int64" | "bool", "dims": [...],
//                        "file": raw little-endian data (bool: 1 byte, float16: its bits)}],
//            "out_dir": folder}
// Writes each output as out_dir/<k>.bin (raw data) and out_dir/outputs.json: [{"name", "type", "dims", "file"}].
// Exits 1 with the error on stderr when ONNX Runtime refuses the model or fails to run it.
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

const ARRAYS = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array, int8: Int8Array, uint8: Uint8Array, int16: Int16Array,
  uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array, bool: Uint8Array,
};

function read(input) {
  const bytes = fs.readFileSync(input.file);
  const Array = ARRAYS[input.type];
  if (!Array) throw new Error('input type ' + input.type + ' is not supported here');
  const data = new Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  return new ort.Tensor(input.type, data, input.dims);
}

async function main() {
  const job = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  const session = await ort.InferenceSession.create(job.model, {
    graphOptimizationLevel: job.optimization,
    intraOpNumThreads: job.threads || 1,
    interOpNumThreads: 1,
    executionProviders: ['cpu'],
  });
  const feeds = {};
  for (const input of job.inputs) feeds[input.name] = read(input);
  const results = await session.run(feeds);
  const written = [];
  session.outputNames.forEach((name, k) => {
    const t = results[name];
    const file = path.join(job.out_dir, k + '.bin');
    fs.writeFileSync(file, Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    written.push({name, type: t.type, dims: t.dims.map(Number), file});
  });
  fs.writeFileSync(path.join(job.out_dir, 'outputs.json'), JSON.stringify(written));
}

main().catch((e) => {
  process.stderr.write(String(e && e.message ? e.message : e) + '\n');
  process.exit(1);
});
