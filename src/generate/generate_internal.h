/* What the generation layer's files share: the model's layout (model.c) as the engine reads it. */
#ifndef HLORUN_GENERATE_INTERNAL_H
#define HLORUN_GENERATE_INTERNAL_H

#include "generate/generate.h"

/* Batch buckets 1, 2, 4, ... HR_LIMIT_GEN_SLOTS: one executable each. */
#define HR_GEN_MAX_BUCKETS 9
_Static_assert(1 << (HR_GEN_MAX_BUCKETS - 1) >= HR_LIMIT_GEN_SLOTS, "a bucket for every slot count");
/* Prompt length buckets of a prefill whose length is symbolic: 16, 32, 64, ... then T. */
#define HR_GEN_MIN_LENGTH 16
#define HR_GEN_MAX_LENGTHS 28

struct hr_gen_model {
  hr_program *prefill, *decode;
  int context;       /* T */
  int vocab;         /* V */
  int n_cache;       /* N: cache tensors */
  size_t *row_bytes; /* per cache tensor: the bytes of one row (one sequence) */
  bool static_batch; /* the batch dimension is static 1 */
  int slots;         /* a power of two */
  int prefill_batch; /* the largest prefill bucket */
  int n_lengths;     /* prompt length buckets: T alone when prefill's tokens have a static length */
  int lengths[HR_GEN_MAX_LENGTHS];
  hr_executable *prefill_exe[HR_GEN_MAX_BUCKETS][HR_GEN_MAX_LENGTHS]; /* [log2 batch][length bucket] */
  hr_executable *decode_exe[HR_GEN_MAX_BUCKETS];                      /* [log2 batch] */
  void *arena; /* the working memory every executable above shares (they run one at a time) */
};

/* The length bucket (an index of lengths) of a prompt of n tokens (1 <= n <= T). */
int hr_gen_length_index(const hr_gen_model *m, int n);

/* log2 of the bucket for n rows: the smallest i with 2^i >= n. */
int hr_gen_bucket_index(int n);

#endif
