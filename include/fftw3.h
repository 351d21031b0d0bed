/*
 * fftw3.h -- public C interface of fftx.
 *
 * This header is part of fftx and was written for it.  It is ABI-compatible with
 * FFTW 3.3.10: every type, function prototype, data symbol and constant value below is
 * the one FFTW 3.3.10 documents, so code written for FFTW compiles unchanged and links
 * against fftx (libfftx, or the libfftw3*.so names fftx installs).
 *
 * Precisions: double (fftw_*) and single (fftwf_*).  fftx has no long-double (fftwl_*)
 * or quad (fftwq_*) API, so none is declared here.
 *
 * Complex type: when <complex.h> was included before this header (so that `complex`,
 * `_Complex_I` and `I` are all macros) and FFTW_NO_Complex is not defined, fftw_complex
 * is the native `double _Complex`.  Otherwise -- always in C++, whose <complex.h> does not
 * define `complex` -- it is `double[2]` (real, imaginary), which has the same layout as
 * C99 `double _Complex` and C++ `std::complex<double>`; in C++ pass e.g.
 * `reinterpret_cast<fftw_complex *>(v.data())`.  fftwf_complex likewise with float.
 */
#ifndef FFTW3_H
#define FFTW3_H

#include <stdio.h>  /* FILE */
#include <stddef.h> /* size_t, ptrdiff_t */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- helper macros (same names as FFTW's, for code that relies on them) ------------- */

#if !defined(FFTW_NO_Complex) && defined(_Complex_I) && defined(complex) && defined(I)
#  define FFTW_DEFINE_COMPLEX(R, C) typedef R _Complex C
#else
#  define FFTW_DEFINE_COMPLEX(R, C) typedef R C[2]
#endif

#define FFTW_CONCAT(prefix, name) prefix ## name
#define FFTW_MANGLE_DOUBLE(name) FFTW_CONCAT(fftw_, name)
#define FFTW_MANGLE_FLOAT(name) FFTW_CONCAT(fftwf_, name)

#ifndef FFTW_EXTERN
#  if defined(FFTW_DLL) && (defined(_WIN32) || defined(__WIN32__))
#    define FFTW_EXTERN extern __declspec(dllimport)
#  else
#    define FFTW_EXTERN extern
#  endif
#endif

/* Calling convention: only meaningful on Windows; empty elsewhere. */
#if defined(_WIN32) || defined(__WIN32__)
#  define FFTW_CDECL __cdecl
#else
#  define FFTW_CDECL
#endif

/* ---- types shared by every precision ------------------------------------------------ */

/* Kinds of real-to-real transform (fftw_r2r_kind / fftwf_r2r_kind). */
enum fftw_r2r_kind_do_not_use_me {
    FFTW_R2HC = 0,
    FFTW_HC2R = 1,
    FFTW_DHT = 2,
    FFTW_REDFT00 = 3,
    FFTW_REDFT01 = 4,
    FFTW_REDFT10 = 5,
    FFTW_REDFT11 = 6,
    FFTW_RODFT00 = 7,
    FFTW_RODFT01 = 8,
    FFTW_RODFT10 = 9,
    FFTW_RODFT11 = 10
};

/* One dimension of a guru plan: length, input stride, output stride (in elements). */
struct fftw_iodim_do_not_use_me {
    int n;
    int is;
    int os;
};

/* The same with ptrdiff_t members, for the guru64 interface. */
struct fftw_iodim64_do_not_use_me {
    ptrdiff_t n;
    ptrdiff_t is;
    ptrdiff_t os;
};

/* Callbacks of fftw_export_wisdom / fftw_import_wisdom. */
typedef void (FFTW_CDECL *fftw_write_char_func_do_not_use_me)(char c, void *);
typedef int (FFTW_CDECL *fftw_read_char_func_do_not_use_me)(void *);

/* ---- the API of one precision ---------------------------------------------------------
 *
 * FFTW_DEFINE_API(X, R, C) declares everything for one precision:
 *   X  macro that prefixes a name (FFTW_MANGLE_DOUBLE -> fftw_, FFTW_MANGLE_FLOAT -> fftwf_)
 *   R  the real type (double, float)
 *   C  the name to give the complex type (fftw_complex, fftwf_complex)
 * Both precisions come from this one macro, so they cannot drift apart.
 */
#define FFTW_DEFINE_API(X, R, C)                                                             \
                                                                                             \
    FFTW_DEFINE_COMPLEX(R, C);                                                               \
    typedef struct X(plan_s) *X(plan);                                                       \
    typedef struct fftw_iodim_do_not_use_me X(iodim);                                        \
    typedef struct fftw_iodim64_do_not_use_me X(iodim64);                                    \
    typedef enum fftw_r2r_kind_do_not_use_me X(r2r_kind);                                    \
    typedef fftw_write_char_func_do_not_use_me X(write_char_func);                           \
    typedef fftw_read_char_func_do_not_use_me X(read_char_func);                             \
                                                                                             \
    /* complex DFT: basic and advanced ("many") interfaces */                                \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_dft)(int rank, const int *n, C *in, C *out,        \
                                               int sign, unsigned flags);                    \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_dft_1d)(int n, C *in, C *out, int sign,            \
                                                  unsigned flags);                           \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_dft_2d)(int n0, int n1, C *in, C *out, int sign,   \
                                                  unsigned flags);                           \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_dft_3d)(int n0, int n1, int n2, C *in, C *out,     \
                                                  int sign, unsigned flags);                 \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_many_dft)(                                         \
        int rank, const int *n, int howmany,                                                 \
        C *in, const int *inembed, int istride, int idist,                                   \
        C *out, const int *onembed, int ostride, int odist,                                  \
        int sign, unsigned flags);                                                           \
                                                                                             \
    /* real-input (r2c) DFT */                                                               \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_dft_r2c)(int rank, const int *n, R *in, C *out,    \
                                                   unsigned flags);                          \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_dft_r2c_1d)(int n, R *in, C *out, unsigned flags); \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_dft_r2c_2d)(int n0, int n1, R *in, C *out,         \
                                                      unsigned flags);                       \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_dft_r2c_3d)(int n0, int n1, int n2,                \
                                                      R *in, C *out, unsigned flags);        \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_many_dft_r2c)(                                     \
        int rank, const int *n, int howmany,                                                 \
        R *in, const int *inembed, int istride, int idist,                                   \
        C *out, const int *onembed, int ostride, int odist,                                  \
        unsigned flags);                                                                     \
                                                                                             \
    /* real-output (c2r) DFT */                                                              \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_dft_c2r)(int rank, const int *n, C *in, R *out,    \
                                                   unsigned flags);                          \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_dft_c2r_1d)(int n, C *in, R *out, unsigned flags); \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_dft_c2r_2d)(int n0, int n1, C *in, R *out,         \
                                                      unsigned flags);                       \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_dft_c2r_3d)(int n0, int n1, int n2,                \
                                                      C *in, R *out, unsigned flags);        \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_many_dft_c2r)(                                     \
        int rank, const int *n, int howmany,                                                 \
        C *in, const int *inembed, int istride, int idist,                                   \
        R *out, const int *onembed, int ostride, int odist,                                  \
        unsigned flags);                                                                     \
                                                                                             \
    /* real-to-real transforms */                                                            \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_r2r)(int rank, const int *n, R *in, R *out,        \
                                               const X(r2r_kind) *kind, unsigned flags);     \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_r2r_1d)(int n, R *in, R *out,                      \
                                                  X(r2r_kind) kind, unsigned flags);         \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_r2r_2d)(int n0, int n1, R *in, R *out,             \
                                                  X(r2r_kind) kind0, X(r2r_kind) kind1,      \
                                                  unsigned flags);                           \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_r2r_3d)(int n0, int n1, int n2, R *in, R *out,     \
                                                  X(r2r_kind) kind0, X(r2r_kind) kind1,      \
                                                  X(r2r_kind) kind2, unsigned flags);        \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_many_r2r)(                                         \
        int rank, const int *n, int howmany,                                                 \
        R *in, const int *inembed, int istride, int idist,                                   \
        R *out, const int *onembed, int ostride, int odist,                                  \
        const X(r2r_kind) *kind, unsigned flags);                                            \
                                                                                             \
    /* guru interface (int dimensions) */                                                    \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_guru_dft)(                                         \
        int rank, const X(iodim) *dims, int howmany_rank, const X(iodim) *howmany_dims,      \
        C *in, C *out, int sign, unsigned flags);                                            \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_guru_split_dft)(                                   \
        int rank, const X(iodim) *dims, int howmany_rank, const X(iodim) *howmany_dims,      \
        R *ri, R *ii, R *ro, R *io, unsigned flags);                                         \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_guru_dft_r2c)(                                     \
        int rank, const X(iodim) *dims, int howmany_rank, const X(iodim) *howmany_dims,      \
        R *in, C *out, unsigned flags);                                                      \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_guru_split_dft_r2c)(                               \
        int rank, const X(iodim) *dims, int howmany_rank, const X(iodim) *howmany_dims,      \
        R *in, R *ro, R *io, unsigned flags);                                                \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_guru_dft_c2r)(                                     \
        int rank, const X(iodim) *dims, int howmany_rank, const X(iodim) *howmany_dims,      \
        C *in, R *out, unsigned flags);                                                      \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_guru_split_dft_c2r)(                               \
        int rank, const X(iodim) *dims, int howmany_rank, const X(iodim) *howmany_dims,      \
        R *ri, R *ii, R *out, unsigned flags);                                               \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_guru_r2r)(                                         \
        int rank, const X(iodim) *dims, int howmany_rank, const X(iodim) *howmany_dims,      \
        R *in, R *out, const X(r2r_kind) *kind, unsigned flags);                             \
                                                                                             \
    /* guru64 interface (ptrdiff_t dimensions) */                                            \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_guru64_dft)(                                       \
        int rank, const X(iodim64) *dims, int howmany_rank, const X(iodim64) *howmany_dims,  \
        C *in, C *out, int sign, unsigned flags);                                            \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_guru64_split_dft)(                                 \
        int rank, const X(iodim64) *dims, int howmany_rank, const X(iodim64) *howmany_dims,  \
        R *ri, R *ii, R *ro, R *io, unsigned flags);                                         \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_guru64_dft_r2c)(                                   \
        int rank, const X(iodim64) *dims, int howmany_rank, const X(iodim64) *howmany_dims,  \
        R *in, C *out, unsigned flags);                                                      \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_guru64_split_dft_r2c)(                             \
        int rank, const X(iodim64) *dims, int howmany_rank, const X(iodim64) *howmany_dims,  \
        R *in, R *ro, R *io, unsigned flags);                                                \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_guru64_dft_c2r)(                                   \
        int rank, const X(iodim64) *dims, int howmany_rank, const X(iodim64) *howmany_dims,  \
        C *in, R *out, unsigned flags);                                                      \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_guru64_split_dft_c2r)(                             \
        int rank, const X(iodim64) *dims, int howmany_rank, const X(iodim64) *howmany_dims,  \
        R *ri, R *ii, R *out, unsigned flags);                                               \
    FFTW_EXTERN X(plan) FFTW_CDECL X(plan_guru64_r2r)(                                       \
        int rank, const X(iodim64) *dims, int howmany_rank, const X(iodim64) *howmany_dims,  \
        R *in, R *out, const X(r2r_kind) *kind, unsigned flags);                             \
                                                                                             \
    /* execution: on the planned arrays, or on new ones ("new-array execute") */             \
    FFTW_EXTERN void FFTW_CDECL X(execute)(const X(plan) p);                                 \
    FFTW_EXTERN void FFTW_CDECL X(execute_dft)(const X(plan) p, C *in, C *out);              \
    FFTW_EXTERN void FFTW_CDECL X(execute_split_dft)(const X(plan) p,                        \
                                                     R *ri, R *ii, R *ro, R *io);            \
    FFTW_EXTERN void FFTW_CDECL X(execute_dft_r2c)(const X(plan) p, R *in, C *out);          \
    FFTW_EXTERN void FFTW_CDECL X(execute_split_dft_r2c)(const X(plan) p,                    \
                                                         R *in, R *ro, R *io);               \
    FFTW_EXTERN void FFTW_CDECL X(execute_dft_c2r)(const X(plan) p, C *in, R *out);          \
    FFTW_EXTERN void FFTW_CDECL X(execute_split_dft_c2r)(const X(plan) p,                    \
                                                         R *ri, R *ii, R *out);              \
    FFTW_EXTERN void FFTW_CDECL X(execute_r2r)(const X(plan) p, R *in, R *out);              \
                                                                                             \
    /* plan lifetime and planner state */                                                    \
    FFTW_EXTERN void FFTW_CDECL X(destroy_plan)(X(plan) p);                                  \
    FFTW_EXTERN void FFTW_CDECL X(forget_wisdom)(void);                                      \
    FFTW_EXTERN void FFTW_CDECL X(cleanup)(void);                                            \
    FFTW_EXTERN void FFTW_CDECL X(set_timelimit)(double t);                                  \
                                                                                             \
    /* threads (libfftw3_threads / libfftw3_omp in FFTW) */                                  \
    FFTW_EXTERN int FFTW_CDECL X(init_threads)(void);                                        \
    FFTW_EXTERN void FFTW_CDECL X(plan_with_nthreads)(int nthreads);                         \
    FFTW_EXTERN int FFTW_CDECL X(planner_nthreads)(void);                                    \
    FFTW_EXTERN void FFTW_CDECL X(cleanup_threads)(void);                                    \
    FFTW_EXTERN void FFTW_CDECL X(make_planner_thread_safe)(void);                           \
    FFTW_EXTERN void FFTW_CDECL X(threads_set_callback)(                                     \
        void (*parallel_loop)(void *(*work)(char *), char *jobdata, size_t elsize,           \
                              int njobs, void *data),                                        \
        void *data);                                                                         \
                                                                                             \
    /* wisdom */                                                                             \
    FFTW_EXTERN int FFTW_CDECL X(export_wisdom_to_filename)(const char *filename);           \
    FFTW_EXTERN void FFTW_CDECL X(export_wisdom_to_file)(FILE *output_file);                 \
    FFTW_EXTERN char *FFTW_CDECL X(export_wisdom_to_string)(void);                           \
    FFTW_EXTERN void FFTW_CDECL X(export_wisdom)(X(write_char_func) write_char, void *data); \
    FFTW_EXTERN int FFTW_CDECL X(import_system_wisdom)(void);                                \
    FFTW_EXTERN int FFTW_CDECL X(import_wisdom_from_filename)(const char *filename);         \
    FFTW_EXTERN int FFTW_CDECL X(import_wisdom_from_file)(FILE *input_file);                 \
    FFTW_EXTERN int FFTW_CDECL X(import_wisdom_from_string)(const char *input_string);       \
    FFTW_EXTERN int FFTW_CDECL X(import_wisdom)(X(read_char_func) read_char, void *data);    \
                                                                                             \
    /* plan inspection; the string of sprint_plan is the caller's, to free() */              \
    FFTW_EXTERN void FFTW_CDECL X(fprint_plan)(const X(plan) p, FILE *output_file);          \
    FFTW_EXTERN void FFTW_CDECL X(print_plan)(const X(plan) p);                              \
    FFTW_EXTERN char *FFTW_CDECL X(sprint_plan)(const X(plan) p);                            \
    FFTW_EXTERN void FFTW_CDECL X(flops)(const X(plan) p,                                    \
                                         double *add, double *mul, double *fmas);            \
    FFTW_EXTERN double FFTW_CDECL X(estimate_cost)(const X(plan) p);                         \
    FFTW_EXTERN double FFTW_CDECL X(cost)(const X(plan) p);                                  \
                                                                                             \
    /* aligned memory: release with X(free) */                                               \
    FFTW_EXTERN void *FFTW_CDECL X(malloc)(size_t n);                                        \
    FFTW_EXTERN R *FFTW_CDECL X(alloc_real)(size_t n);                                       \
    FFTW_EXTERN C *FFTW_CDECL X(alloc_complex)(size_t n);                                    \
    FFTW_EXTERN void FFTW_CDECL X(free)(void *p);                                            \
    FFTW_EXTERN int FFTW_CDECL X(alignment_of)(R *p);                                        \
                                                                                             \
    /* library identification strings */                                                    \
    FFTW_EXTERN const char X(version)[];                                                     \
    FFTW_EXTERN const char X(cc)[];                                                          \
    FFTW_EXTERN const char X(codelet_optim)[];

FFTW_DEFINE_API(FFTW_MANGLE_DOUBLE, double, fftw_complex)
FFTW_DEFINE_API(FFTW_MANGLE_FLOAT, float, fftwf_complex)

/* ---- constants ----------------------------------------------------------------------- */

/* sign of the exponent */
#define FFTW_FORWARD (-1)
#define FFTW_BACKWARD (+1)

/* argument of fftw_set_timelimit: no limit */
#define FFTW_NO_TIMELIMIT (-1.0)

/* planner flags (documented) */
#define FFTW_MEASURE (0U)
#define FFTW_DESTROY_INPUT (1U << 0)
#define FFTW_UNALIGNED (1U << 1)
#define FFTW_CONSERVE_MEMORY (1U << 2)
#define FFTW_EXHAUSTIVE (1U << 3)
#define FFTW_PRESERVE_INPUT (1U << 4)
#define FFTW_PATIENT (1U << 5)
#define FFTW_ESTIMATE (1U << 6)
#define FFTW_WISDOM_ONLY (1U << 21)

/* planner flags (undocumented in FFTW; accepted by fftx, which may ignore them) */
#define FFTW_ESTIMATE_PATIENT (1U << 7)
#define FFTW_BELIEVE_PCOST (1U << 8)
#define FFTW_NO_DFT_R2HC (1U << 9)
#define FFTW_NO_NONTHREADED (1U << 10)
#define FFTW_NO_BUFFERING (1U << 11)
#define FFTW_NO_INDIRECT_OP (1U << 12)
#define FFTW_ALLOW_LARGE_GENERIC (1U << 13)
#define FFTW_NO_RANK_SPLITS (1U << 14)
#define FFTW_NO_VRANK_SPLITS (1U << 15)
#define FFTW_NO_VRECURSE (1U << 16)
#define FFTW_NO_SIMD (1U << 17)
#define FFTW_NO_SLOW (1U << 18)
#define FFTW_NO_FIXED_RADIX_LARGE_N (1U << 19)
#define FFTW_ALLOW_PRUNING (1U << 20)

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* FFTW3_H */
