/* perturb.so: the self-test of .ci/apps.sh (APPS_SELFTEST=1). Preloaded in front of fftx, it
 * passes every execute on to the library behind it and then perturbs the first elements of
 * the output array by a relative APPS_PERTURB (default 1e-3, see bumpz/bumpr): a small, wrong result that every comparison
 * of .ci/apps.sh must catch. It wraps the execute calls the applications make (the new-array
 * ones carry the output array; for the Fortran dfftw_execute_ the output array is remembered
 * from the dfftw_plan_* call that made the plan). Not part of the library; built by apps.sh:
 *   cc -shared -fPIC -O2 -o perturb.so perturb.c -ldl -lm */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static double eps(void) {
  static double e = -1;
  if (e < 0) {
    const char *s = getenv("APPS_PERTURB");
    e = s ? atof(s) : 1e-3;
  }
  return e;
}
/* Complex output (c2c, r2c): its first two elements times (1 - e) exp(i e), a change of modulus
   and of phase (an application may clip magnitudes, as ImageMagick does around DC). Real output
   (c2r): its first four elements times (1 - e) (scaled up, a white pixel would be clipped back). */
static void bumpz(double *x) {
  double e = eps(), c = (1 - e) * cos(e), s = (1 - e) * sin(e);
  if (x) for (int i = 0; i < 4; i += 2) { double re = x[i], im = x[i + 1]; x[i] = c * re - s * im; x[i + 1] = s * re + c * im; }
}
static void bumpzf(float *x) {
  double e = eps(), c = (1 - e) * cos(e), s = (1 - e) * sin(e);
  if (x) for (int i = 0; i < 4; i += 2) { double re = x[i], im = x[i + 1]; x[i] = (float)(c * re - s * im); x[i + 1] = (float)(s * re + c * im); }
}
static void bumpr(double *x) { if (x) for (int i = 0; i < 4; i++) x[i] *= 1 - eps(); }
static void bumprf(float *x) { if (x) for (int i = 0; i < 4; i++) x[i] *= (float)(1 - eps()); }

#define NEXT(name) static void *fn; if (!fn) fn = dlsym(RTLD_NEXT, name)

/* C, double and single: the output array is an argument. */
#define WRAP(name, T, OT, bumpfn)                                  \
  void name(void *p, T *in, OT *out) {                             \
    NEXT(#name);                                                   \
    ((void (*)(void *, T *, OT *))fn)(p, in, out);                 \
    bumpfn((void *)out);                                           \
  }
WRAP(fftw_execute_dft, double, double, bumpz)
WRAP(fftw_execute_dft_r2c, double, double, bumpz)
WRAP(fftw_execute_dft_c2r, double, double, bumpr)
WRAP(fftwf_execute_dft, float, float, bumpzf)
WRAP(fftwf_execute_dft_r2c, float, float, bumpzf)
WRAP(fftwf_execute_dft_c2r, float, float, bumprf)

/* Fortran legacy wrappers (plans are integer*8 handles passed by reference). */
#define FWRAP(name, bumpfn)                                        \
  void name(int64_t *p, double *in, double *out) {                 \
    NEXT(#name);                                                   \
    ((void (*)(int64_t *, double *, double *))fn)(p, in, out);     \
    bumpfn(out);                                                   \
  }
FWRAP(dfftw_execute_dft_, bumpz)
FWRAP(dfftw_execute_dft_r2c_, bumpz)
FWRAP(dfftw_execute_dft_c2r_, bumpr)

/* dfftw_execute_(plan): the output array is the one given to dfftw_plan_dft_/_r2c_/_c2r_. */
#define NPLANS 4096
static struct { int64_t plan; double *out; int real; } plans[NPLANS];
static void remember(int64_t plan, double *out, int real) {
  for (int i = 0; i < NPLANS; i++)
    if (plans[i].plan == 0 || plans[i].plan == plan) { plans[i].plan = plan; plans[i].out = out; plans[i].real = real; return; }
}
void dfftw_plan_dft_(int64_t *p, int *rank, int *n, double *in, double *out, int *sign, int *flags) {
  NEXT("dfftw_plan_dft_");
  ((void (*)(int64_t *, int *, int *, double *, double *, int *, int *))fn)(p, rank, n, in, out, sign, flags);
  remember(*p, out, 0);
}
void dfftw_plan_dft_r2c_(int64_t *p, int *rank, int *n, double *in, double *out, int *flags) {
  NEXT("dfftw_plan_dft_r2c_");
  ((void (*)(int64_t *, int *, int *, double *, double *, int *))fn)(p, rank, n, in, out, flags);
  remember(*p, out, 0);
}
void dfftw_plan_dft_c2r_(int64_t *p, int *rank, int *n, double *in, double *out, int *flags) {
  NEXT("dfftw_plan_dft_c2r_");
  ((void (*)(int64_t *, int *, int *, double *, double *, int *))fn)(p, rank, n, in, out, flags);
  remember(*p, out, 1);
}
void dfftw_execute_(int64_t *p) {
  NEXT("dfftw_execute_");
  ((void (*)(int64_t *))fn)(p);
  for (int i = 0; i < NPLANS && plans[i].plan; i++)
    if (plans[i].plan == *p) { (plans[i].real ? bumpr : bumpz)(plans[i].out); break; }
}
