/* hlorun weights: what a weight source holds, and the same weights in another file. Reads an
 * Orbax checkpoint directory or a safetensors file (hr_weights_read), prints one line per tensor
 * (name, type and shape, bytes) with the totals and the time the read took — every byte touched,
 * so that a mapped file's page faults count as a decoded checkpoint's work does — and with --save
 * writes the tensors to a .safetensors file or to a new Orbax checkpoint directory. */
#include <string.h>

#include "cli/cli.h"
#include "formats/savedmodel/bundle.h"

static const char usage[] = "usage: hlorun weights SRC [--save OUT.safetensors|PREFIX.index|OUT_DIR]\n"
                            "  --save: a .safetensors file, a TensorFlow checkpoint (PREFIX.index and\n"
                            "  PREFIX.data-00000-of-00001, as a SavedModel's variables/variables), or else\n"
                            "  a new Orbax checkpoint directory\n";

/* Prints the listing of `w`, read from `src` in `ms` milliseconds. */
static void list_weights(const char *src, const hr_weights *w, double ms) {
  size_t total = 0;
  for (int i = 0; i < hr_weights_count(w); i++) {
    const hr_tensor *t = hr_weights_tensor(w, i);
    printf("%-56s ", hr_weights_name(w, i));
    print_tensor_type(stdout, t);
    printf("  %zu bytes\n", t->nbytes);
    total += t->nbytes;
  }
  printf("%s: %d tensors, %zu bytes, read in %.2f ms\n", src, hr_weights_count(w), total, ms);
}

/* Reads one byte of every page of every tensor (a mapping's pages are faulted in). */
static unsigned touch_every_page(const hr_weights *w) {
  unsigned sum = 0;
  for (int i = 0; i < hr_weights_count(w); i++) {
    const hr_tensor *t = hr_weights_tensor(w, i);
    const volatile unsigned char *p = t->data;
    for (size_t k = 0; k < t->nbytes; k += 4096) sum += p[k];
  }
  return sum;
}

int cmd_weights(int argc, char **argv) {
  const char *src = NULL, *save = NULL;
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--save") == 0 && i + 1 < argc) save = argv[++i];
    else if (argv[i][0] != '-' && !src) src = argv[i];
    else src = NULL, i = argc; /* an unknown option or a second source */
  }
  if (!src) {
    fputs(usage, stderr);
    return 2;
  }
  hr_weights *w = NULL;
  double t0 = cli_now();
  hr_status s = hr_weights_read(src, NULL, 0, &w);
  if (!s) (void)touch_every_page(w);
  double ms = (cli_now() - t0) * 1e3;
  if (!s) list_weights(src, w, ms);
  if (!s && save) {
    size_t n = strlen(save);
    if (n > 12 && strcmp(save + n - 12, ".safetensors") == 0) {
      s = hr_safetensors_write_file(w, save);
    } else if (n > 6 && strcmp(save + n - 6, ".index") == 0) {
      char prefix[4096];
      s = n - 6 < sizeof prefix ? NULL : hr_error(HR_INVALID_ARGUMENT, "--save: the path is too long");
      if (!s) {
        memcpy(prefix, save, n - 6);
        prefix[n - 6] = 0;
        s = hr_bundle_write(prefix, w, NULL, 0);
      }
    } else {
      s = hr_orbax_write_dir(w, save);
    }
    if (!s) printf("saved -> %s\n", save);
  }
  hr_weights_free(w);
  return s ? report_error(s) : 0;
}
