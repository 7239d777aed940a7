/* Sampling the next token from a row of logits (generate.h): greedy, temperature, top-k, top-p,
 * with a per-request splitmix64 generator, so that a seed gives the same draws whatever else the
 * engine runs. */
#include <math.h>
#include <stdlib.h>

#include "generate/generate.h"

hr_status hr_gen_sampler_init(hr_gen_sampler *s, int vocab) {
  s->vocab = vocab;
  s->index = malloc((size_t)vocab * sizeof *s->index);
  s->prob = malloc((size_t)vocab * sizeof *s->prob);
  if (s->index && s->prob) return NULL;
  hr_gen_sampler_free(s);
  return hr_error(HR_OUT_OF_MEMORY, "out of memory for a sampler of %d tokens", vocab);
}

void hr_gen_sampler_free(hr_gen_sampler *s) {
  free(s->index);
  free(s->prob);
  s->index = NULL;
  s->prob = NULL;
}

/* The next 64 random bits (splitmix64, Steele, Lea and Flood 2014). */
static uint64_t next_bits(hr_gen_rng *rng) {
  uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* A uniform draw in [0, 1) with 53 random bits. */
static double uniform(hr_gen_rng *rng) { return (double)(next_bits(rng) >> 11) * 0x1.0p-53; }

/* A logit as a sortable number: NaN is the smallest. */
static double logit_value(float x) { return isnan(x) ? -INFINITY : (double)x; }

/* The first index of the largest logit. */
static int32_t argmax(const float *logits, int n) {
  int32_t best = 0;
  for (int i = 1; i < n; i++)
    if (logit_value(logits[i]) > logit_value(logits[best])) best = i;
  return best;
}

/* Sorts candidate indices by logit, largest first, lower index first among equals (shell sort:
 * in place, no allocation, no comparator context). */
static void sort_candidates(int32_t *idx, int n, const float *logits) {
  static const int gaps[] = {701, 301, 132, 57, 23, 10, 4, 1};
  for (size_t g = 0; g < sizeof gaps / sizeof *gaps; g++)
    for (int i = gaps[g]; i < n; i++) {
      int32_t v = idx[i];
      int j = i;
      for (; j >= gaps[g]; j -= gaps[g]) {
        int32_t u = idx[j - gaps[g]];
        double a = logit_value(logits[u]), b = logit_value(logits[v]);
        if (a > b || (a == b && u < v)) break;
        idx[j] = u;
      }
      idx[j] = v;
    }
}

/* Moves the k largest logits' indices to the front of idx (a partial selection sort for small k,
 * a full sort otherwise), sorted. */
static void top_candidates(int32_t *idx, int n, int k, const float *logits) {
  for (int i = 0; i < n; i++) idx[i] = i;
  if (k >= 64 || k >= n) {
    sort_candidates(idx, n, logits);
    return;
  }
  for (int i = 0; i < k; i++) {
    int best = i;
    for (int j = i + 1; j < n; j++) {
      double a = logit_value(logits[idx[j]]), b = logit_value(logits[idx[best]]);
      if (a > b || (a == b && idx[j] < idx[best])) best = j;
    }
    int32_t t = idx[i];
    idx[i] = idx[best];
    idx[best] = t;
  }
}

int32_t hr_gen_sample(hr_gen_sampler *s, const float *logits, const hr_gen_params *p, hr_gen_rng *rng) {
  int n = s->vocab;
  if (p->temperature <= 0) return argmax(logits, n);
  int k = p->top_k > 0 && p->top_k < n ? p->top_k : n;
  top_candidates(s->index, n, k, logits);
  /* softmax over the k candidates, in double, from the largest */
  double top = logit_value(logits[s->index[0]]), sum = 0;
  if (!isfinite(top)) return s->index[0];
  for (int i = 0; i < k; i++) {
    double x = logit_value(logits[s->index[i]]);
    s->prob[i] = isfinite(x) ? exp((x - top) / p->temperature) : 0;
    sum += s->prob[i];
  }
  /* top-p: the smallest prefix whose probability reaches p */
  double keep = 0;
  int m = 0;
  while (m < k && (m == 0 || keep < p->top_p * sum)) keep += s->prob[m++];
  double u = uniform(rng) * keep;
  for (int i = 0; i < m; i++) {
    if (u < s->prob[i]) return s->index[i];
    u -= s->prob[i];
  }
  return s->index[m - 1]; /* rounding left u at the end */
}
