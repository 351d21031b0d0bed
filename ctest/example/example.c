/* fftx example: a 1-D complex DFT through the FFTW API, checked against a direct DFT.
 *
 *   cmake -S . -B build && cmake --build build --target run-example
 *
 * Builds against fftx's fftw3.h and links libfftx; the same source builds unchanged against
 * FFTW (cc example.c -lfftw3 -lm). */
#include <fftw3.h>
#include <math.h>
#include <stdio.h>

int main(void)
{
    const int n = 24;
    const double pi = 3.14159265358979323846;
    fftw_complex *in = fftw_alloc_complex(n), *out = fftw_alloc_complex(n);
    fftw_plan p = fftw_plan_dft_1d(n, in, out, FFTW_FORWARD, FFTW_ESTIMATE);
    if (!p || !in || !out) {
        fprintf(stderr, "example: planning failed\n");
        return 1;
    }
    for (int j = 0; j < n; j++) {           /* fill after planning, as FFTW requires */
        in[j][0] = sin(0.3 * j) + 0.25 * j;
        in[j][1] = cos(0.7 * j);
    }
    fftw_execute(p);

    double err = 0, scale = 0;
    for (int k = 0; k < n; k++) {           /* direct DFT: X[k] = sum_j x[j] e^{-2 pi i jk/n} */
        double re = 0, im = 0;
        for (int j = 0; j < n; j++) {
            double a = -2 * pi * (double)((long)j * k % n) / n;
            re += in[j][0] * cos(a) - in[j][1] * sin(a);
            im += in[j][0] * sin(a) + in[j][1] * cos(a);
        }
        err = fmax(err, hypot(out[k][0] - re, out[k][1] - im));
        scale = fmax(scale, hypot(re, im));
    }
    printf("fftw_plan_dft_1d(n=%d, FFTW_FORWARD), first outputs:\n", n);
    for (int k = 0; k < 4; k++)
        printf("  X[%d] = %+.12f %+.12fi\n", k, out[k][0], out[k][1]);
    int ok = err <= 1e-12 * scale;
    printf("max |X - direct DFT| = %.3g (relative %.3g): %s\n", err, err / scale,
           ok ? "match" : "MISMATCH");

    fftw_destroy_plan(p);
    fftw_free(in);
    fftw_free(out);
    return ok ? 0 : 1;
}
