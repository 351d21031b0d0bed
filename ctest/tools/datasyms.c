/* Reads FFTW's exported data (fftw_version, fftw_cc, fftw_codelet_optim and the fftwf_ ones).
 * Built against the system's FFTW and run with fftx under FFTW's names: the executable holds
 * copies of these arrays sized by FFTW's definitions (copy relocations), so fftx's must not be
 * larger, or the loader warns "Symbol ... has different size" and the copy is cut short, its
 * terminating NUL lost. */
#include <fftw3.h>
#include <stdio.h>

int main(void)
{
    printf("fftw_version [%s]\n", fftw_version);
    printf("fftwf_version [%s]\n", fftwf_version);
    printf("fftw_cc [%s]\n", fftw_cc);
    printf("fftwf_cc [%s]\n", fftwf_cc);
    printf("fftw_codelet_optim [%s]\n", fftw_codelet_optim);
    printf("fftwf_codelet_optim [%s]\n", fftwf_codelet_optim);
    return 0;
}
