/* Hockney's free-space Poisson solve (the paper's section IV.D): the charge rho, supported on
 * M^3 points, convolved with the free-space Green's function on the doubled N^3 grid (N = 2M).
 * The Green's function's half spectrum is stored as one octant of (M+1)^3 values and expanded
 * by Fig. 7's four copies, whose descriptors reflect it with negative strides. Checked against
 * the direct free-space sum phi(x) = sum_y G(x - y) rho(y) over the M^3 output points. */
#include "check.h"

#define FFTX_MODE (FFTX_ESTIMATE | FFTX_OBSERVE)
#define MY_FFTX_MODE_SUB (FFTX_MODE | FFTX_SUBPLAN)
#define FFTX_MODE_SUB MY_FFTX_MODE_SUB

void cplx_scaling(fftx_complex *in, fftx_complex *out, fftx_complex *data) {
  FFTX_COMPLEX_TEMP(t);
  FFTX_COMPLEX_MOV(t, in);
  FFTX_COMPLEX_MULT(t, data);
  FFTX_COMPLEX_MOV(out, t);
}

/* The discrete Green's function of the Laplacian's free-space solution, h = 1 (G(0) finite). */
static double green(int x, int y, int z) {
  double r = sqrt((double)x * x + (double)y * y + (double)z * z);
  return r > 0 ? 1.0 / (4 * M_PI * r) : 1.0 / (4 * M_PI * 0.5);
}

fftx_plan hockney_plan(fftx_real *rho, fftx_real *phi, fftx_complex *G_k, int N, unsigned mode) {
  int M = N / 2, N_k = M + 1, N_s = M, N_d = M, rk = 3, b_rk = 0;
  fftx_plan plans[9], p;
  fftx_iodim p_d[] = {{N, 1, 1}, {N, N, N}, {N, N * N, N * N}},
             f_d[] = {{N, 1, 1}, {N, N, N}, {N_k, N * N, N * N}}, b_d = {1, 1, 1};
  fftx_iodimx i_dx[] = {{N_s, 0, 0, 0, 1, 1, 1}, {N_s, 0, 0, 0, N_s, N, 1}, {N_s, 0, 0, 0, N_s * N_s, N * N, 1}},
              o_dx[] = {{N_d, 0, 0, 0, 1, 1, 1}, {N_d, 0, 0, 0, N, N_d, 1}, {N_d, 0, 0, 0, N * N, N_d * N_d, 1}},
              f_dx[] = {{N, 0, 0, 0, 1, 1, 1}, {N, 0, 0, 0, N, N, N}, {N_k, 0, 0, 0, N * N, N * N, N * N}},
              b_dx = {1, 0, 0, 0, 1, 1, 1};
  /* Fig. 7: access is to four octants of a symmetric cube; cube size N^3, M = N/2. */
  fftx_iodimx oct00[] = {{M + 1, 0, 0, 0, 1, 1, 1},
                         {M + 1, 0, 0, 0, M + 1, 2 * M, 1},
                         {M + 1, 0, 0, 0, (M + 1) * (M + 1), 4 * M * M, 1}},
              oct01[] = {{M - 1, M - 1, M + 1, 0, -1, 1, 1},
                         {M + 1, 0, 0, 0, M + 1, 2 * M, 1},
                         {M + 1, 0, 0, 0, (M + 1) * (M + 1), 4 * M * M, 1}},
              oct10[] = {{M + 1, 0, 0, 0, 1, 1, 1},
                         {M - 1, M - 1, M + 1, 0, -(M + 1), 2 * M, 1},
                         {M + 1, 0, 0, 0, (M + 1) * (M + 1), 4 * M * M, 1}},
              oct11[] = {{M - 1, M - 1, M + 1, 0, -1, 1, 1},
                         {M - 1, M - 1, M + 1, 0, -(M + 1), 2 * M, 1},
                         {M + 1, 0, 0, 0, (M + 1) * (M + 1), 4 * M * M, 1}};
  fftx_temp_real tmp1 = fftx_create_zero_temp_real(rk, p_d), tmp4 = fftx_create_temp_real(rk, p_d);
  fftx_temp_complex tmp2 = fftx_create_temp_complex(rk, f_d), tmp3 = fftx_create_temp_complex(rk, f_d);
  fftx_temp_complex half_G_k = fftx_create_zero_temp_complex(rk, f_d);
  plans[0] = fftx_plan_guru_copy_real(rk, i_dx, rho, tmp1, mode | FFTX_SUBPLAN);
  plans[1] = fftx_plan_guru_dft_r2c(rk, p_d, b_rk, &b_d, tmp1, tmp2, mode | FFTX_SUBPLAN);
  plans[2] = fftx_plan_guru_copy_complex(rk, oct00, G_k, half_G_k, mode | FFTX_SUBPLAN);
  plans[3] = fftx_plan_guru_copy_complex(rk, oct01, G_k, half_G_k, mode | FFTX_SUBPLAN);
  plans[4] = fftx_plan_guru_copy_complex(rk, oct10, G_k, half_G_k, mode | FFTX_SUBPLAN);
  plans[5] = fftx_plan_guru_copy_complex(rk, oct11, G_k, half_G_k, mode | FFTX_SUBPLAN);
  plans[6] = fftx_plan_guru_pointwise_c2c(rk, f_dx, b_rk, &b_dx, tmp2, tmp3, half_G_k,
                                          (fftx_callback)cplx_scaling, mode | FFTX_SUBPLAN);
  plans[7] = fftx_plan_guru_dft_c2r(rk, p_d, b_rk, &b_d, tmp3, tmp4, mode | FFTX_SUBPLAN);
  plans[8] = fftx_plan_guru_copy_real(rk, o_dx, tmp4, phi, mode | FFTX_SUBPLAN);
  for (int i = 0; i < 9; i++) CHECK_PLAN(plans[i]);
  p = fftx_plan_compose(9, plans, mode);
  for (int i = 0; i < 9; i++) fftx_destroy_plan(plans[i]);
  fftx_destroy_temp_real(tmp1); fftx_destroy_temp_real(tmp4);
  fftx_destroy_temp_complex(tmp2); fftx_destroy_temp_complex(tmp3); fftx_destroy_temp_complex(half_G_k);
  return p;
}

static int run(int N) {
  int M = N / 2, bad = 0;
  size_t m3 = (size_t)M * M * M, o3 = (size_t)(M + 1) * (M + 1) * (M + 1);
  double *rho = malloc(sizeof(double) * m3), *phi = malloc(sizeof(double) * m3), *want = calloc(m3, sizeof(double));
  fftx_complex *G_k = malloc(sizeof(fftx_complex) * o3);
  double *gp = malloc(sizeof(double) * N * N * N), *t1 = malloc(sizeof(double) * N * N * (M + 1)),
         *t2 = malloc(sizeof(double) * N * (M + 1) * (M + 1));
  for (size_t i = 0; i < m3; i++) rho[i] = check_random();
  /* The periodized Green's function on the doubled grid, and its DFT / N^3 on one octant: real
   * and even, so three passes of cosine sums (k in 0..M on each axis). */
#define MIRROR(i) ((i) <= N - (i) ? (i) : N - (i))
  for (int z = 0; z < N; z++)
    for (int y = 0; y < N; y++)
      for (int x = 0; x < N; x++) gp[x + N * (y + N * z)] = green(MIRROR(x), MIRROR(y), MIRROR(z));
  for (int z = 0; z < N; z++)
    for (int y = 0; y < N; y++)
      for (int k = 0; k <= M; k++) {
        double s = 0;
        for (int x = 0; x < N; x++) s += gp[x + N * (y + N * z)] * cos(2 * M_PI * (double)(k * x % N) / N);
        t1[k + (M + 1) * (y + N * z)] = s;
      }
  for (int z = 0; z < N; z++)
    for (int k1 = 0; k1 <= M; k1++)
      for (int k0 = 0; k0 <= M; k0++) {
        double s = 0;
        for (int y = 0; y < N; y++) s += t1[k0 + (M + 1) * (y + N * z)] * cos(2 * M_PI * (double)(k1 * y % N) / N);
        t2[k0 + (M + 1) * (k1 + (M + 1) * z)] = s;
      }
  for (int k2 = 0; k2 <= M; k2++)
    for (int k1 = 0; k1 <= M; k1++)
      for (int k0 = 0; k0 <= M; k0++) {
        double s = 0;
        for (int z = 0; z < N; z++) s += t2[k0 + (M + 1) * (k1 + (M + 1) * z)] * cos(2 * M_PI * (double)(k2 * z % N) / N);
        size_t o = k0 + (M + 1) * (k1 + (size_t)(M + 1) * k2);
        G_k[o][0] = s / ((double)N * N * N);
        G_k[o][1] = 0;
      }
  /* The direct free-space sum. */
  for (int x2 = 0; x2 < M; x2++)
    for (int x1 = 0; x1 < M; x1++)
      for (int x0 = 0; x0 < M; x0++) {
        double s = 0;
        for (int y2 = 0; y2 < M; y2++)
          for (int y1 = 0; y1 < M; y1++)
            for (int y0 = 0; y0 < M; y0++)
              s += green(abs(x0 - y0), abs(x1 - y1), abs(x2 - y2)) * rho[y0 + M * (y1 + M * y2)];
        want[x0 + M * (x1 + M * x2)] = s;
      }
  for (int opt = 0; opt < 2; opt++) {
    fftx_plan p = hockney_plan(rho, phi, G_k, N, FFTX_MODE | (opt ? 0 : FFTX_NO_OPTIMIZE));
    CHECK_PLAN(p);
    for (size_t i = 0; i < m3; i++) phi[i] = 1e3;
    fftx_execute(p);
    char what[64];
    snprintf(what, sizeof what, "Hockney N=%d %s", N, opt ? "optimized" : "unoptimized");
    bad |= check_report(what, check_rel_err(phi, want, m3), check_tol((double)N * N * N));
    if (opt) {
      /* The four octant copies stay (they fill the pointwise operand); the rest is one chain. */
      const char *needles[] = {"subplans=9 steps=5 optimized", "(chain [subplan 0", "live-in=[0..", "(store ["};
      bad |= check_printout(p, needles, 4);
      if (N == 8) fftx_print_plan(p);
    }
    fftx_destroy_plan(p);
  }
  free(rho); free(phi); free(want); free(G_k); free(gp); free(t1); free(t2);
  return bad;
}

int main(void) {
  int bad = 0;
  fftx_init(FFTX_HIGH_PERFORMANCE);
  bad |= run(8);
  bad |= run(16);
  fftx_shutdown();
  printf(bad ? "hockney: FAILED\n" : "hockney: all passed\n");
  return bad;
}
