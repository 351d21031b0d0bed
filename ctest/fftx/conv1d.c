/* The paper's 1-D pruned real convolution (Fig. 2, with Fig. 4's pointwise function), written
 * as in the figures, checked against a direct cyclic convolution in double precision. */
#include "check.h"

#define FFTX_MODE (FFTX_ESTIMATE | FFTX_OBSERVE)
#define FFTX_MODE_SUB (FFTX_MODE | FFTX_SUBPLAN)

/* Fig. 4 */
void cplx_scaling(fftx_complex *in, fftx_complex *out, fftx_complex *data) {
  FFTX_COMPLEX_TEMP(t);
  FFTX_COMPLEX_MOV(t, in);
  FFTX_COMPLEX_MULT(t, data);
  FFTX_COMPLEX_MOV(out, t);
}

/* Fig. 2 */
fftx_temp_real tmp1, tmp4;
fftx_temp_complex tmp2, tmp3;

fftx_plan pruned_real_convolution_plan(fftx_real *in, fftx_real *out, fftx_complex *G_k,
                                       int N, int N_s, int N_d, int N_k) {
  int rk = 1, b_rk = 0, n_subp = 5;
  fftx_plan plans[5], p;
  fftx_iodim p_d = {N, 1, 1}, f_d = {N_k, 1, 1}, b_d = {1, 1, 1};
  fftx_iodimx i_dx = {N_s, 0, 0, 0, 1, 1, 1}, o_dx = {N_d, N - N_d, 0, 0, 1, 1, 1},
              f_dx = {N_k, 0, 0, 0, 1, 1, 1}, b_dx = {1, 0, 0, 0, 1, 1, 1};
  tmp1 = fftx_create_zero_temp_real(rk, &p_d);
  plans[0] = fftx_plan_guru_copy_real(rk, &i_dx, in, tmp1, FFTX_MODE_SUB);
  tmp2 = fftx_create_temp_complex(rk, &f_d);
  plans[1] = fftx_plan_guru_dft_r2c(rk, &p_d, b_rk, &b_d, tmp1, tmp2, FFTX_MODE_SUB);
  tmp3 = fftx_create_temp_complex(rk, &f_d);
  plans[2] = fftx_plan_guru_pointwise_c2c(rk, &f_dx, b_rk, &b_dx, tmp2, tmp3, G_k,
                                          (fftx_callback)cplx_scaling, FFTX_MODE_SUB);
  tmp4 = fftx_create_temp_real(rk, &p_d);
  plans[3] = fftx_plan_guru_dft_c2r(rk, &p_d, b_rk, &b_d, tmp3, tmp4, FFTX_MODE_SUB);
  plans[4] = fftx_plan_guru_copy_real(rk, &o_dx, tmp4, out, FFTX_MODE_SUB);
  p = fftx_plan_compose(n_subp, plans, FFTX_MODE);
  for (int i = 0; i < n_subp; i++) fftx_destroy_plan(plans[i]);
  return p;
}

static int run(int N, int N_s, int N_d) {
  int N_k = N / 2 + 1, bad = 0;
  double *in = malloc(sizeof(double) * N_s), *out = malloc(sizeof(double) * N_d);
  double *g = malloc(sizeof(double) * N), *want = calloc(N_d, sizeof(double));
  fftx_complex *G_k = malloc(sizeof(fftx_complex) * N_k);
  for (int i = 0; i < N_s; i++) in[i] = check_random();
  for (int i = 0; i < N; i++) g[i] = check_random();
  /* G_k = DFT(g)/N (half spectrum), by direct summation. */
  for (int k = 0; k < N_k; k++) {
    double re = 0, im = 0;
    for (int j = 0; j < N; j++) {
      double ph = -2 * M_PI * (double)((long)k * j % N) / N;
      re += g[j] * cos(ph); im += g[j] * sin(ph);
    }
    G_k[k][0] = re / N; G_k[k][1] = im / N;
  }
  /* Direct: out[i] = sum_j in[j] g[(N - N_d + i - j) mod N]. */
  for (int i = 0; i < N_d; i++)
    for (int j = 0; j < N_s; j++) want[i] += in[j] * g[((N - N_d + i - j) % N + N) % N];
  fftx_plan p = pruned_real_convolution_plan(in, out, G_k, N, N_s, N_d, N_k);
  CHECK_PLAN(p);
  for (int rep = 0; rep < 2; rep++) { /* twice: the zero temporary is zero again */
    for (int i = 0; i < N_d; i++) out[i] = 1e3;
    fftx_execute(p);
    char what[64];
    snprintf(what, sizeof what, "1-D N=%d N_s=%d N_d=%d run %d", N, N_s, N_d, rep);
    bad |= check_report(what, check_rel_err(out, want, N_d), check_tol(N));
  }
  const char *needles[] = {"steps=1 optimized", "(temporaries none)", "(dft-r2c n=[", "(pointwise \"mov t0 in; mul t0 data; mov out t0\""};
  bad |= check_printout(p, needles, 4);
  if (N == 8) fftx_print_plan(p);
  fftx_destroy_plan(p);
  fftx_destroy_temp_real(tmp1); fftx_destroy_temp_complex(tmp2);
  fftx_destroy_temp_complex(tmp3); fftx_destroy_temp_real(tmp4);
  free(in); free(out); free(g); free(want); free(G_k);
  return bad;
}

int main(void) {
  int bad = 0;
  fftx_init(FFTX_HIGH_PERFORMANCE);
  bad |= run(8, 3, 5); /* Fig. 5's sizes */
  bad |= run(64, 17, 40);
  bad |= run(45, 45, 45);
  bad |= run(1000, 100, 300);
  fftx_shutdown();
  printf(bad ? "conv1d: FAILED\n" : "conv1d: all passed\n");
  return bad;
}
