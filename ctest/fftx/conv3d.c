/* The paper's 3-D pruned real convolution: Fig. 2's plan with Fig. 6's descriptors (dims listed
 * fastest first: strides 1, N, N*N), checked against a direct cyclic convolution in double
 * precision; the plan printout must show pruned transforms (fewer 1-D transforms than the
 * unoptimized graph). */
#include "check.h"

#define FFTX_MODE (FFTX_ESTIMATE | FFTX_OBSERVE)
#define FFTX_MODE_SUB (FFTX_MODE | FFTX_SUBPLAN)

void cplx_scaling(fftx_complex *in, fftx_complex *out, fftx_complex *data) {
  FFTX_COMPLEX_TEMP(t);
  FFTX_COMPLEX_MOV(t, in);
  FFTX_COMPLEX_MULT(t, data);
  FFTX_COMPLEX_MOV(out, t);
}

fftx_temp_real tmp1, tmp4;
fftx_temp_complex tmp2, tmp3;

fftx_plan pruned_real_convolution_plan(fftx_real *in, fftx_real *out, fftx_complex *G_k,
                                       int N, int N_s, int N_d, int N_k, unsigned mode) {
  int rk = 3, b_rk = 0, n_subp = 5;
  fftx_plan plans[5], p;
  /* Fig. 6 */
  fftx_iodim p_d[] = {{N, 1, 1}, {N, N, N}, {N, N * N, N * N}},
             f_d[] = {{N, 1, 1}, {N, N, N}, {N_k, N * N, N * N}},
             b_d = {1, 1, 1};
  fftx_iodimx i_dx[] = {{N_s, 0, 0, 0, 1, 1, 1}, {N_s, 0, 0, 0, N_s, N, 1}, {N_s, 0, 0, 0, N_s * N_s, N * N, 1}},
              o_dx[] = {{N_d, N - N_d, 0, 0, 1, 1, 1}, {N_d, N - N_d, 0, 0, N, N_d, 1}, {N_d, N - N_d, 0, 0, N * N, N_d * N_d, 1}},
              f_dx[] = {{N, 0, 0, 0, 1, 1, 1}, {N, 0, 0, 0, N, N, N}, {N_k, 0, 0, 0, N * N, N * N, N * N}},
              b_dx = {1, 0, 0, 0, 1, 1, 1};
  /* As in Fig. 2 */
  tmp1 = fftx_create_zero_temp_real(rk, p_d);
  plans[0] = fftx_plan_guru_copy_real(rk, i_dx, in, tmp1, mode | FFTX_SUBPLAN);
  tmp2 = fftx_create_temp_complex(rk, f_d);
  plans[1] = fftx_plan_guru_dft_r2c(rk, p_d, b_rk, &b_d, tmp1, tmp2, mode | FFTX_SUBPLAN);
  tmp3 = fftx_create_temp_complex(rk, f_d);
  plans[2] = fftx_plan_guru_pointwise_c2c(rk, f_dx, b_rk, &b_dx, tmp2, tmp3, G_k,
                                          (fftx_callback)cplx_scaling, mode | FFTX_SUBPLAN);
  tmp4 = fftx_create_temp_real(rk, p_d);
  plans[3] = fftx_plan_guru_dft_c2r(rk, p_d, b_rk, &b_d, tmp3, tmp4, mode | FFTX_SUBPLAN);
  plans[4] = fftx_plan_guru_copy_real(rk, o_dx, tmp4, out, mode | FFTX_SUBPLAN);
  p = fftx_plan_compose(n_subp, plans, mode);
  for (int i = 0; i < n_subp; i++) fftx_destroy_plan(plans[i]);
  fftx_destroy_temp_real(tmp1); fftx_destroy_temp_complex(tmp2); /* the plan keeps what it needs */
  fftx_destroy_temp_complex(tmp3); fftx_destroy_temp_real(tmp4);
  return p;
}

/* 1-D transforms per execute and of the unoptimized graph, from the printout. */
static void transform_counts(fftx_plan p, long *planned, long *unoptimized) {
  char *s = fftx_sprint_plan(p);
  const char *a = strstr(s, "1-D transforms per execute: ");
  const char *b = strstr(s, "unoptimized graph: ");
  *planned = a ? atol(a + strlen("1-D transforms per execute: ")) : -1;
  *unoptimized = b ? atol(b + strlen("unoptimized graph: ")) : -1;
  free(s);
}

int main(void) {
  const int N = 16, N_s = 6, N_d = 7, N_k = N / 2 + 1;
  int bad = 0;
  size_t nn = (size_t)N * N * N;
  double *in = malloc(sizeof(double) * N_s * N_s * N_s), *out = malloc(sizeof(double) * N_d * N_d * N_d);
  double *g = malloc(sizeof(double) * nn), *want = calloc((size_t)N_d * N_d * N_d, sizeof(double));
  fftx_complex *G_k = malloc(sizeof(fftx_complex) * N * N * N_k);
  fftx_init(FFTX_HIGH_PERFORMANCE);
  for (int i = 0; i < N_s * N_s * N_s; i++) in[i] = check_random();
  for (size_t i = 0; i < nn; i++) g[i] = check_random();
  /* G_k[k0 + N k1 + N^2 k2] = DFT(g)/N^3 with k2 < N_k, by separable direct summation. */
  {
    double *re = malloc(sizeof(double) * nn), *im = calloc(nn, sizeof(double));
    double *r2 = malloc(sizeof(double) * nn), *i2 = malloc(sizeof(double) * nn);
    memcpy(re, g, sizeof(double) * nn);
    int stride[3] = {1, N, N * N};
    for (int axis = 0; axis < 3; axis++) {
      for (size_t x = 0; x < nn; x++) {
        int kx = (int)(x / stride[axis] % N);
        size_t base = x - (size_t)kx * stride[axis];
        double sr = 0, si = 0;
        for (int j = 0; j < N; j++) {
          double ph = -2 * M_PI * (double)(kx * j % N) / N, c = cos(ph), s = sin(ph);
          double vr = re[base + (size_t)j * stride[axis]], vi = im[base + (size_t)j * stride[axis]];
          sr += vr * c - vi * s; si += vr * s + vi * c;
        }
        r2[x] = sr; i2[x] = si;
      }
      memcpy(re, r2, sizeof(double) * nn); memcpy(im, i2, sizeof(double) * nn);
    }
    for (int k2 = 0; k2 < N_k; k2++)
      for (int k1 = 0; k1 < N; k1++)
        for (int k0 = 0; k0 < N; k0++) {
          size_t x = k0 + (size_t)N * k1 + (size_t)N * N * k2;
          G_k[x][0] = re[x] / nn; G_k[x][1] = im[x] / nn;
        }
    free(re); free(im); free(r2); free(i2);
  }
  /* Direct: out[i] (i in the last N_d^3 corner) = sum_j in[j] g[(i - j) mod N]. */
  for (int o2 = 0; o2 < N_d; o2++)
    for (int o1 = 0; o1 < N_d; o1++)
      for (int o0 = 0; o0 < N_d; o0++) {
        double s = 0;
        for (int j2 = 0; j2 < N_s; j2++)
          for (int j1 = 0; j1 < N_s; j1++)
            for (int j0 = 0; j0 < N_s; j0++) {
              int d0 = (N - N_d + o0 - j0 + N) % N, d1 = (N - N_d + o1 - j1 + N) % N, d2 = (N - N_d + o2 - j2 + N) % N;
              s += in[j0 + N_s * (j1 + N_s * j2)] * g[d0 + N * (d1 + (size_t)N * d2)];
            }
        want[o0 + N_d * (o1 + N_d * o2)] = s;
      }
  long planned[2], unopt[2];
  for (int opt = 0; opt < 2; opt++) {
    unsigned mode = FFTX_MODE | (opt ? 0 : FFTX_NO_OPTIMIZE);
    fftx_plan p = pruned_real_convolution_plan(in, out, G_k, N, N_s, N_d, N_k, mode);
    CHECK_PLAN(p);
    for (int i = 0; i < N_d * N_d * N_d; i++) out[i] = 1e3;
    fftx_execute(p);
    bad |= check_report(opt ? "3-D N=16 N_s=6 N_d=7 optimized" : "3-D N=16 N_s=6 N_d=7 unoptimized",
                        check_rel_err(out, want, (size_t)N_d * N_d * N_d), check_tol((double)nn));
    transform_counts(p, &planned[opt], &unopt[opt]);
    if (opt) {
      const char *needles[] = {"steps=1 optimized", "live-in=[0..6,0..6,0..6]", "live-out=[9..16,9..16,9..16]"};
      bad |= check_printout(p, needles, 3);
      fftx_print_plan(p);
    }
    fftx_destroy_plan(p);
  }
  printf("1-D transforms: pruned %ld, unoptimized %ld\n", planned[1], planned[0]);
  if (!(planned[1] > 0 && planned[1] < planned[0] && unopt[1] == planned[0])) {
    printf("pruning did not reduce the 1-D transforms\n");
    bad = 1;
  }
  fftx_shutdown();
  free(in); free(out); free(g); free(want); free(G_k);
  printf(bad ? "conv3d: FAILED\n" : "conv3d: all passed\n");
  return bad;
}
