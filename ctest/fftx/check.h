/* Shared by the FFTX test programs: random data away from zero, error norms, plan printouts. */
#ifndef FFTX_CTEST_CHECK_H
#define FFTX_CTEST_CHECK_H
#include <math.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fftx.h>

static unsigned long long check_state = 88172645463325252ULL;
/* A value in [-1, -0.1] U [0.1, 1]. */
static double check_random(void) {
  check_state ^= check_state << 13; check_state ^= check_state >> 7; check_state ^= check_state << 17;
  double u = (double)(check_state >> 11) / 9007199254740992.0;
  return u < 0.5 ? -(0.1 + 1.8 * u) : 0.1 + 1.8 * (u - 0.5);
}
/* max |a - b| / max |b|. */
static double check_rel_err(const double *a, const double *b, size_t n) {
  double e = 0, m = 0;
  for (size_t i = 0; i < n; i++) {
    if (fabs(a[i] - b[i]) > e) e = fabs(a[i] - b[i]);
    if (fabs(b[i]) > m) m = fabs(b[i]);
  }
  return m > 0 ? e / m : e;
}
/* Tolerance for transforms of n points in double precision. */
static double check_tol(double n) { return 1e-14 * 8.0 * (log2(n) > 1 ? log2(n) : 1); }
static int check_report(const char *what, double err, double tol) {
  int ok = err <= tol;
  printf("%-40s relative error %.3e (tolerance %.1e) %s\n", what, err, tol, ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
/* Fails unless the plan's printout contains every needle. */
static int check_printout(fftx_plan p, const char *const *needles, int count) {
  char *s = fftx_sprint_plan(p);
  int bad = 0;
  if (!s) { printf("fftx_sprint_plan: %s\n", fftx_last_error()); return 1; }
  for (int i = 0; i < count; i++)
    if (!strstr(s, needles[i])) { printf("plan printout lacks \"%s\"\n", needles[i]); bad = 1; }
  if (bad) printf("%s\n", s);
  free(s);
  return bad;
}
#define CHECK_PLAN(p) do { if (!(p)) { printf("%s:%d: planning failed: %s\n", __FILE__, __LINE__, fftx_last_error()); exit(1); } } while (0)
#endif
