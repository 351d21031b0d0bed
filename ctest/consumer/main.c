/* Prints which file provides fftw_execute, and checks a small double and single DFT. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fftw3.h>
#include <math.h>
#include <stdio.h>

int main(void)
{
    Dl_info info;
    if (!dladdr((void *)fftw_execute, &info) || !info.dli_fname) return 2;
    printf("library: %s\n", info.dli_fname);

    enum { n = 8 };
    fftw_complex *a = fftw_alloc_complex(n);
    fftwf_complex *b = fftwf_alloc_complex(n);
    fftw_plan p = fftw_plan_dft_1d(n, a, a, FFTW_FORWARD, FFTW_ESTIMATE);
    fftwf_plan q = fftwf_plan_dft_1d(n, b, b, FFTW_FORWARD, FFTW_ESTIMATE);
    if (!p || !q) return 3;
    for (int i = 0; i < n; i++) {          /* a single tone at frequency 3 */
        a[i][0] = cos(2 * M_PI * 3 * i / n);
        a[i][1] = sin(2 * M_PI * 3 * i / n);
        b[i][0] = (float)a[i][0];
        b[i][1] = (float)a[i][1];
    }
    fftw_execute(p);
    fftwf_execute(q);
    double err = 0, errf = 0;
    for (int k = 0; k < n; k++) {
        err = fmax(err, hypot(a[k][0] - (k == 3 ? n : 0), a[k][1]));
        errf = fmax(errf, hypot(b[k][0] - (k == 3 ? n : 0), b[k][1]));
    }
    printf("error %.3g (double), %.3g (single)\n", err, errf);
    fftw_destroy_plan(p);
    fftwf_destroy_plan(q);
    fftw_free(a);
    fftwf_free(b);
    return err < 1e-12 && errf < 1e-4 ? 0 : 1;
}
