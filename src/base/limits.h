/* Every bound hlorun puts on what it reads from outside (program text, weight and tensor files,
 * artifacts, server configuration, HTTP requests), in one place, each with the reason for its value.
 * Where a bound is the default of an option (hr_parse_options, hr_run_options, hr_exec_options,
 * srv_options, the serve command's flags) the option's default is the constant here. Tuning
 * constants of algorithms (fusion patterns, tile and chunk sizes) stay with their code.
 *
 * Nesting depths are chosen together. The parser is the first stage: it counts regions, attributes,
 * tuple types and location aliases together, a function body's braces included (a module's not, so
 * that a printed module parses back), and so accepts fewer than HR_LIMIT_NESTING_DEPTH levels of
 * each. Every later recursive walk (the verifier, the printer and its value namer, the compiler's
 * copies of types and attributes and its walk over calls and regions, the interpreter's calls and
 * regions) accepts at least that many, so a module that parses is never rejected later for its
 * nesting alone. Deep call chains are the one thing parsing does not bound: the compiler and the
 * interpreter count each inlined or run call as a level too, and both stop at the same depth. The
 * stack one level costs (measured on deep programs and with -fstack-usage, release build): parser
 * about 1 KiB, verifier, printer and compiler 0.1-0.3 KiB, interpreter 0.6 KiB for an if or a call,
 * 4 KiB in a reduce body and up to about 5 KiB in reduce_window / select_and_scatter / scatter
 * bodies: at 256 levels at most about 1.3 MiB, a sixth of the usual 8 MiB thread stack. (Before the
 * interpreter counted regions, 64 functions of 250 nested ifs calling each other took 8.5 MiB and
 * crashed `hlorun run --interpret`.) */
#ifndef HLORUN_BASE_LIMITS_H
#define HLORUN_BASE_LIMITS_H

#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------------------------------------- */
/* Nesting depths                                                                                  */
/* ---------------------------------------------------------------------------------------------- */

enum {
  /* Regions, attributes and tuple types: the parser's default and ceiling of max_nesting (all kinds
   * counted together) and the bound of the verifier, printer, value namer, the compiler's type and
   * attribute copies and its calls-plus-regions walk (whose output the verifier then checks). */
  HR_LIMIT_NESTING_DEPTH = 256,
  /* The interpreter's nested func.call ops and regions together (one C recursion each); at least
   * HR_LIMIT_NESTING_DEPTH so it runs every program the compiler accepts, counted the same way. */
  HR_LIMIT_CALL_DEPTH = 256,
  /* Tuple nesting of a value's type (the verifier's iterative check keeps a stack of this size). */
  HR_LIMIT_TUPLE_DEPTH = 32,
  /* Default nesting of arrays and objects in a REST request (--max_json_depth): rank plus a few. */
  HR_LIMIT_JSON_DEPTH = 64,
  /* The most --max_json_depth may be set to. */
  HR_LIMIT_JSON_DEPTH_MAX = 1000,
  /* Message nesting in a protobuf text file (model config, batching parameters nest 3-4 deep). */
  HR_LIMIT_TEXTPROTO_DEPTH = 32,
};

/* ---------------------------------------------------------------------------------------------- */
/* Tensor bytes                                                                                    */
/* ---------------------------------------------------------------------------------------------- */

/* One tensor the interpreter allocates (hr_run_options.max_tensor_bytes default), and one input the
 * CLI generates from a model's signature. */
#define HR_LIMIT_TENSOR_BYTES ((size_t)4 << 30)
/* One dense constant in program text (hr_parse_options.max_constant_bytes default). */
#define HR_LIMIT_CONSTANT_BYTES ((size_t)4 << 30)
/* A bytecode constant at least this large is used in place from the mapped file instead of copied
 * (when its bytes are the IR's layout and aligned for its elements): below it, a copy costs less
 * than keeping the file's pages. */
#define HR_LIMIT_IN_PLACE_CONSTANT_BYTES ((size_t)4 << 10)
/* A result computed while compiling (the compiler's folder, an executable's fixed ops, joined
 * weights): larger ones stay ops and run per call, so compiling stays cheap. */
#define HR_LIMIT_FOLD_BYTES ((size_t)1 << 20)
/* An executable's working memory (hr_exec_options.max_arena_bytes default). */
#define HR_LIMIT_ARENA_BYTES ((size_t)16 << 30)
/* One input `hlorun check` generates for a test program's parameter. */
#define HR_LIMIT_CHECK_TENSOR_BYTES ((size_t)1 << 30)

/* ---------------------------------------------------------------------------------------------- */
/* File sizes                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

/* A StableHLO text file (hr_module_parse_file), read whole into memory: weights belong in files of
 * their own. */
#define HR_LIMIT_MODULE_FILE_BYTES ((size_t)2 << 30)
/* The tensor data of a safetensors file (hr_safetensors_read_file default). */
#define HR_LIMIT_SAFETENSORS_BYTES ((size_t)16 << 30)
/* An npy file read without a tensor size bound (hr_npy_read_file with max_bytes 0). */
#define HR_LIMIT_NPY_FILE_BYTES ((size_t)1 << 40)
/* A server configuration file (model config, batching parameters). */
#define HR_LIMIT_CONFIG_FILE_BYTES ((size_t)16 << 20)
/* An artifact the server loads (srv_options.max_model_bytes default). */
#define HR_LIMIT_MODEL_BYTES ((size_t)16 << 30)

/* ---------------------------------------------------------------------------------------------- */
/* Header sizes                                                                                    */
/* ---------------------------------------------------------------------------------------------- */

/* The JSON header of a safetensors file (the format's reference reader allows 100 MB). */
#define HR_LIMIT_SAFETENSORS_HEADER_BYTES ((size_t)100 << 20)
/* The header of an npy file (numpy writes far less; its reader refuses more than 10000 bytes by default). */
#define HR_LIMIT_NPY_HEADER_BYTES ((size_t)1 << 16)
/* The JSON metadata of an artifact or executable file, read whole before anything else. */
#define HR_LIMIT_ARTIFACT_METADATA_BYTES ((uint64_t)64 << 20)

/* ---------------------------------------------------------------------------------------------- */
/* Counts                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* Ops of one specialized function (inlining can multiply a program's size). */
#define HR_LIMIT_SPECIALIZED_OPS ((size_t)1 << 22)

enum {
  /* Tensors in one safetensors header. */
  HR_LIMIT_SAFETENSORS_TENSORS = 1 << 20,
  /* Entries of one artifact metadata list: inputs, outputs, weights, parameters of a weight, platforms. */
  HR_LIMIT_ARTIFACT_ENTRIES = 1 << 16,
  /* Bytes of a name in an artifact (input, output, weight, entry function), and so of an input name a
   * REST request gives. */
  HR_LIMIT_NAME_BYTES = 4096,
  /* Buffer for a dotted weight name built from a jax.arg_info key path (longer ones are not bound). */
  HR_LIMIT_WEIGHT_NAME_BYTES = 1024,
  /* An executable file's batch_chunks. */
  HR_LIMIT_BATCH_CHUNKS = 1 << 30,
  /* Iterations of one stablehlo.while in the interpreter (hr_run_options.max_while_iterations default). */
  HR_LIMIT_WHILE_ITERATIONS = 1000000000,
  /* Program inputs the CLI commands hold (run, compare, compile, bench). */
  HR_LIMIT_CLI_INPUTS = 256,
  /* Parameters of a test program `hlorun check` runs. */
  HR_LIMIT_CHECK_PARAMS = 64,
  /* Processes (replicas x partitions) of one process grid (interpreter.run_parallel, a module's
   * mhlo.num_replicas x mhlo.num_partitions): each runs on a thread of its own. */
  HR_LIMIT_PROCESSES = 1024,
};

/* ---------------------------------------------------------------------------------------------- */
/* Server                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* A request body (srv_options.max_request_bytes, --max_request_bytes default; 413 beyond). */
#define HR_LIMIT_REQUEST_BYTES ((size_t)64 << 20)
/* Request body bytes held at once over all connections (srv_options.max_buffered_bytes; 503 beyond). */
#define HR_LIMIT_BUFFERED_BYTES ((size_t)256 << 20)
/* A gRPC request message (srv_options.grpc_max_message_bytes, --grpc_max_message_bytes): as a
 * REST body, since both carry the same tensors (TF Serving accepts up to INT32_MAX). */
#define HR_LIMIT_GRPC_MESSAGE_BYTES HR_LIMIT_REQUEST_BYTES
/* Tensor bytes of one request's outputs, known before the run (srv_options.max_output_bytes). */
#define HR_LIMIT_OUTPUT_BYTES ((size_t)32 << 20)
/* Elements over the inputs of one request (srv_options.max_tensor_elements). */
#define HR_LIMIT_REQUEST_ELEMENTS ((int64_t)1 << 24)

enum {
  /* A model name or version label in a URL path segment, NUL included. */
  HR_LIMIT_URL_SEGMENT = 1024,
  /* Characters of one JSON number token (digits, sign, fraction, exponent); a double prints
   * in at most 24. */
  HR_LIMIT_JSON_NUMBER = 400,
  /* Seconds from a request's arrival to its answer (srv_options.request_timeout_seconds; 504). */
  HR_LIMIT_REQUEST_SECONDS = 30,
  /* Seconds for a request's line, headers and body to arrive (srv_options.read_seconds). */
  HR_LIMIT_READ_SECONDS = 30,
  /* Seconds a connection may stay idle before its next request line. */
  HR_LIMIT_IDLE_SECONDS = 60,
  /* Seconds shutdown waits for requests in flight (srv_options.drain_seconds). */
  HR_LIMIT_DRAIN_SECONDS = 30,
  /* Bytes per second a client must read an answer at, beyond the read timeout. */
  HR_LIMIT_MIN_SEND_RATE = 64 << 10,
  /* A body over the request bound is read and dropped up to this many times the bound, then the
   * connection is closed. */
  HR_LIMIT_DISCARD_FACTOR = 16,
  /* Open connections (srv_options.max_connections default), within the file descriptor limit. */
  HR_LIMIT_CONNECTIONS = 1000,
  /* Open connections from one client address (srv_options.max_connections_per_client default). */
  HR_LIMIT_CONNECTIONS_PER_CLIENT = 128,
  /* The most REST API threads (srv_options.num_threads, --rest_api_num_threads) may be set to. */
  HR_LIMIT_REST_THREADS_MAX = 4096,
  /* Fields in one protobuf text document. */
  HR_LIMIT_TEXTPROTO_FIELDS = 100000,
  /* Entries of one configuration list: models, version labels, versions, allowed batch sizes. */
  HR_LIMIT_CONFIG_LIST = 4096,
  /* The largest max_batch_size, max_enqueued_batches and allowed batch size accepted. */
  HR_LIMIT_BATCH_PARAM_MAX = 1 << 20,
  /* Version directories under one base path. */
  HR_LIMIT_VERSIONS = 65536,
  /* Entries read from one directory while looking for versions and artifacts. */
  HR_LIMIT_DIR_ENTRIES = 1 << 20,
  /* Version records kept per model (the oldest ended ones are dropped first). */
  HR_LIMIT_VERSION_RECORDS = 1024,
  /* Seconds a model's warm-up run may take before its load fails (a runaway loop in a model). */
  HR_LIMIT_WARM_UP_SECONDS = 120,
  /* Predict signatures served from one SavedModel version, each its own program compiled and
   * warmed up at load (models carry a handful). */
  HR_LIMIT_SERVED_SIGNATURES = 256,
  /* gRPC: calls open at once on one HTTP/2 connection (SETTINGS_MAX_CONCURRENT_STREAMS, gRPC's
   * own default), also the calls one connection may have queued or running on the workers: a
   * client resetting streams at once (rapid reset) cannot queue more work than this. */
  HR_LIMIT_GRPC_STREAMS = 100,
  /* gRPC: bytes of one call's header list (SETTINGS_MAX_HEADER_LIST_SIZE; gRPC's default is 8
   * KiB, doubled for long bearer tokens); a longer list resets the stream. */
  HR_LIMIT_GRPC_HEADER_BYTES = 16 << 10,
  /* gRPC: the flow-control window of each stream and of the connection; large enough that a
   * 64 MiB message does not wait on window updates every 64 KiB. */
  HR_LIMIT_GRPC_WINDOW_BYTES = 1 << 20,
  /* Metric series (one per label set); later ones are not recorded. */
  HR_LIMIT_METRICS_SERIES = 10000,
};

/* ---------------------------------------------------------------------------------------------- */
/* Text generation (src/generate)                                                                  */
/* ---------------------------------------------------------------------------------------------- */

enum {
  /* Sequences one generation model runs at once (its KV cache holds a row per slot, rounded up to
   * a power of two); llama.cpp and vLLM default to a few to a few hundred. */
  HR_LIMIT_GEN_SLOTS = 256,
  /* Requests waiting for a slot; more are refused (RESOURCE_EXHAUSTED) rather than queued without
   * bound. */
  HR_LIMIT_GEN_WAITING = 1024,
  /* Prompts prefilled together (a power of two): joining requests beyond it wait for the next step. */
  HR_LIMIT_GEN_PREFILL_BATCH = 8,
  /* Stop strings per request and bytes per stop string (OpenAI allows 4). */
  HR_LIMIT_GEN_STOP_STRINGS = 4,
  HR_LIMIT_GEN_STOP_BYTES = 256,
  /* Vocabulary of a generation model: the sampler's scratch holds one entry per token. */
  HR_LIMIT_GEN_VOCAB = 1 << 20,
};
/* Bytes of one generation model's KV cache (every slot's rows together). */
#define HR_LIMIT_GEN_CACHE_BYTES ((size_t)8 << 30)

/* ---------------------------------------------------------------------------------------------- */
/* MLIR bytecode (src/formats/mlirbc)                                                              */
/* ---------------------------------------------------------------------------------------------- */

enum {
  /* Ops with regions nested in one another in a bytecode file (the reader recurses once per level,
   * about 0.3 KiB of stack each). Two more than HR_LIMIT_NESTING_DEPTH: the top-level block and
   * builtin.module are levels here that the text parser does not count, so every module the later
   * stages accept can be read. */
  HR_LIMIT_BC_NESTING_DEPTH = HR_LIMIT_NESTING_DEPTH + 2,
};

/* ---------------------------------------------------------------------------------------------- */
/* jax.export files (FlatBuffers)                                                                  */
/* ---------------------------------------------------------------------------------------------- */

enum {
  /* Table nesting (the root is depth 0): FlatBuffers' verifier allows 64 by default; pytrees are
   * the deepest thing JAX writes, one level per container. */
  HR_LIMIT_FB_DEPTH = 64,
  /* Dimensions of one abstract value (JAX itself puts no bound; XLA's shapes stay far below). */
  HR_LIMIT_JAXEXPORT_RANK = 1024,
  /* Nesting of tuple shardings in an OpSharding proto (one level per nested tuple). */
  HR_LIMIT_SHARDING_DEPTH = 16,
  /* A TensorFlow graph's nodes, and a function library's functions (jax2tf graphs hold tens to
   * thousands; TF's own models a few hundred thousand at most). */
  HR_LIMIT_TF_NODES = 1 << 20,
  /* Entries of one repeated field of a TF message: a node's inputs and attributes, a list
   * attribute's values, a signature's tensors, a function's arguments. */
  HR_LIMIT_TF_LIST = 1 << 16,
  /* Ops a tensor is followed back through, from a signature output to the XlaCallModule and from
   * there to a signature input or variable (one stack frame each; jax2tf's chains are a few
   * dozen long, and a cycle ends here). */
  HR_LIMIT_TF_FOLLOW_DEPTH = 1024,
  /* A variable's checkpoint key ("params/dense/kernel/.ATTRIBUTES/VARIABLE_VALUE"), used as its
   * weight's name. */
  HR_LIMIT_TF_KEY_BYTES = 4096,
  /* The text a bytecode's Shardy attributes decode to: one attribute (entries may name the same
   * nested entry many times over, so text can grow far beyond the file; real ones are under a few
   * KiB, the sharding of a loop carrying thousands of values under 100 KiB), and all of a module's. */
  HR_LIMIT_SDY_TEXT_BYTES = 1 << 20,
  HR_LIMIT_SDY_MODULE_TEXT_BYTES = 16 << 20,
  /* Axes of one Shardy mesh, and of one dimension's sharding (TPU pods use 3 to 6; each axis at
   * least doubles the device count, so 16 axes are already 65536 devices). */
  HR_LIMIT_SDY_AXES = 16,
  /* Devices an sdy.manual_computation is expanded over on one CPU device: its body is emitted once
   * per device, so this bounds how much a module grows. */
  HR_LIMIT_SDY_DEVICES = 256,
  /* Devices a GSPMD sharding string (`{devices=[2,2]<=[4]}`) may name: its device list is expanded
   * into memory, and the mesh its manual computations get has one axis per prime factor of their
   * number, at most HR_LIMIT_SDY_AXES of them (2^16). */
  HR_LIMIT_GSPMD_DEVICES = 1 << 16,
  /* Orders of those prime factors tried as the mesh's axes until every sharding is expressed on it
   * (a power of two has one order, 2^a * 3 has a + 1; each try reads every sharding once). */
  HR_LIMIT_GSPMD_MESH_TRIES = 64,
  /* Device list entries expanded while one module's GSPMD shardings are read and fitted to meshes,
   * all strings and tries together (a short `<=[65536]` string expands to 65536 of them). */
  HR_LIMIT_GSPMD_EXPANDED = 1 << 26,
  /* Memory held by a read Exported, per byte of its file (besides 1 MiB). */
  HR_LIMIT_JAXEXPORT_MEMORY_FACTOR = 32,
};
/* The largest FlatBuffer: its offsets are 32-bit and its builders stop below 2 GiB. */
#define HR_LIMIT_FB_BYTES ((size_t)0x7fffffff)

/* ---------------------------------------------------------------------------------------------- */
/* Orbax checkpoints: layout                                                                       */
/* ---------------------------------------------------------------------------------------------- */

enum {
  /* Items of a composite checkpoint read together (CheckpointManager items, v1 checkpointables:
   * a handful in practice). */
  HR_LIMIT_ORBAX_ITEMS = 64,
  /* Arrays in one checkpoint: a large model's parameters and optimizer state are ~10^4 leaves. */
  HR_LIMIT_ORBAX_LEAVES = 1 << 20,
  /* Subdirectories of a checkpoint or manager directory looked at (items, steps). */
  HR_LIMIT_ORBAX_ENTRIES = 1 << 16,
  /* Keys of one leaf's path in _METADATA (one per pytree level). */
  HR_LIMIT_ORBAX_TREE_DEPTH = 256,
  /* A path inside a checkpoint (the directory plus an item or step name). */
  HR_LIMIT_ORBAX_PATH_BYTES = 4096,
};
/* One JSON metadata file (_METADATA lists every leaf with its key path: ~300 bytes a leaf). */
#define HR_LIMIT_ORBAX_METADATA_BYTES ((size_t)256 << 20)
/* The legacy msgpack `checkpoint` file, read whole (arrays inline). */
#define HR_LIMIT_ORBAX_MSGPACK_BYTES ((size_t)4 << 30)
/* The arrays of one restore together (hr_orbax_read_dir's max_bytes default), as for safetensors. */
#define HR_LIMIT_ORBAX_BYTES HR_LIMIT_SAFETENSORS_BYTES

/* ---------------------------------------------------------------------------------------------- */
/* Orbax checkpoints: OCDBT                                                                        */
/* ---------------------------------------------------------------------------------------------- */

enum {
  /* Height of a B+tree (a listing recurses once per level; a lookup checks every child is one
   * level lower): at the smallest arity, 2, a tree of height 32 holds 2^32 leaves. */
  HR_LIMIT_OCDBT_TREE_HEIGHT = 32,
  /* Entries of one B+tree node, and files of one data file table: tensorstore's kMaxNodeArity. */
  HR_LIMIT_OCDBT_NODE_ENTRIES = 1 << 20,
  /* A key, the prefixes of the nodes above it included: the format's 16-bit key lengths. */
  HR_LIMIT_OCDBT_KEY_BYTES = 65535,
  /* A data file's path below the database (the format allows 65535 bytes; Linux opens no path
   * longer than PATH_MAX, 4096). */
  HR_LIMIT_OCDBT_PATH_BYTES = 4096,
  /* Databases read together where an unmerged save left only ocdbt.process_N/ directories (one
   * per process: the largest TPU pods run a few thousand). */
  HR_LIMIT_OCDBT_PROCESSES = 4096,
  /* Data files a store keeps mapped between reads (a merged checkpoint has a few per process);
   * beyond them a file is mapped for one read (vm.max_map_count is 65530 by default). */
  HR_LIMIT_OCDBT_MAPPED_FILES = 1024,
};
/* One decoded B+tree node: Orbax writes nodes of up to max_decoded_node_bytes = 100,000,000. */
#define HR_LIMIT_OCDBT_NODE_BYTES ((size_t)128 << 20)
/* A manifest, stored and decoded: a configuration, at most 2^16 versions and a few version tree
 * references (Orbax's are 100-300 bytes). */
#define HR_LIMIT_OCDBT_MANIFEST_BYTES ((size_t)16 << 20)
/* The keys and data file paths of one node written out in full: prefix compression lets a small
 * node name far longer ones (10^6 keys of 200 bytes fit). */
#define HR_LIMIT_OCDBT_EXPANDED_BYTES ((size_t)256 << 20)
/* Keys held at once to list the databases of an unmerged save in order (10^6 arrays of a few
 * chunks, ~100 bytes a key). */
#define HR_LIMIT_OCDBT_LISTED_BYTES ((size_t)1 << 30)

/* ---------------------------------------------------------------------------------------------- */
/* Orbax checkpoints: zarr and msgpack                                                             */
/* ---------------------------------------------------------------------------------------------- */

enum {
  /* Chunks of one zarr array (the product of ceil(shape / chunks), each one key looked up): Orbax
   * writes one chunk per device shard, a few thousand at most. */
  HR_LIMIT_ZARR_CHUNKS = 1 << 20,
  /* Inner chunks of one zarr v3 shard (its index holds 16 bytes for each, read whole). */
  HR_LIMIT_ZARR_SHARD_CHUNKS = 1 << 20,
  /* sharding_indexed codecs nested in one another (Orbax writes one level; one C recursion each). */
  HR_LIMIT_ZARR_SHARD_DEPTH = 4,
  /* Codecs of one zarr v3 codec chain (Orbax: bytes and zstd inside, bytes and crc32c for the index). */
  HR_LIMIT_ZARR_CODECS = 16,
  /* Maps and arrays nested in a msgpack checkpoint (one level per pytree level, as _METADATA's key
   * paths; one C recursion of ~0.2 KiB each). */
  HR_LIMIT_MSGPACK_DEPTH = HR_LIMIT_ORBAX_TREE_DEPTH,
  /* Directory levels the directory store walks below its root when listing (an array's chunk keys
   * with "/" separators are rank + 2 levels deep; ranks stop at 16). */
  HR_LIMIT_KVSTORE_DIR_DEPTH = 24,
  /* Entries the directory store looks at in one listing (every chunk file of every array). */
  HR_LIMIT_KVSTORE_DIR_ENTRIES = 1 << 24,
};
/* A zarr metadata file (.zarray, zarr.json: 200-1000 bytes as tensorstore writes them). */
#define HR_LIMIT_ZARR_METADATA_BYTES ((size_t)1 << 20)
/* What one stored chunk may hold beyond its decoded bytes and 1/64 of them: zstd's and deflate's
 * worst-case expansion is a few bytes per block plus a header, a shard's index 16 bytes a chunk.
 * The bound is applied before a chunk is read; what it decodes to is bounded by the chunk size. */
#define HR_LIMIT_ZARR_CHUNK_SLACK_BYTES ((size_t)4 << 10)
/* The same for one inner chunk of a zarr v3 shard, and what each inner chunk adds to its shard's
 * bound besides its 16 index bytes: a compressed stream's fixed overhead (zstd: a frame header of
 * up to 18 bytes and a 4-byte checksum; gzip: 18 bytes) and a crc32c codec's 4. Shards of many
 * small inner chunks are legitimate; 4 KiB for each would let a shard's bound reach thousands of
 * times its decoded size. */
#define HR_LIMIT_ZARR_INNER_CHUNK_SLACK_BYTES ((size_t)128)

/* ---------------------------------------------------------------------------------------------- */
/* TensorFlow checkpoints: TensorBundle (src/formats/savedmodel/bundle*.c)                         */
/* ---------------------------------------------------------------------------------------------- */

/* An entry's key is bounded by HR_LIMIT_TF_KEY_BYTES, as a variable's checkpoint key elsewhere. */
enum {
  /* Entries of one bundle (its index's keys): a large model's variables and optimizer slots are
   * 10^4-10^5, a partitioned variable adds one per slice. Also the index's data blocks. */
  HR_LIMIT_BUNDLE_ENTRIES = 1 << 20,
  /* Data files of one bundle (one per saving task or device: the largest TPU pods run a few
   * thousand); each file entries refer to stays mapped while the bundle is open
   * (vm.max_map_count is 65530 by default). */
  HR_LIMIT_BUNDLE_SHARDS = 4096,
  /* Nodes of the checkpoint's object graph (_CHECKPOINTABLE_OBJECT_GRAPH: one per trackable
   * object: variables, layers, functions, their containers). */
  HR_LIMIT_BUNDLE_OBJECTS = 1 << 20,
  /* Elements of the DT_STRING tensors of one bundle together: each is indexed (16 bytes) when the
   * bundle opens (object graphs are one string; vocabularies 10^5-10^6). */
  HR_LIMIT_BUNDLE_STRINGS = 1 << 24,
};
/* The index file (variables.index), mapped whole: ~50-100 bytes per entry besides its key. */
#define HR_LIMIT_BUNDLE_INDEX_BYTES ((size_t)1 << 30)
/* One block of the index as stored and decompressed: TensorFlow writes 256 KiB blocks (LevelDB
 * 4 KiB), each ending with the first entry that passes that size. A snappy block states its size
 * first, so the bound is applied before anything is decoded. */
#define HR_LIMIT_BUNDLE_BLOCK_BYTES ((size_t)64 << 20)

/* The orderings the values above rely on. */
_Static_assert(HR_LIMIT_CALL_DEPTH >= HR_LIMIT_NESTING_DEPTH,
               "the interpreter must run whatever the compiler accepts (both count calls and regions)");
_Static_assert(HR_LIMIT_TUPLE_DEPTH <= HR_LIMIT_NESTING_DEPTH, "verified types must print and copy");
_Static_assert(HR_LIMIT_JSON_DEPTH <= HR_LIMIT_JSON_DEPTH_MAX, "the default JSON depth must be allowed");
_Static_assert(HR_LIMIT_BUFFERED_BYTES >= HR_LIMIT_REQUEST_BYTES, "one request must fit the body budget");

#endif
