/* Text generation (docs/generation.md): a model following the prefill/decode convention, and an
 * engine that runs many sequences through it at once.
 *
 * A generation model (hr_gen_model) is two programs, `prefill` and `decode`, checked against the
 * convention: prefill(tokens i32[b, T], lengths i32[b]) -> (logits f32[b, V], cache...) and
 * decode(cache..., token i32[b], position i32[b]) -> (logits f32[b, V], cache...). It compiles
 * each for the batch buckets it will run (powers of two) when created.
 *
 * An engine (hr_gen_engine) owns the KV cache of `slots` sequences (one row of every cache tensor
 * per slot) and one thread that loops: requests waiting for a slot are prefilled (their cache rows
 * written in place by the prefill's outputs), then one decode step runs for every running
 * sequence together (continuous batching: the running rows are kept contiguous from row 0, so a
 * step is a run of the smallest bucket holding them, its cache inputs and outputs the same
 * buffers), each row's logits are sampled (sampler.c), and tokens are handed to the request's sink.
 * A sequence that ends leaves at once: its row is refilled by the last running row. Nothing is
 * allocated per token. */
#ifndef HLORUN_GENERATE_GENERATE_H
#define HLORUN_GENERATE_GENERATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/limits.h"
#include "hlorun/hlorun.h"

/* ---- models ---------------------------------------------------------------------------------- */

typedef struct hr_gen_model hr_gen_model;

/* Makes the two programs of a generation model from a module file's module (one module with public
 * @prefill and @decode) and its weights (may be NULL); takes both over, also on error. */
hr_status hr_gen_programs_from_module(hr_module *m, hr_weights *weights, const hr_exec_options *opts,
                                      hr_program **prefill, hr_program **decode);
/* The same from a copy of a program's module and its weights (an artifact opened as a program,
 * whose entry function does not matter); `p` stays the caller's. */
hr_status hr_gen_programs_from_program(const hr_program *p, const hr_exec_options *opts, hr_program **prefill,
                                       hr_program **decode);
/* The same from a directory holding the two functions as files of their own, as jax.export writes
 * one function per file: one file named prefill.* and one decode.* (any module format), each
 * running its @main; `weights` (may be NULL) taken over, also on error. */
hr_status hr_gen_programs_from_dir(const char *dir, hr_weights *weights, const hr_exec_options *opts,
                                   hr_program **prefill, hr_program **decode);
/* Whether a module has the two functions of the convention (public @prefill and @decode). */
bool hr_gen_module_can_generate(const hr_module *m);

/* Checks the programs against the convention and compiles prefill for batches 1, 2, 4, ... up to
 * HR_LIMIT_GEN_PREFILL_BATCH and decode for every power of two up to `slots` rounded up (1 when
 * the batch is static 1). Takes the programs over, also on error. */
hr_status hr_gen_model_create(hr_program *prefill, hr_program *decode, int slots, hr_gen_model **out);
void hr_gen_model_free(hr_gen_model *m);
int hr_gen_model_context(const hr_gen_model *m); /* T */
int hr_gen_model_vocab(const hr_gen_model *m);   /* V */
int hr_gen_model_slots(const hr_gen_model *m);   /* sequences at once: a power of two >= the slots asked */

/* ---- requests ---------------------------------------------------------------------------------- */

/* How a request samples and when it stops (docs/generation.md). */
typedef struct hr_gen_params {
  int max_tokens;     /* >= 0 */
  double temperature; /* 0: greedy */
  int top_k;          /* 0: every token */
  double top_p;       /* (0, 1] */
  uint64_t seed;
  int end_token;      /* a token that ends generation (not given out), or -1 */
  int n_stop;         /* stop strings (byte vocabularies only), at most HR_LIMIT_GEN_STOP_STRINGS */
  const char *stop[HR_LIMIT_GEN_STOP_STRINGS];
  size_t stop_len[HR_LIMIT_GEN_STOP_STRINGS];
} hr_gen_params;

/* Default parameters: 16 tokens, greedy, no stop. */
hr_gen_params hr_gen_default_params(void);
/* Checks parameters against a model (INVALID_ARGUMENT naming the field). */
hr_status hr_gen_check_params(const hr_gen_model *m, const hr_gen_params *p);

typedef enum hr_gen_finish {
  HR_GEN_RUNNING,   /* not finished */
  HR_GEN_LENGTH,    /* max_tokens given out, or the context is full */
  HR_GEN_STOP,      /* a stop string or the end token */
  HR_GEN_CANCELLED, /* hr_gen_release before the end, or the engine stopping */
  HR_GEN_ERROR,     /* a run failed: see the event's message */
} hr_gen_finish;

const char *hr_gen_finish_name(hr_gen_finish f); /* "length", "stop", "cancelled", "error" */

/* What a request's sink is told: tokens given out (after holding back what may begin a stop
 * string), and once, last, that it is done, with its counts and timings. */
typedef struct hr_gen_event {
  const int32_t *tokens;
  int n_tokens;
  bool done;
  hr_gen_finish finish;  /* when done */
  const char *message;   /* HR_GEN_ERROR: why */
  int prompt_tokens;
  int completion_tokens; /* sampled so far (those held back for a stop string included) */
  uint64_t seed;         /* the seed used */
  double queued_seconds;       /* from submission to the start of its prefill */
  double first_token_seconds;  /* from submission to the first token (0 before it) */
  double token_gap_seconds;    /* since the previous token of this request (0 for the first) */
  double decode_tokens_per_second; /* done: tokens after the first over the time since it */
} hr_gen_event;

/* Called on the engine's thread; must return quickly (queue the tokens and wake whoever sends
 * them). After the `done` event it is never called again. */
typedef void (*hr_gen_sink)(void *ctx, const hr_gen_event *ev);

typedef struct hr_gen_engine hr_gen_engine;
typedef struct hr_gen_request hr_gen_request;

/* Creates an engine over `m` (taken over, also on error): allocates the cache and starts the
 * thread. */
hr_status hr_gen_engine_create(hr_gen_model *m, hr_gen_engine **out);
/* The engine's model. */
const hr_gen_model *hr_gen_engine_model(const hr_gen_engine *e);
/* Stops the thread and frees the engine and its model; requests still running or waiting are
 * cancelled (their sinks get `done`, HR_GEN_CANCELLED). May be called from a sink (the last
 * release of what owns the engine can happen there): the thread then stops after the current step
 * and frees everything itself. */
void hr_gen_engine_free(hr_gen_engine *e);

/* Queues a request for `prompt` (1 to T tokens, each < V). The sink receives its events from the
 * engine's thread. *out is the caller's reference: release it with hr_gen_release (which cancels
 * the request when it has not finished). RESOURCE_EXHAUSTED when HR_LIMIT_GEN_WAITING requests
 * wait already. */
hr_status hr_gen_submit(hr_gen_engine *e, const int32_t *prompt, int n_prompt, const hr_gen_params *p,
                        hr_gen_sink sink, void *ctx, hr_gen_request **out);
/* Cancels a request (it ends at the next step, its sink gets `done`); the reference stays the caller's. */
void hr_gen_cancel(hr_gen_request *r);
/* Drops the caller's reference; an unfinished request is cancelled and leaves its slot at the next
 * step (its sink still gets `done`). */
void hr_gen_release(hr_gen_request *r);

/* What the engine is doing now (for metrics). */
typedef struct hr_gen_engine_stats {
  int active;  /* sequences holding a slot */
  int waiting; /* requests waiting for one */
  uint64_t steps; /* decode steps run */
} hr_gen_engine_stats;
hr_gen_engine_stats hr_gen_engine_stats_now(hr_gen_engine *e);

/* ---- sampling (sampler.c) ---------------------------------------------------------------------- */

/* A request's random generator (splitmix64: one 64-bit state, reproducible from the seed). */
typedef struct hr_gen_rng {
  uint64_t state;
} hr_gen_rng;

/* Scratch for hr_gen_sample: room for `vocab` candidates. */
typedef struct hr_gen_sampler {
  int vocab;
  int32_t *index;
  double *prob;
} hr_gen_sampler;

hr_status hr_gen_sampler_init(hr_gen_sampler *s, int vocab);
void hr_gen_sampler_free(hr_gen_sampler *s);
/* The next token from one row of logits: the first largest when temperature is 0 (NaN counts as
 * the smallest), else a draw from softmax(logits / temperature) limited to the top_k tokens and
 * then to the smallest set whose probability reaches top_p. */
int32_t hr_gen_sample(hr_gen_sampler *s, const float *logits, const hr_gen_params *p, hr_gen_rng *rng);

/* ---- stop strings (stop.c) ---------------------------------------------------------------------- */

/* Of the tokens generated so far (bytes), how many may be given out: `*stop` is set when a stop
 * string occurs (then the count is where it begins); otherwise every token but the longest tail
 * that begins some stop string. */
int hr_gen_releasable(const int32_t *tokens, int n, const hr_gen_params *p, bool *stop);

#endif
