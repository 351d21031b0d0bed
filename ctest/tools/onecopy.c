/* Linked with -lfftw3_threads -lfftw3: prints how many FFTW/fftx objects the loader mapped and
 * whether threads state set through one name is seen through the other. Against fftx (names
 * that are links to one file, or one SONAME) it must print "objects 1" and "nthreads 3". */
#define _GNU_SOURCE
#include <fftw3.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

static int count(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    const char *base = strrchr(info->dlpi_name, '/');
    base = base ? base + 1 : info->dlpi_name;
    if (!strncmp(base, "libfftw3", 8) || !strncmp(base, "libfftx", 7)) {
        printf("# loaded %s\n", info->dlpi_name);
        (*(int *)data)++;
    }
    return 0;
}

int main(void)
{
    int objects = 0;
    dl_iterate_phdr(count, &objects);
    printf("objects %d\n", objects);
    printf("init_threads %d\n", fftw_init_threads() != 0);
    fftw_plan_with_nthreads(3);
    printf("nthreads %d\n", fftw_planner_nthreads());
    fftw_complex *a = fftw_alloc_complex(64);
    fftw_plan p = fftw_plan_dft_1d(64, a, a, FFTW_FORWARD, FFTW_ESTIMATE);
    printf("plan %d\n", p != NULL);
    if (p) fftw_destroy_plan(p);
    fftw_free(a);
    fftw_cleanup_threads();
    return 0;
}
