// FFTW's eleven real-to-real kinds as PRE kernel -> batched complex DFT of the logical size N
// (cuFFT) -> POST kernel.
//
// Rust twins: crate::exec::twins::r2r_pre and crate::exec::twins::r2r_post (src/exec/twins.rs),
// which hold the derivation table. Every __device__ helper below has a twin of the same name
// there (r2r_logical, r2r_pre_twiddled, r2r_extend, cis_pi, r2r_pre_value, r2r_post_value); keep
// the two files a line-by-line transliteration of each other.
//
// Compiled at run time by NVRTC: no #include, only built-in vector types (float2, double2) and
// the CUDA math API (sincospi, sincospif). 64-bit indexing, grid-stride loops: any launch shape
// covers the whole batch.
//
// DFT between the two: Z_k = sum_m z_m e^{sign 2 pi i m k / N}, sign = -1 (CUFFT_FORWARD) for
// every kind but HC2R, +1 (CUFFT_INVERSE) for HC2R (twins::r2r_fft_sign).

// FFTW's kind numbers (fftw3.h enum fftw_r2r_kind_do_not_use_me).
#define FFTX_R2HC 0
#define FFTX_HC2R 1
#define FFTX_DHT 2
#define FFTX_REDFT00 3
#define FFTX_REDFT01 4
#define FFTX_REDFT10 5
#define FFTX_REDFT11 6
#define FFTX_RODFT00 7
#define FFTX_RODFT01 8
#define FFTX_RODFT10 9
#define FFTX_RODFT11 10

// sincospi in the kernel's precision.
__device__ __forceinline__ void fftx_sincospi(float x, float* s, float* c) { sincospif(x, s, c); }
__device__ __forceinline__ void fftx_sincospi(double x, double* s, double* c) { sincospi(x, s, c); }

template <typename R> struct fftx_complex_of;
template <> struct fftx_complex_of<float> { typedef float2 type; };
template <> struct fftx_complex_of<double> { typedef double2 type; };

template <typename C, typename R>
__device__ __forceinline__ C fftx_cplx(R re, R im) {
    C v;
    v.x = re;
    v.y = im;
    return v;
}

// Twin: twins::r2r_logical. Logical DFT size N; 0 for REDFT00 with n < 2 (not a transform).
__device__ __forceinline__ long long r2r_logical(int kind, long long n) {
    switch (kind) {
    case FFTX_R2HC:
    case FFTX_HC2R:
    case FFTX_DHT:
        return n;
    case FFTX_REDFT00:
        if (n < 2) {
            return 0;
        } else {
            return 2 * (n - 1);
        }
    case FFTX_RODFT00:
        return 2 * (n + 1);
    default:
        return 2 * n;
    }
}

// Twin: twins::r2r_pre_twiddled. Kinds whose output frequencies are k + 1/2.
__device__ __forceinline__ bool r2r_pre_twiddled(int kind) {
    return kind == FFTX_REDFT01 || kind == FFTX_RODFT01 || kind == FFTX_REDFT11 || kind == FFTX_RODFT11;
}

// Twin: twins::r2r_extend. The extension z_m = s x_j (all kinds but HC2R): returns j, sets *s to
// -1, 0 or +1 (j meaningless when *s == 0).
__device__ __forceinline__ long long r2r_extend(int kind, long long n, long long N, long long m, int* s) {
    switch (kind) {
    case FFTX_REDFT00:
        if (m < n) {
            *s = 1; return m;
        } else {
            *s = 1; return N - m;
        }
    case FFTX_RODFT00:
        if (m == 0 || m == n + 1) {
            *s = 0; return 0;
        } else if (m <= n) {
            *s = 1; return m - 1;
        } else {
            *s = -1; return N - m - 1;
        }
    case FFTX_REDFT10:
        if (m < n) {
            *s = 1; return m;
        } else {
            *s = 1; return N - 1 - m;
        }
    case FFTX_RODFT10:
    case FFTX_REDFT11:
        if (m < n) {
            *s = 1; return m;
        } else {
            *s = -1; return N - 1 - m;
        }
    case FFTX_RODFT11:
        if (m < n) {
            *s = 1; return m;
        } else {
            *s = 1; return N - 1 - m;
        }
    case FFTX_REDFT01:
        if (m < n) {
            *s = 1; return m;
        } else if (m == n) {
            *s = 0; return 0;
        } else {
            *s = -1; return N - m;
        }
    case FFTX_RODFT01:
        if (m == 0) {
            *s = 0; return 0;
        } else if (m <= n) {
            *s = 1; return m - 1;
        } else {
            *s = 1; return N - m - 1;
        }
    default:  // R2HC, DHT: the line itself.
        *s = 1; return m;
    }
}

// Twin: twins::cis_pi. (cos, sin) of pi num/den (den > 0), num first reduced exactly to
// (-den, den] in integers, so the argument of sincospi is accurate for any N.
template <typename R>
__device__ __forceinline__ void cis_pi(long long num, long long den, R* c, R* s) {
    long long two_den = 2 * den;
    long long r = num % two_den;
    if (r < 0) {
        r += two_den;
    }
    if (r > den) {
        r -= two_den;
    }
    fftx_sincospi((R)r / (R)den, s, c);
}

// Twin: twins::r2r_pre_value. Element m of the complex line whose input sample j is
// in[base + j * stride].
template <typename R, typename C>
__device__ __forceinline__ C r2r_pre_value(int kind, long long n, long long N, long long m,
                                           const R* in, long long base, long long stride) {
    const R zero = (R)0;
    if (kind == FFTX_HC2R) {
        // Hermitian spectrum of the halfcomplex line r0, r1, ..., r_{n/2}, i_{(n+1)/2-1}, ..., i1.
        if (m == 0 || 2 * m == n) {
            return fftx_cplx<C, R>(in[base + m * stride], zero);
        } else if (2 * m < n) {
            return fftx_cplx<C, R>(in[base + m * stride], in[base + (n - m) * stride]);
        } else {
            return fftx_cplx<C, R>(in[base + (n - m) * stride], -in[base + m * stride]);
        }
    }
    int s;
    long long j = r2r_extend(kind, n, N, m, &s);
    R v;
    if (s == 0) {
        v = zero;
    } else if (s == 1) {
        v = in[base + j * stride];
    } else {
        v = -in[base + j * stride];
    }
    if (r2r_pre_twiddled(kind)) {
        // e^{-i pi m / N} = e^{i pi (-2m) / (2N)}
        R c, sn;
        cis_pi<R>(-2 * m, 2 * N, &c, &sn);
        return fftx_cplx<C, R>(v * c, v * sn);
    } else {
        return fftx_cplx<C, R>(v, zero);
    }
}

// Twin: twins::r2r_post_value. Output y_k from the transformed line z (Z_i = z[i]).
template <typename R, typename C>
__device__ __forceinline__ R r2r_post_value(int kind, long long n, long long N, long long k, const C* z) {
    switch (kind) {
    case FFTX_R2HC:
        if (2 * k <= n) {
            return z[k].x;
        } else {
            return z[n - k].y;
        }
    case FFTX_DHT: {
        C v = z[k];
        return v.x - v.y;
    }
    case FFTX_RODFT00:
        return -z[k + 1].y;
    case FFTX_RODFT01:
        return -z[k].y;
    case FFTX_REDFT10:
    case FFTX_RODFT10:
    case FFTX_REDFT11:
    case FFTX_RODFT11: {
        // Post-twiddle e^{i pi num / (2N)}: num = -2k (type 2, k+1 for RODFT10), -(2k+1) (type 4).
        long long i, num;
        if (kind == FFTX_REDFT10) {
            i = k; num = -2 * k;
        } else if (kind == FFTX_RODFT10) {
            i = k + 1; num = -2 * (k + 1);
        } else {
            i = k; num = -(2 * k + 1);
        }
        R c, s;
        cis_pi<R>(num, 2 * N, &c, &s);
        C v = z[i];
        if (kind == FFTX_REDFT10 || kind == FFTX_REDFT11) {
            return v.x * c - v.y * s;  // Re(w Z)
        } else {
            return -(v.x * s + v.y * c);  // -Im(w Z)
        }
    }
    default:  // HC2R, REDFT00, REDFT01
        return z[k].x;
    }
}

// Twin: twins::r2r_pre. batch real lines of n (line b, sample j at
// in[in_offset + (b / group)*group_dist + (b % group)*in_dist + j*in_stride]: groups of `group`
// lines, as an array's middle axis has them, so one launch takes every line of an axis)
// -> batch complex lines of N, contiguous in z.
// N must be r2r_logical(kind, n); otherwise (and for REDFT00 with n < 2) nothing is written.
template <typename R, typename C>
__device__ __forceinline__ void r2r_pre_impl(int kind, long long n, long long N, long long batch, const R* in,
                                             long long in_offset, long long in_stride, long long in_dist,
                                             long long group, long long group_dist, C* z) {
    if (N != r2r_logical(kind, n) || N <= 0) {
        return;
    }
    long long total = batch * N;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < total;
         i += (long long)blockDim.x * gridDim.x) {
        long long b = i / N;
        long long m = i - b * N;
        long long base = in_offset + (b / group) * group_dist + (b % group) * in_dist;
        z[i] = r2r_pre_value<R, C>(kind, n, N, m, in, base, in_stride);
    }
}

// Twin: twins::r2r_post. Transformed lines of N in z (contiguous) -> y_k of line b at
// out[out_offset + (b / group)*group_dist + (b % group)*out_dist + k*out_stride], k < n; nothing
// else is written.
template <typename R, typename C>
__device__ __forceinline__ void r2r_post_impl(int kind, long long n, long long N, long long batch, const C* z, R* out,
                                              long long out_offset, long long out_stride, long long out_dist,
                                              long long group, long long group_dist) {
    if (N != r2r_logical(kind, n) || N <= 0) {
        return;
    }
    long long total = batch * n;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < total;
         i += (long long)blockDim.x * gridDim.x) {
        long long b = i / n;
        long long k = i - b * n;
        const C* line = z + b * N;
        R y = r2r_post_value<R, C>(kind, n, N, k, line);
        out[out_offset + (b / group) * group_dist + (b % group) * out_dist + k * out_stride] = y;
    }
}

// Twin: twins::r2r_pre (f32).
extern "C" __global__ void r2r_pre_f32(int kind, long long n, long long N, long long batch, const float* in,
                                       long long in_offset, long long in_stride, long long in_dist, long long group, long long group_dist, float2* z) {
    r2r_pre_impl<float, float2>(kind, n, N, batch, in, in_offset, in_stride, in_dist, group, group_dist, z);
}

// Twin: twins::r2r_pre (f64).
extern "C" __global__ void r2r_pre_f64(int kind, long long n, long long N, long long batch, const double* in,
                                       long long in_offset, long long in_stride, long long in_dist, long long group, long long group_dist, double2* z) {
    r2r_pre_impl<double, double2>(kind, n, N, batch, in, in_offset, in_stride, in_dist, group, group_dist, z);
}

// Twin: twins::r2r_post (f32).
extern "C" __global__ void r2r_post_f32(int kind, long long n, long long N, long long batch, const float2* z,
                                        float* out, long long out_offset, long long out_stride, long long out_dist, long long group, long long group_dist) {
    r2r_post_impl<float, float2>(kind, n, N, batch, z, out, out_offset, out_stride, out_dist, group, group_dist);
}

// Twin: twins::r2r_post (f64).
extern "C" __global__ void r2r_post_f64(int kind, long long n, long long N, long long batch, const double2* z,
                                        double* out, long long out_offset, long long out_stride, long long out_dist, long long group, long long group_dist) {
    r2r_post_impl<double, double2>(kind, n, N, batch, z, out, out_offset, out_stride, out_dist, group, group_dist);
}
