/* Wisdom, double and single precision: export to a string, a file name, a FILE* and a callback;
 * forget; import each way; FFTW_WISDOM_ONLY before and after. Wisdom texts differ between
 * libraries, so only what FFTW promises is printed: return values, whether a plan exists, and
 * the transforms the plans compute. Run in a directory of its own (it writes files there). */
#include <fftw3.h>
#include "common.h"

static long chars;
static void count_char(char c, void *data)
{
    (void)c;
    (*(long *)data)++;
}

/* Plans (flags) a forward 1-D DFT of n; prints whether it exists and, if so, its output. */
static int try_dft(const char *label, int n, unsigned flags)
{
    fftw_complex *in = fftw_alloc_complex(n), *out = fftw_alloc_complex(n);
    fftw_plan p = fftw_plan_dft_1d(n, in, out, FFTW_FORWARD, flags);
    printf("== d %s n %d plan %d\n", label, n, p != NULL);
    if (p) {
        for (int i = 0; i < n; i++) {   /* MEASURE may have overwritten the arrays */
            in[i][0] = val(i, 100);
            in[i][1] = val(i, 101);
        }
        fftw_execute(p);
        print_cd(&out[0][0], &out[0][1], n, 2);
        fftw_destroy_plan(p);
    }
    fftw_free(in);
    fftw_free(out);
    return p != NULL;
}

static int try_r2c_f(const char *label, int n0, int n1, unsigned flags)
{
    float *in = fftwf_alloc_real(n0 * n1);
    fftwf_complex *out = fftwf_alloc_complex(n0 * (n1 / 2 + 1));
    fftwf_plan p = fftwf_plan_dft_r2c_2d(n0, n1, in, out, flags);
    printf("== f %s %dx%d plan %d\n", label, n0, n1, p != NULL);
    if (p) {
        for (int i = 0; i < n0 * n1; i++) in[i] = (float)val(i, 102);
        fftwf_execute(p);
        print_cf(&out[0][0], &out[0][1], n0 * (n1 / 2 + 1), 2);
        fftwf_destroy_plan(p);
    }
    fftwf_free(in);
    fftwf_free(out);
    return p != NULL;
}

int main(void)
{
    /* nothing known yet */
    try_dft("wisdom-only before any planning", 64, FFTW_MEASURE | FFTW_WISDOM_ONLY);
    try_dft("measure", 64, FFTW_MEASURE);
    try_dft("measure", 48, FFTW_PATIENT);
    try_r2c_f("measure", 8, 12, FFTW_MEASURE);
    try_dft("wisdom-only after planning", 64, FFTW_MEASURE | FFTW_WISDOM_ONLY);

    char *s = fftw_export_wisdom_to_string();
    printf("export_wisdom_to_string %d\n", s != NULL && strlen(s) > 0);
    char *sf = fftwf_export_wisdom_to_string();
    printf("fftwf_export_wisdom_to_string %d\n", sf != NULL && strlen(sf) > 0);
    printf("export_wisdom_to_filename %d\n", fftw_export_wisdom_to_filename("wisdom.txt"));
    printf("fftwf_export_wisdom_to_filename %d\n", fftwf_export_wisdom_to_filename("wisdomf.txt"));
    FILE *f = fopen("wisdom-file.txt", "w");
    fftw_export_wisdom_to_file(f);
    fclose(f);
    chars = 0;
    fftw_export_wisdom(count_char, &chars);
    printf("export_wisdom callback %d\n", chars > 0);

    fftw_forget_wisdom();
    fftwf_forget_wisdom();
    try_dft("wisdom-only after forget", 64, FFTW_MEASURE | FFTW_WISDOM_ONLY);
    try_r2c_f("wisdom-only after forget", 8, 12, FFTW_MEASURE | FFTW_WISDOM_ONLY);

    printf("import_wisdom_from_string %d\n", fftw_import_wisdom_from_string(s));
    printf("fftwf_import_wisdom_from_string %d\n", fftwf_import_wisdom_from_string(sf));
    try_dft("wisdom-only after string import", 64, FFTW_MEASURE | FFTW_WISDOM_ONLY);
    try_dft("wisdom-only estimate after string import", 64, FFTW_ESTIMATE | FFTW_WISDOM_ONLY);
    try_dft("wisdom-only patient after string import", 48, FFTW_PATIENT | FFTW_WISDOM_ONLY);
    try_dft("wisdom-only unknown size", 50, FFTW_MEASURE | FFTW_WISDOM_ONLY);
    try_r2c_f("wisdom-only after string import", 8, 12, FFTW_MEASURE | FFTW_WISDOM_ONLY);

    fftw_forget_wisdom();
    fftwf_forget_wisdom();
    printf("import_wisdom_from_filename %d\n", fftw_import_wisdom_from_filename("wisdom.txt"));
    printf("fftwf_import_wisdom_from_filename %d\n", fftwf_import_wisdom_from_filename("wisdomf.txt"));
    try_dft("wisdom-only after file import", 64, FFTW_MEASURE | FFTW_WISDOM_ONLY);
    try_r2c_f("wisdom-only after file import", 8, 12, FFTW_MEASURE | FFTW_WISDOM_ONLY);

    fftw_forget_wisdom();
    f = fopen("wisdom-file.txt", "r");
    printf("import_wisdom_from_file %d\n", fftw_import_wisdom_from_file(f));
    fclose(f);
    try_dft("wisdom-only after FILE import", 48, FFTW_MEASURE | FFTW_WISDOM_ONLY);

    /* garbage is refused */
    printf("import garbage %d\n", fftw_import_wisdom_from_string("(this is not wisdom"));
    printf("import missing file %d\n", fftw_import_wisdom_from_filename("no-such-dir/wisdom.txt"));

    fftw_free(s);
    fftwf_free(sf);
    fftw_cleanup();
    fftwf_cleanup();
    return 0;
}
