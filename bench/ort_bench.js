#!/usr/bin/env node
// ONNX Runtime (onnxruntime-node, CPU execution provider) on the TinyTransformer: checks the logits
// against the float64 numpy reference, then times each batch size (batch x 256 tokens).
//
// usage: node ort_bench.js MODEL.onnx [--batches 1,4,16,64] [--threads 2] [--min-time S]
//            [--min-iters N] [--budget S] [--warmup N] [--check TOKENS.npy REFERENCE.npy]
//            [--tolerance 1e-4] [--json OUT.json] [--no-spin]
//
// Per batch size: `--warmup` untimed runs (the first one plans this shape), then timed runs until
// at least `--min-iters` runs and `--min-time` seconds are done, stopping early (after at least one
// timed run) once `--budget` seconds have been spent on timed runs. tokens/s = batch * 256 / mean
// latency. The session uses ORT's full graph optimizations (LayerNorm/GELU/MatMul+Add fusions),
// sequential execution, `--threads` intra-op threads and no inter-op parallelism.
'use strict';

const fs = require('fs');
const path = require('path');

function die(msg) {
  process.stderr.write(`ort_bench: ${msg}\n`);
  process.exit(1);
}

let ort;
try {
  ort = require('onnxruntime-node');
} catch (e) {
  die(`cannot load onnxruntime-node (run "npm ci --ignore-scripts" in ${__dirname}): ${e.message}`);
}

function parseArgs(argv) {
  const a = {
    model: null, batches: [1, 4, 16, 64], threads: 2, minTime: 1.0, minIters: 3, budget: 20,
    warmup: 2, check: null, tolerance: 1e-4, json: null, seq: 256, spin: true,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const need = (n) => {
      if (i + n >= argv.length) die(`${arg} needs ${n} value(s)`);
      const v = argv.slice(i + 1, i + 1 + n);
      i += n;
      return v;
    };
    const num = (s) => {
      const v = Number(s);
      if (!Number.isFinite(v) || v < 0) die(`${arg}: not a non-negative number: '${s}'`);
      return v;
    };
    if (arg === '--batches') {
      a.batches = need(1)[0].split(',').map((s) => {
        const v = Number(s);
        if (!Number.isInteger(v) || v < 1) die(`--batches: bad batch size '${s}'`);
        return v;
      });
    } else if (arg === '--threads') a.threads = num(need(1)[0]);
    else if (arg === '--min-time') a.minTime = num(need(1)[0]);
    else if (arg === '--min-iters') a.minIters = Math.max(1, num(need(1)[0]));
    else if (arg === '--budget') a.budget = num(need(1)[0]);
    else if (arg === '--warmup') a.warmup = num(need(1)[0]);
    else if (arg === '--seq') a.seq = num(need(1)[0]);
    else if (arg === '--check') a.check = need(2);
    else if (arg === '--tolerance') a.tolerance = num(need(1)[0]);
    else if (arg === '--json') a.json = need(1)[0];
    else if (arg === '--no-spin') a.spin = false;
    else if (arg.startsWith('-') || a.model) die(`unexpected argument '${arg}'`);
    else a.model = arg;
  }
  if (!a.model) die('usage: node ort_bench.js MODEL.onnx [--batches 1,4,16,64] [--threads N] ...');
  return a;
}

// Minimal .npy reader: little-endian i4/i8/f4/f8, C order.
function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.readUInt32BE(0) !== 0x934e554d || buf.toString('latin1', 1, 6) !== 'NUMPY') die(`${file}: not a .npy file`);
  const major = buf[6];
  const hlen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const hstart = major === 1 ? 10 : 12;
  const header = buf.toString('latin1', hstart, hstart + hlen);
  const descr = /'descr':\s*'([^']+)'/.exec(header);
  const fortran = /'fortran_order':\s*(True|False)/.exec(header);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descr || !fortran || !shape) die(`${file}: cannot parse the .npy header ${header}`);
  if (fortran[1] === 'True') die(`${file}: Fortran order is not supported`);
  const dims = shape[1].split(',').map((s) => s.trim()).filter((s) => s.length).map(Number);
  const types = { '<i4': Int32Array, '<i8': BigInt64Array, '<f4': Float32Array, '<f8': Float64Array };
  const T = types[descr[1]];
  if (!T) die(`${file}: dtype ${descr[1]} is not supported`);
  const count = dims.reduce((x, y) => x * y, 1);
  const off = hstart + hlen;
  const data = new T(buf.buffer.slice(buf.byteOffset + off, buf.byteOffset + off + count * T.BYTES_PER_ELEMENT));
  return { dims, data };
}

function tokensTensor(session, dims, values /* array of ints */) {
  // The exported model takes int64 token ids; accept an int32 input too.
  const meta = session.inputMetadata && session.inputMetadata[0];
  const type = meta && meta.type ? meta.type : 'int64';
  if (type === 'int32') return new ort.Tensor('int32', Int32Array.from(values), dims);
  return new ort.Tensor('int64', BigInt64Array.from(values, (v) => BigInt(v)), dims);
}

function nowS() {
  return Number(process.hrtime.bigint()) / 1e9;
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const opts = {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
    intraOpNumThreads: a.threads,
    interOpNumThreads: 1,
  };
  // ORT's intra-op threads spin while waiting for work (its default); on a machine whose cores other
  // processes also use, --no-spin makes them block instead.
  if (!a.spin) opts.extra = { session: { intra_op: { allow_spinning: '0' } } };
  const t0 = nowS();
  const session = await ort.InferenceSession.create(a.model, opts);
  const createMs = (nowS() - t0) * 1e3;
  const inName = session.inputNames[0];
  const outName = session.outputNames[0];
  const result = {
    engine: 'onnxruntime-node', version: ort.env.versions ? ort.env.versions.node : 'unknown',
    threads: a.threads, spin: a.spin, session_create_ms: createMs, max_abs_diff: null, rows: [],
  };
  console.log(`onnxruntime-node ${result.version}, CPU EP, ${a.threads} intra-op threads${a.spin ? '' : ' (no spinning)'}; ` +
    `session create (load + optimize ${path.basename(a.model)}): ${createMs.toFixed(1)} ms`);

  if (a.check) {
    const tok = readNpy(a.check[0]);
    const ref = readNpy(a.check[1]);
    const out = (await session.run({ [inName]: tokensTensor(session, tok.dims, Array.from(tok.data, Number)) }))[outName];
    if (out.dims.join('x') !== ref.dims.join('x')) die(`logits shape ${out.dims} != reference ${ref.dims}`);
    let diff = 0;
    for (let i = 0; i < ref.data.length; i++) {
      const d = Math.abs(out.data[i] - ref.data[i]);
      if (!(d <= diff)) diff = d; // also catches NaN
    }
    result.max_abs_diff = diff;
    const ok = diff < a.tolerance;
    console.log(`logits ${out.dims.join('x')}: max |ORT - numpy float64| = ${diff.toExponential(3)} ` +
      `(${ok ? 'ok' : 'TOO LARGE'}, limit ${a.tolerance})`);
    if (!ok) die('ONNX Runtime logits do not match the reference');
  }

  console.log(`  ${'batch'.padStart(6)} ${'iters'.padStart(6)} ${'latency ms'.padStart(11)} ${'min ms'.padStart(9)} ${'tokens/s'.padStart(10)}`);
  for (const b of a.batches) {
    // Deterministic token ids in [0, 256) (a small LCG).
    let s = 12345 + b;
    const vals = new Array(b * a.seq);
    for (let i = 0; i < vals.length; i++) {
      s = (s * 1103515245 + 12345) % 2147483648;
      vals[i] = s % 256;
    }
    const feeds = { [inName]: tokensTensor(session, [b, a.seq], vals) };
    for (let i = 0; i < a.warmup; i++) await session.run(feeds);
    const times = [];
    let sum = 0;
    while (times.length < a.minIters || sum < a.minTime) {
      const t = nowS();
      await session.run(feeds);
      const dt = nowS() - t;
      times.push(dt);
      sum += dt;
      if (sum >= a.budget) break;
    }
    const mean = sum / times.length;
    const min = Math.min(...times);
    const row = { batch: b, iters: times.length, latency_ms: mean * 1e3, min_ms: min * 1e3, tokens_per_s: (b * a.seq) / mean };
    result.rows.push(row);
    console.log(`  ${String(b).padStart(6)} ${String(row.iters).padStart(6)} ${row.latency_ms.toFixed(2).padStart(11)} ` +
      `${row.min_ms.toFixed(2).padStart(9)} ${row.tokens_per_s.toFixed(0).padStart(10)}`);
  }
  if (a.json) fs.writeFileSync(a.json, JSON.stringify(result, null, 1) + '\n');
}

main().catch((e) => die(e && e.stack ? e.stack : String(e)));
