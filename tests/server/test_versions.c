/* Version directories and policies (server/versions.c): which subdirectories of a base path are
 * versions, which hold an artifact, how duplicates and odd entries are treated, when a file counts
 * as changed, and which versions each policy picks. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/versions.h"
#include "test.h"

static char base[64];

/* Creates base/<rel> as a directory. */
static void make_dir(const char *rel) {
  char path[256];
  snprintf(path, sizeof path, "%s/%s", base, rel);
  CHECK(mkdir(path, 0755) == 0);
}

/* Creates base/<rel> as a file holding `text`. */
static void make_file(const char *rel, const char *text) {
  char path[256];
  snprintf(path, sizeof path, "%s/%s", base, rel);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (!f) return;
  fputs(text, f);
  fclose(f);
}

/* Whether a path ends with `suffix`. */
static bool ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

TEST(version_names) {
  int64_t v = 0;
  CHECK(srv_parse_version("1", &v) && v == 1);
  CHECK(srv_parse_version("00000123", &v) && v == 123);
  CHECK(srv_parse_version("9223372036854775807", &v) && v == INT64_MAX);
  CHECK(!srv_parse_version("9223372036854775808", &v));
  CHECK(!srv_parse_version("0", &v));
  CHECK(!srv_parse_version("", &v));
  CHECK(!srv_parse_version("-1", &v));
  CHECK(!srv_parse_version("1a", &v));
  CHECK(!srv_parse_version(" 1", &v));
}

TEST(scan_finds_versions) {
  make_dir("1");
  make_file("1/a.hlo", "one");
  make_dir("0002");
  make_file("0002/b.hlo", "two");
  make_dir("02");
  make_file("02/c.hlo", "two again");
  make_dir("abc");
  make_dir("0");
  make_dir("3");
  make_dir("4");
  make_file("4/x.hlo", "x");
  make_file("4/y.hlo", "y");
  make_file("5", "not a directory");
  make_dir("6");
  make_file("6/.hidden.hlo", "hidden");
  make_dir("6/dir.hlo");
  make_file("6/notes.txt", "not an artifact");
  make_dir("99999999999999999999");
  srv_candidates c;
  CHECK_OK(srv_scan_versions(base, &c));
  CHECK_EQ_INT(c.n, 5);
  if (c.n == 5) {
    CHECK_EQ_INT(c.items[0].version, 1);
    CHECK_EQ_INT(c.items[0].kind, SRV_CANDIDATE_READY);
    CHECK(ends_with(c.items[0].path, "/1/a.hlo"));
    CHECK_EQ_INT(c.items[1].version, 2);
    CHECK(ends_with(c.items[1].path, "/0002/b.hlo"));
    CHECK_EQ_INT(c.items[2].version, 3);
    CHECK_EQ_INT(c.items[2].kind, SRV_CANDIDATE_EMPTY);
    CHECK_EQ_INT(c.items[3].version, 4);
    CHECK_EQ_INT(c.items[3].kind, SRV_CANDIDATE_AMBIGUOUS);
    CHECK_EQ_INT(c.items[3].n_artifacts, 2);
    CHECK_EQ_INT(c.items[4].version, 6);
    CHECK_EQ_INT(c.items[4].kind, SRV_CANDIDATE_EMPTY);
  }
  srv_candidates_free(&c);
}

TEST(fingerprints_see_changes) {
  char path[256];
  snprintf(path, sizeof path, "%s/1/a.hlo", base);
  srv_fingerprint a, b;
  CHECK_OK(srv_fingerprint_of(path, &a));
  CHECK_OK(srv_fingerprint_of(path, &b));
  CHECK(srv_fingerprint_equal(&a, &b));
  make_file("1/a.hlo", "one, longer now");
  CHECK_OK(srv_fingerprint_of(path, &b));
  CHECK(!srv_fingerprint_equal(&a, &b));
  snprintf(path, sizeof path, "%s/missing", base);
  hr_status s = srv_fingerprint_of(path, &a);
  CHECK_EQ_INT(hr_status_code(s), HR_NOT_FOUND);
  hr_status_free(s);
}

TEST(missing_base_path) {
  char path[256];
  snprintf(path, sizeof path, "%s/nope", base);
  srv_candidates c;
  hr_status s = srv_scan_versions(path, &c);
  CHECK_EQ_INT(hr_status_code(s), HR_NOT_FOUND);
  CHECK_STR_CONTAINS(hr_status_message(s), "nope");
  CHECK(c.n == 0 && c.items == NULL);
  hr_status_free(s);
  snprintf(path, sizeof path, "%s/5", base);
  s = srv_scan_versions(path, &c);
  CHECK_EQ_INT(hr_status_code(s), HR_NOT_FOUND);
  hr_status_free(s);
}

/* The picked versions as a string "1 3 ". */
static const char *picked(const srv_version_policy *p, const int64_t *versions, int n, char *buf) {
  bool sel[8];
  srv_policy_select(p, versions, n, sel);
  buf[0] = '\0';
  for (int i = 0; i < n; i++)
    if (sel[i]) sprintf(buf + strlen(buf), "%lld ", (long long)versions[i]);
  return buf;
}

TEST(policies_pick_versions) {
  static const int64_t versions[] = {1, 2, 5, 9};
  char buf[64];
  srv_version_policy latest = {.kind = SRV_POLICY_LATEST, .num_versions = 1};
  CHECK(strcmp(picked(&latest, versions, 4, buf), "9 ") == 0);
  latest.num_versions = 3;
  CHECK(strcmp(picked(&latest, versions, 4, buf), "2 5 9 ") == 0);
  latest.num_versions = 10;
  CHECK(strcmp(picked(&latest, versions, 4, buf), "1 2 5 9 ") == 0);
  CHECK(strcmp(picked(&latest, versions, 0, buf), "") == 0);
  srv_version_policy all = {.kind = SRV_POLICY_ALL};
  CHECK(strcmp(picked(&all, versions, 4, buf), "1 2 5 9 ") == 0);
  int64_t wanted[] = {5, 1, 7};
  srv_version_policy specific = {.kind = SRV_POLICY_SPECIFIC, .versions = wanted, .n_versions = 3};
  CHECK(strcmp(picked(&specific, versions, 4, buf), "1 5 ") == 0);
}

int main(void) {
  snprintf(base, sizeof base, "/tmp/hlorun_versions_XXXXXX");
  if (!mkdtemp(base)) {
    perror("mkdtemp");
    return 1;
  }
  RUN(version_names);
  RUN(scan_finds_versions);
  RUN(fingerprints_see_changes);
  RUN(missing_base_path);
  RUN(policies_pick_versions);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", base);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", base);
  TEST_MAIN_END();
}
