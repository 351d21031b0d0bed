// Hockney free-space convolution benchmark: fftx's FFTX plan composition against cuFFT called
// directly, on an H100. Build and run it with bench/hockney.sh (see bench/README.md).
//
// The computation, for n = 64, 128, 256 (N = 2n, Nh = N/2 + 1, all arrays row-major, z fastest):
//   padded = rho (n^3) zero-padded into the corner of an N^3 grid
//   spec   = R2C(padded)                        N x N x Nh complex
//   spec  *= Ghat                               Ghat already holds the 1/N^3 normalisation
//   phi    = C2R(spec), the same n^3 corner     rho[(x*n + y)*n + z], Ghat[(x*N + y)*Nh + k]
//
// Pipelines (each a ROW line; --pipelines picks a subset):
//   naive-f32, naive-f64         device arrays, cuFFT plans made once: memset + pad kernel, R2C,
//                                multiply kernel (out of place), C2R, crop kernel. Per-stage times
//                                come from CUDA events around each stage.
//   naive-f64-host               the same in f64 with rho, Ghat, phi in host memory (malloc): every
//                                run copies rho and Ghat in and phi out.
//   fftx-f64-device              the FFTX plan (copy, r2c, pointwise multiply by Ghat, c2r, copy) on
//                                cudaMalloc'd rho, Ghat, phi.
//   fftx-f64-device-nomult       the same plan with an identity pointwise function instead of the
//                                multiply (the same chain and passes, no Ghat read):
//                                t(fftx) - t(nomult) is the cost of the fused multiply.
//   fftx-f64-host                the FFTX plan on malloc'd rho, Ghat, phi (fftx does the transfers).
//   fftx-f32-device              the FFTX plan in single precision (the fftxf_ interface) on
//                                cudaMalloc'd float rho, Ghat, phi (converted from the f64 data on
//                                the device, as naive-f32's are).
//
// Accuracy: a reference phi per n, in f64 on the device by a different algorithm (Z2Z transforms of
// the padded grid, multiplied by the Hermitian-extended full spectrum); every row reports the
// relative L2 error sqrt(sum (phi - ref)^2 / sum ref^2).
//
// Timing: 3 warm-up runs, then runs until --min-time seconds (default 1) or --max-reps runs (200),
// each ended by cudaDeviceSynchronize; the median is reported in ms.
//
// Errors: every CUDA, cuFFT and FFTX failure prints "ERROR <what> <code> ..." and ends that row
// only; the next row runs. Output lines: ROW, NOTE, ERROR.

#include <cuda_runtime.h>
#include <cufft.h>
#include <fftx.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// ------------------------------------------------------------------------------ error checks

static std::string g_row = "setup";  // the row being run, for ERROR lines

static bool cuda_ok(cudaError_t e, const char *what) {
  if (e == cudaSuccess) return true;
  printf("ERROR %s %d (%s) row=%s\n", what, (int)e, cudaGetErrorString(e), g_row.c_str());
  fflush(stdout);
  return false;
}

static bool cufft_ok(cufftResult r, const char *what) {
  if (r == CUFFT_SUCCESS) return true;
  printf("ERROR %s %d (cufftResult) row=%s\n", what, (int)r, g_row.c_str());
  fflush(stdout);
  return false;
}

// Inside functions returning bool: report the failure and return false.
#define CK(call) do { if (!cuda_ok((call), #call)) return false; } while (0)
#define CF(call) do { if (!cufft_ok((call), #call)) return false; } while (0)
#define CK_LAUNCH(kernel) do { if (!cuda_ok(cudaGetLastError(), "launch " #kernel)) return false; } while (0)

// ------------------------------------------------------------------------------ owned resources

// A cudaMalloc'd buffer, freed when it goes out of scope (so an early return leaks nothing).
struct DevBuf {
  void *p = nullptr;
  size_t bytes = 0;
  DevBuf() = default;
  DevBuf(const DevBuf &) = delete;
  DevBuf &operator=(const DevBuf &) = delete;
  ~DevBuf() { if (p) cudaFree(p); }
  bool alloc(size_t b, const char *what) {
    bytes = b;
    return cuda_ok(cudaMalloc(&p, b), what);
  }
  template <class T> T *as() const { return static_cast<T *>(p); }
};

// A malloc'd host buffer.
struct HostBuf {
  void *p = nullptr;
  size_t bytes = 0;
  HostBuf() = default;
  HostBuf(const HostBuf &) = delete;
  HostBuf &operator=(const HostBuf &) = delete;
  ~HostBuf() { free(p); }
  bool alloc(size_t b, const char *what) {
    bytes = b;
    p = malloc(b);
    if (!p) printf("ERROR malloc(%s) %zu bytes row=%s\n", what, b, g_row.c_str());
    return p != nullptr;
  }
  template <class T> T *as() const { return static_cast<T *>(p); }
};

struct CufftPlan {
  cufftHandle h = 0;
  bool made = false;
  CufftPlan() = default;
  CufftPlan(const CufftPlan &) = delete;
  CufftPlan &operator=(const CufftPlan &) = delete;
  ~CufftPlan() { if (made) cufftDestroy(h); }
  bool make3d(int N, cufftType type, const char *what) {
    made = cufft_ok(cufftPlan3d(&h, N, N, N, type), what);
    return made;
  }
};

// ------------------------------------------------------------------------------ precision traits

template <class T> struct Prec;
template <> struct Prec<float> {
  using C = cufftComplex;  // float2
  static constexpr cufftType kR2C = CUFFT_R2C, kC2R = CUFFT_C2R;
  static cufftResult r2c(cufftHandle h, float *in, C *out) { return cufftExecR2C(h, in, out); }
  static cufftResult c2r(cufftHandle h, C *in, float *out) { return cufftExecC2R(h, in, out); }
};
template <> struct Prec<double> {
  using C = cufftDoubleComplex;  // double2
  static constexpr cufftType kR2C = CUFFT_D2Z, kC2R = CUFFT_Z2D;
  static cufftResult r2c(cufftHandle h, double *in, C *out) { return cufftExecD2Z(h, in, out); }
  static cufftResult c2r(cufftHandle h, C *in, double *out) { return cufftExecZ2D(h, in, out); }
};

// ------------------------------------------------------------------------------ kernels

static const int kBlock = 256;
static unsigned blocks_for(size_t count) {
  size_t b = (count + kBlock - 1) / kBlock;
  return (unsigned)std::min<size_t>(std::max<size_t>(b, 1), 1u << 20);  // grid-stride beyond that
}
#define GRID_STRIDE(i, count) \
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < (count); i += (size_t)gridDim.x * blockDim.x)

__device__ inline float2 cmul(float2 a, float2 b) {
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
__device__ inline double2 cmul(double2 a, double2 b) {
  return make_double2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

// padded[(x*N + y)*N + z] = rho[(x*n + y)*n + z] for x, y, z < n (the rest was zeroed before).
template <class T>
__global__ void pad_kernel(const T *rho, T *padded, int n, int N) {
  size_t n3 = (size_t)n * n * n;
  GRID_STRIDE(i, n3) {
    size_t z = i % n, y = (i / n) % n, x = i / ((size_t)n * n);
    padded[(x * N + y) * N + z] = rho[i];
  }
}

// y = x * g element by element (the same arithmetic as the FFTX pointwise function).
template <class C>
__global__ void multiply_kernel(const C *x, const C *g, C *y, size_t count) {
  GRID_STRIDE(i, count) y[i] = cmul(x[i], g[i]);
}

// phi[(x*n + y)*n + z] = padded[(x*N + y)*N + z] for x, y, z < n.
template <class T>
__global__ void crop_kernel(const T *padded, T *phi, int n, int N) {
  size_t n3 = (size_t)n * n * n;
  GRID_STRIDE(i, n3) {
    size_t z = i % n, y = (i / n) % n, x = i / ((size_t)n * n);
    phi[i] = padded[(x * N + y) * N + z];
  }
}

// The half spectrum of a screened (Yukawa) Green's function, screening length 4 grid cells:
// Ghat(k) = 1 / (1 + 16 |2 pi k / N|^2) / N^3 with k the wrapped frequency indices. Real and even.
__global__ void ghat_kernel(double2 *g, int N) {
  const double kPi = 3.14159265358979323846;
  size_t Nh = N / 2 + 1, count = (size_t)N * N * Nh;
  double w = 2 * kPi / N, norm = 1.0 / ((double)N * N * N);
  GRID_STRIDE(i, count) {
    long long kz = (long long)(i % Nh), y = (long long)((i / Nh) % N), x = (long long)(i / (Nh * N));
    long long kx = x <= N / 2 ? x : x - N, ky = y <= N / 2 ? y : y - N;
    double kk = w * w * (double)(kx * kx + ky * ky + kz * kz);
    g[i] = make_double2(norm / (1.0 + 16.0 * kk), 0.0);
  }
}

__global__ void to_float_kernel(const double *in, float *out, size_t count) {
  GRID_STRIDE(i, count) out[i] = (float)in[i];
}

// Reference: grid[(x*N + y)*N + z] = rho + 0i in the n^3 corner (the rest was zeroed before).
__global__ void pad_complex_kernel(const double *rho, double2 *grid, int n, int N) {
  size_t n3 = (size_t)n * n * n;
  GRID_STRIDE(i, n3) {
    size_t z = i % n, y = (i / n) % n, x = i / ((size_t)n * n);
    grid[(x * N + y) * N + z] = make_double2(rho[i], 0.0);
  }
}

// Reference: grid *= G over the full N^3 spectrum, G extended from the half spectrum by Hermitian
// symmetry: G(x, y, z) = conj(Ghat((N-x)%N, (N-y)%N, N-z)) for z > N/2.
__global__ void multiply_full_kernel(double2 *grid, const double2 *ghat, int N) {
  size_t Nh = N / 2 + 1, N3 = (size_t)N * N * N;
  GRID_STRIDE(i, N3) {
    size_t z = i % N, y = (i / N) % N, x = i / ((size_t)N * N);
    double2 g;
    if (z <= (size_t)N / 2) {
      g = ghat[(x * N + y) * Nh + z];
    } else {
      size_t xr = (N - x) % N, yr = (N - y) % N;
      g = ghat[(xr * N + yr) * Nh + (N - z)];
      g.y = -g.y;
    }
    grid[i] = cmul(grid[i], g);
  }
}

// Reference: ref = Re(grid) on the n^3 corner.
__global__ void crop_real_kernel(const double2 *grid, double *ref, int n, int N) {
  size_t n3 = (size_t)n * n * n;
  GRID_STRIDE(i, n3) {
    size_t z = i % n, y = (i / n) % n, x = i / ((size_t)n * n);
    ref[i] = grid[(x * N + y) * N + z].x;
  }
}

// ------------------------------------------------------------------------------ options, timing

struct Options {
  std::vector<int> ns = {64, 128, 256};
  std::vector<std::string> pipelines = {"naive-f32", "fftx-f32-device", "naive-f64", "fftx-f64-device",
                                        "fftx-f64-device-nomult", "naive-f64-host", "fftx-f64-host"};
  double min_time_s = 1.0;
  int max_reps = 200;
};
static Options g_opt;

struct Timing {
  double median_ms = NAN;
  int reps = 0;
};

static double median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

static double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Times `once` (which enqueues one run and returns false on failure): 3 warm-ups, then runs until
// min_time or max_reps, each followed by cudaDeviceSynchronize inside the timer.
template <class F>
static bool time_median(F &&once, Timing &t) {
  for (int i = 0; i < 3; i++) {
    if (!once()) return false;
    CK(cudaDeviceSynchronize());
  }
  std::vector<double> ms;
  double total = 0;
  while (total < g_opt.min_time_s * 1e3 && (int)ms.size() < g_opt.max_reps) {
    double t0 = now_ms();
    if (!once()) return false;
    CK(cudaDeviceSynchronize());
    double dt = now_ms() - t0;
    ms.push_back(dt);
    total += dt;
  }
  t.median_ms = median(ms);
  t.reps = (int)ms.size();
  return true;
}

// Enough free device memory for `need` bytes (plus a margin)? If not, a NOTE says the row is skipped.
static bool memory_for(size_t need, const char *pipeline, int n) {
  size_t free_b = 0, total_b = 0;
  if (!cuda_ok(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo")) return false;
  size_t margin = 512ull << 20;
  if (need + margin <= free_b) return true;
  printf("NOTE skip n=%d pipeline=%s: needs about %.2f GiB of device memory, %.2f GiB free\n", n, pipeline,
         (need + margin) / 1073741824.0, free_b / 1073741824.0);
  fflush(stdout);
  return false;
}

// ------------------------------------------------------------------------------ the problem

// Everything shared by the rows of one n: the input, Ghat, and the reference output.
struct Problem {
  int n = 0, N = 0, Nh = 0;
  size_t n3 = 0, N3 = 0, half = 0;  // element counts: input/output, padded grid, half spectrum
  HostBuf rho_h;                    // rho, f64, malloc
  DevBuf ghat_d;                    // Ghat half spectrum, f64 complex, on the device
  HostBuf ghat_h;                   // the same in host memory (made when a host row needs it)
  HostBuf ref_h;                    // the reference phi (f64)
  bool ref_ok = false;
};

// rho: a fixed-seed LCG in [-1, 1), never zero.
static void fill_rho(double *rho, size_t count) {
  uint64_t s = 0x2545F4914F6CDD1DULL;
  for (size_t i = 0; i < count; i++) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    double v = 2.0 * ((double)(s >> 11) * (1.0 / 9007199254740992.0)) - 1.0;
    rho[i] = v != 0.0 ? v : 0.5;
  }
}

// The reference phi in f64 by complex-to-complex transforms of the whole padded grid.
static bool compute_reference(Problem &P) {
  if (!memory_for(2 * P.N3 * sizeof(double2) + 2 * P.n3 * sizeof(double), "reference", P.n)) return false;
  DevBuf grid, rho, ref;
  if (!grid.alloc(P.N3 * sizeof(double2), "reference grid") || !rho.alloc(P.n3 * sizeof(double), "reference rho") ||
      !ref.alloc(P.n3 * sizeof(double), "reference phi"))
    return false;
  CufftPlan z2z;
  if (!z2z.make3d(P.N, CUFFT_Z2Z, "cufftPlan3d Z2Z (reference)")) return false;
  CK(cudaMemcpy(rho.p, P.rho_h.p, P.n3 * sizeof(double), cudaMemcpyHostToDevice));
  CK(cudaMemset(grid.p, 0, grid.bytes));
  pad_complex_kernel<<<blocks_for(P.n3), kBlock>>>(rho.as<double>(), grid.as<double2>(), P.n, P.N);
  CK_LAUNCH(pad_complex_kernel);
  CF(cufftExecZ2Z(z2z.h, grid.as<double2>(), grid.as<double2>(), CUFFT_FORWARD));
  multiply_full_kernel<<<blocks_for(P.N3), kBlock>>>(grid.as<double2>(), P.ghat_d.as<double2>(), P.N);
  CK_LAUNCH(multiply_full_kernel);
  CF(cufftExecZ2Z(z2z.h, grid.as<double2>(), grid.as<double2>(), CUFFT_INVERSE));
  crop_real_kernel<<<blocks_for(P.n3), kBlock>>>(grid.as<double2>(), ref.as<double>(), P.n, P.N);
  CK_LAUNCH(crop_real_kernel);
  CK(cudaMemcpy(P.ref_h.p, ref.p, P.n3 * sizeof(double), cudaMemcpyDeviceToHost));
  P.ref_ok = true;
  return true;
}

// (Re)writes Ghat on the device, and its host copy if there is one. Planning with FFTX_MEASURE may
// run the plan on its arrays (as FFTW_MEASURE does), so the fftx rows call this after planning.
static bool write_ghat(Problem &P) {
  ghat_kernel<<<blocks_for(P.half), kBlock>>>(P.ghat_d.as<double2>(), P.N);
  CK_LAUNCH(ghat_kernel);
  if (P.ghat_h.p) CK(cudaMemcpy(P.ghat_h.p, P.ghat_d.p, P.half * sizeof(double2), cudaMemcpyDeviceToHost));
  CK(cudaDeviceSynchronize());
  return true;
}

static bool setup_problem(Problem &P, int n) {
  P.n = n;
  P.N = 2 * n;
  P.Nh = P.N / 2 + 1;
  P.n3 = (size_t)n * n * n;
  P.N3 = (size_t)P.N * P.N * P.N;
  P.half = (size_t)P.N * P.N * P.Nh;
  if (!P.rho_h.alloc(P.n3 * sizeof(double), "rho") || !P.ref_h.alloc(P.n3 * sizeof(double), "reference"))
    return false;
  fill_rho(P.rho_h.as<double>(), P.n3);
  if (!memory_for(P.half * sizeof(double2), "Ghat", n)) return false;
  if (!P.ghat_d.alloc(P.half * sizeof(double2), "Ghat") || !write_ghat(P)) return false;
  if (!compute_reference(P)) printf("NOTE n=%d: no reference, errors will be nan\n", n);
  return true;
}

// Ghat in host memory, for the host-resident rows.
static bool host_ghat(Problem &P) {
  if (P.ghat_h.p) return true;
  if (!P.ghat_h.alloc(P.half * sizeof(double2), "host Ghat")) return false;
  CK(cudaMemcpy(P.ghat_h.p, P.ghat_d.p, P.half * sizeof(double2), cudaMemcpyDeviceToHost));
  return true;
}

// sqrt(sum (phi - ref)^2 / sum ref^2), NAN without a reference.
template <class T>
static double rel_l2(const T *phi, const double *ref, size_t count) {
  double num = 0, den = 0;
  for (size_t i = 0; i < count; i++) {
    double d = (double)phi[i] - ref[i];
    num += d * d;
    den += ref[i] * ref[i];
  }
  return den > 0 ? std::sqrt(num / den) : NAN;
}

static double err_of(const Problem &P, const double *phi) {
  return P.ref_ok ? rel_l2(phi, P.ref_h.as<double>(), P.n3) : NAN;
}

static void print_row(const Problem &P, const char *pipeline, const char *resident, const char *fusion,
                      const Timing &t, const std::string &err, const std::string &extra) {
  printf("ROW n=%d pipeline=%s resident=%s fusion=%s ms=%.4f err=%s reps=%d%s\n", P.n, pipeline, resident, fusion,
         t.median_ms, err.c_str(), t.reps, extra.c_str());
  fflush(stdout);
}

static std::string fmt(const char *f, double v) {
  char b[64];
  snprintf(b, sizeof b, f, v);
  return b;
}

// ------------------------------------------------------------------------------ naive cuFFT pipeline

// The naive pipeline's device state: buffers and cuFFT plans, made once outside the timing.
template <class T>
struct Naive {
  using C = typename Prec<T>::C;
  const Problem &P;
  DevBuf rho, padded, spec, prod, phi, ghat_own;
  const C *ghat = nullptr;
  CufftPlan fwd, inv;
  explicit Naive(const Problem &p) : P(p) {}

  static size_t bytes_needed(const Problem &P, bool own_ghat) {
    size_t c = P.half * sizeof(C);
    // padded, spec, prod, rho, phi, Ghat copy, and about one spectrum of work area per cuFFT plan
    return P.N3 * sizeof(T) + 2 * c + 2 * P.n3 * sizeof(T) + (own_ghat ? c : 0) + 2 * c;
  }

  // own_ghat: a buffer of its own for Ghat (f32: converted once here; host rows: copied per run),
  // else the problem's f64 Ghat on the device is used as it is.
  bool setup(bool own_ghat) {
    if (!rho.alloc(P.n3 * sizeof(T), "naive rho") || !padded.alloc(P.N3 * sizeof(T), "naive padded") ||
        !spec.alloc(P.half * sizeof(C), "naive spec") || !prod.alloc(P.half * sizeof(C), "naive prod") ||
        !phi.alloc(P.n3 * sizeof(T), "naive phi"))
      return false;
    if (!fwd.make3d(P.N, Prec<T>::kR2C, "cufftPlan3d R2C") || !inv.make3d(P.N, Prec<T>::kC2R, "cufftPlan3d C2R"))
      return false;
    if (own_ghat) {
      if (!ghat_own.alloc(P.half * sizeof(C), "naive Ghat")) return false;
      ghat = ghat_own.as<C>();
    } else {
      ghat = P.ghat_d.as<C>();  // only for T = double: the same layout
    }
    return true;
  }

  // f32: rho and Ghat converted on the device from the f64 originals.
  bool load_converted() {
    DevBuf rho64;
    if (!rho64.alloc(P.n3 * sizeof(double), "rho f64 staging")) return false;
    CK(cudaMemcpy(rho64.p, P.rho_h.p, P.n3 * sizeof(double), cudaMemcpyHostToDevice));
    to_float_kernel<<<blocks_for(P.n3), kBlock>>>(rho64.as<double>(), rho.as<float>(), P.n3);
    CK_LAUNCH(to_float_kernel);
    to_float_kernel<<<blocks_for(2 * P.half), kBlock>>>(P.ghat_d.as<double>(), ghat_own.as<float>(), 2 * P.half);
    CK_LAUNCH(to_float_kernel);
    CK(cudaDeviceSynchronize());
    return true;
  }

  // One run on the device arrays; with ev (6 events), records them between the stages:
  // ev[0] memset+pad ev[1] R2C ev[2] multiply ev[3] C2R ev[4] crop ev[5].
  bool enqueue(cudaEvent_t *ev) {
    if (ev) CK(cudaEventRecord(ev[0]));
    CK(cudaMemsetAsync(padded.p, 0, padded.bytes));
    pad_kernel<T><<<blocks_for(P.n3), kBlock>>>(rho.as<T>(), padded.as<T>(), P.n, P.N);
    CK_LAUNCH(pad_kernel);
    if (ev) CK(cudaEventRecord(ev[1]));
    CF(Prec<T>::r2c(fwd.h, padded.as<T>(), spec.as<C>()));
    if (ev) CK(cudaEventRecord(ev[2]));
    multiply_kernel<C><<<blocks_for(P.half), kBlock>>>(spec.as<C>(), ghat, prod.as<C>(), P.half);
    CK_LAUNCH(multiply_kernel);
    if (ev) CK(cudaEventRecord(ev[3]));
    CF(Prec<T>::c2r(inv.h, prod.as<C>(), padded.as<T>()));
    if (ev) CK(cudaEventRecord(ev[4]));
    crop_kernel<T><<<blocks_for(P.n3), kBlock>>>(padded.as<T>(), phi.as<T>(), P.n, P.N);
    CK_LAUNCH(crop_kernel);
    if (ev) CK(cudaEventRecord(ev[5]));
    return true;
  }

  // Median time of each stage over `reps` runs, from CUDA events: pad, r2c, mult, c2r, crop.
  bool stage_times(int reps, double out_ms[5]) {
    cudaEvent_t ev[6];
    for (int i = 0; i < 6; i++) CK(cudaEventCreate(&ev[i]));
    bool ok = true;
    std::vector<double> ms[5];
    for (int r = 0; r < reps && ok; r++) {
      ok = enqueue(ev) && cuda_ok(cudaEventSynchronize(ev[5]), "cudaEventSynchronize");
      for (int s = 0; s < 5 && ok; s++) {
        float f = 0;
        ok = cuda_ok(cudaEventElapsedTime(&f, ev[s], ev[s + 1]), "cudaEventElapsedTime");
        ms[s].push_back(f);
      }
    }
    for (int i = 0; i < 6; i++) cudaEventDestroy(ev[i]);
    for (int s = 0; s < 5; s++) out_ms[s] = median(ms[s]);
    return ok;
  }
};

// naive-f32 / naive-f64: device-resident.
template <class T>
static bool run_naive_device(Problem &P, const char *name) {
  constexpr bool f32 = sizeof(T) == sizeof(float);
  if (!memory_for(Naive<T>::bytes_needed(P, f32), name, P.n)) return true;
  Naive<T> nv(P);
  if (!nv.setup(f32)) return false;
  if constexpr (f32) {
    if (!nv.load_converted()) return false;
  } else {
    CK(cudaMemcpy(nv.rho.p, P.rho_h.p, P.n3 * sizeof(double), cudaMemcpyHostToDevice));
  }
  Timing t;
  if (!time_median([&] { return nv.enqueue(nullptr); }, t)) return false;
  double st[5];
  if (!nv.stage_times(std::min(t.reps, g_opt.max_reps), st)) return false;
  std::vector<T> phi(P.n3);
  CK(cudaMemcpy(phi.data(), nv.phi.p, P.n3 * sizeof(T), cudaMemcpyDeviceToHost));
  double err = P.ref_ok ? rel_l2(phi.data(), P.ref_h.as<double>(), P.n3) : NAN;
  std::string extra = fmt(" mult_ms=%.4f", st[2]) + fmt(" pad_ms=%.4f", st[0]) + fmt(" r2c_ms=%.4f", st[1]) +
                      fmt(" c2r_ms=%.4f", st[3]) + fmt(" crop_ms=%.4f", st[4]);
  print_row(P, name, "device", "-", t, fmt("%.3e", err), extra);
  return true;
}

// naive-f64-host: rho, Ghat, phi in malloc'd host memory; every run copies rho and Ghat in and phi out.
static bool run_naive_host(Problem &P, const char *name) {
  if (!memory_for(Naive<double>::bytes_needed(P, true), name, P.n)) return true;
  if (!host_ghat(P)) return false;
  HostBuf phi;
  if (!phi.alloc(P.n3 * sizeof(double), "host phi")) return false;
  Naive<double> nv(P);
  if (!nv.setup(true)) return false;
  auto once = [&] {
    CK(cudaMemcpy(nv.rho.p, P.rho_h.p, P.n3 * sizeof(double), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(nv.ghat_own.p, P.ghat_h.p, P.half * sizeof(double2), cudaMemcpyHostToDevice));
    if (!nv.enqueue(nullptr)) return false;
    CK(cudaMemcpy(phi.p, nv.phi.p, P.n3 * sizeof(double), cudaMemcpyDeviceToHost));
    return true;
  };
  Timing t;
  if (!time_median(once, t)) return false;
  print_row(P, name, "host", "-", t, fmt("%.3e", err_of(P, phi.as<double>())), "");
  return true;
}

// ------------------------------------------------------------------------------ FFTX pipeline

// The FFTX calls of one precision: fftx_* over double, fftxf_* over float (the iodims, flags and
// callback type are shared by both interfaces).
template <class T> struct Fx;
template <> struct Fx<double> {
  using plan = fftx_plan;
  using cplx = fftx_complex;
  using temp_real = fftx_temp_real;
  using temp_complex = fftx_temp_complex;
  static constexpr auto create_zero_temp_real = fftx_create_zero_temp_real;
  static constexpr auto create_temp_real = fftx_create_temp_real;
  static constexpr auto create_temp_complex = fftx_create_temp_complex;
  static constexpr auto destroy_temp_real = fftx_destroy_temp_real;
  static constexpr auto destroy_temp_complex = fftx_destroy_temp_complex;
  static constexpr auto copy_real = fftx_plan_guru_copy_real;
  static constexpr auto r2c = fftx_plan_guru_dft_r2c;
  static constexpr auto c2r = fftx_plan_guru_dft_c2r;
  static constexpr auto pointwise = fftx_plan_guru_pointwise_c2c;
  static constexpr auto compose = fftx_plan_compose;
  static constexpr auto execute = fftx_execute;
  static constexpr auto destroy_plan = fftx_destroy_plan;
  static constexpr auto last_error = fftx_last_error;
  // The pointwise function: out = in * data (recorded by the planner, as in ctest/fftx/hockney.c).
  static void multiply_by_data(void *in, void *out, void *data) {
    FFTX_COMPLEX_TEMP(t);
    FFTX_COMPLEX_MOV(t, static_cast<cplx *>(in));
    FFTX_COMPLEX_MULT(t, static_cast<cplx *>(data));
    FFTX_COMPLEX_MOV(static_cast<cplx *>(out), t);
  }
  // The identity (out = in): the nomult plan keeps the pointwise subplan, so it is fused the same way.
  static void identity(void *in, void *out, void *) {
    FFTX_COMPLEX_MOV(static_cast<cplx *>(out), static_cast<cplx *>(in));
  }
};
template <> struct Fx<float> {
  using plan = fftxf_plan;
  using cplx = fftxf_complex;
  using temp_real = fftxf_temp_real;
  using temp_complex = fftxf_temp_complex;
  static constexpr auto create_zero_temp_real = fftxf_create_zero_temp_real;
  static constexpr auto create_temp_real = fftxf_create_temp_real;
  static constexpr auto create_temp_complex = fftxf_create_temp_complex;
  static constexpr auto destroy_temp_real = fftxf_destroy_temp_real;
  static constexpr auto destroy_temp_complex = fftxf_destroy_temp_complex;
  static constexpr auto copy_real = fftxf_plan_guru_copy_real;
  static constexpr auto r2c = fftxf_plan_guru_dft_r2c;
  static constexpr auto c2r = fftxf_plan_guru_dft_c2r;
  static constexpr auto pointwise = fftxf_plan_guru_pointwise_c2c;
  static constexpr auto compose = fftxf_plan_compose;
  static constexpr auto execute = fftxf_execute;
  static constexpr auto destroy_plan = fftxf_destroy_plan;
  static constexpr auto last_error = fftxf_last_error;
  static void multiply_by_data(void *in, void *out, void *data) {
    FFTXF_COMPLEX_TEMP(t);
    FFTXF_COMPLEX_MOV(t, static_cast<cplx *>(in));
    FFTXF_COMPLEX_MULT(t, static_cast<cplx *>(data));
    FFTXF_COMPLEX_MOV(static_cast<cplx *>(out), t);
  }
  static void identity(void *in, void *out, void *) {
    FFTXF_COMPLEX_MOV(static_cast<cplx *>(out), static_cast<cplx *>(in));
  }
};

template <class T> struct FftxPlan {
  typename Fx<T>::plan p = nullptr;
  FftxPlan() = default;
  FftxPlan(const FftxPlan &) = delete;
  FftxPlan &operator=(const FftxPlan &) = delete;
  ~FftxPlan() { if (p) Fx<T>::destroy_plan(p); }
};

template <class T> static const char *fftx_error() {
  const char *e = Fx<T>::last_error();
  return e && *e ? e : "(no message)";
}

// The Hockney plan: copy rho into a zero temporary (n^3 box), r2c, [multiply by Ghat over the whole
// half spectrum], c2r, copy the n^3 box out to phi. Row-major: z is the last (halved, contiguous)
// dimension. NULL (with an ERROR line) on failure.
template <class T>
static typename Fx<T>::plan fftx_hockney_plan(T *rho, T *phi, typename Fx<T>::cplx *ghat, int n, bool with_mult) {
  using F = Fx<T>;
  const int N = 2 * n, Nh = N / 2 + 1, rk = 3, flags = FFTX_MEASURE;
  const unsigned sub = FFTX_MEASURE | FFTX_SUBPLAN;
  // temporaries: the real N^3 grid and the N x N x Nh half spectrum (dense, row-major)
  fftx_iodim real_d[] = {{N, N * N, N * N}, {N, N, N}, {N, 1, 1}};
  fftx_iodim cplx_d[] = {{N, N * Nh, N * Nh}, {N, Nh, Nh}, {Nh, 1, 1}};
  // transforms: logical sizes N^3; strides real -> complex (r2c) and complex -> real (c2r)
  fftx_iodim r2c_d[] = {{N, N * N, N * Nh}, {N, N, Nh}, {N, 1, 1}};
  fftx_iodim c2r_d[] = {{N, N * Nh, N * N}, {N, Nh, N}, {N, 1, 1}};
  fftx_iodim none = {1, 1, 1};
  // copies (n, iofs, oofs, dofs, is, os, ds): rho (n^3) -> grid corner, grid corner -> phi (n^3)
  fftx_iodimx in_box[] = {{n, 0, 0, 0, n * n, N * N, 1}, {n, 0, 0, 0, n, N, 1}, {n, 0, 0, 0, 1, 1, 1}};
  fftx_iodimx out_box[] = {{n, 0, 0, 0, N * N, n * n, 1}, {n, 0, 0, 0, N, n, 1}, {n, 0, 0, 0, 1, 1, 1}};
  // pointwise over the whole half spectrum, Ghat with the same layout
  fftx_iodimx spec_box[] = {{N, 0, 0, 0, N * Nh, N * Nh, N * Nh}, {N, 0, 0, 0, Nh, Nh, Nh}, {Nh, 0, 0, 0, 1, 1, 1}};
  fftx_iodimx nonex = {1, 0, 0, 0, 1, 1, 1};

  typename F::temp_real tmp1 = F::create_zero_temp_real(rk, real_d), tmp4 = F::create_temp_real(rk, real_d);
  typename F::temp_complex tmp2 = F::create_temp_complex(rk, cplx_d), tmp3 = F::create_temp_complex(rk, cplx_d);
  typename F::plan plans[5] = {nullptr, nullptr, nullptr, nullptr, nullptr};
  int count = 0;
  typename F::plan p = nullptr;
  if (!tmp1 || !tmp2 || !tmp3 || !tmp4) {
    printf("ERROR fftx_create_temp -1 (%s) row=%s\n", fftx_error<T>(), g_row.c_str());
  } else {
    plans[count++] = F::copy_real(rk, in_box, rho, tmp1, sub);
    plans[count++] = F::r2c(rk, r2c_d, 0, &none, tmp1, tmp2, sub);
    plans[count++] = F::pointwise(rk, spec_box, 0, &nonex, tmp2, tmp3, ghat,
                                  with_mult ? F::multiply_by_data : F::identity, sub);
    plans[count++] = F::c2r(rk, c2r_d, 0, &none, tmp3, tmp4, sub);
    plans[count++] = F::copy_real(rk, out_box, tmp4, phi, sub);
    bool all = true;
    for (int i = 0; i < count; i++)
      if (!plans[i]) {
        printf("ERROR fftx subplan %d -1 (%s) row=%s\n", i, fftx_error<T>(), g_row.c_str());
        all = false;
        break;
      }
    if (all) {
      p = F::compose(count, plans, flags);
      if (!p) printf("ERROR fftx_plan_compose -1 (%s) row=%s\n", fftx_error<T>(), g_row.c_str());
    }
  }
  for (int i = 0; i < count; i++)
    if (plans[i]) F::destroy_plan(plans[i]);
  if (tmp1) F::destroy_temp_real(tmp1);
  if (tmp4) F::destroy_temp_real(tmp4);
  if (tmp2) F::destroy_temp_complex(tmp2);
  if (tmp3) F::destroy_temp_complex(tmp3);
  fflush(stdout);
  return p;
}

// fftx_execute reports failures only through fftx_last_error: a new message after it is a failure.
template <class T> static bool fftx_run(typename Fx<T>::plan p) {
  const char *e = Fx<T>::last_error();
  std::string before = e ? e : "";
  Fx<T>::execute(p);
  e = Fx<T>::last_error();
  if (e && *e && before != e) {
    printf("ERROR fftx_execute -1 (%s) row=%s\n", e, g_row.c_str());
    fflush(stdout);
    return false;
  }
  return true;
}

static const char *fusion_label() {
  const char *f = getenv("FFTX_GPU_FUSION");
  return f && *f ? f : "unset";
}

struct FftxResult {
  bool ok = false;
  Timing t;
};

// rho and Ghat in f32 on the device, converted there from the f64 originals (through rho64).
static bool load_f32(const Problem &P, DevBuf &rho64, float *rho, float *ghat) {
  CK(cudaMemcpy(rho64.p, P.rho_h.p, P.n3 * sizeof(double), cudaMemcpyHostToDevice));
  to_float_kernel<<<blocks_for(P.n3), kBlock>>>(rho64.as<double>(), rho, P.n3);
  CK_LAUNCH(to_float_kernel);
  to_float_kernel<<<blocks_for(2 * P.half), kBlock>>>(P.ghat_d.as<double>(), ghat, 2 * P.half);
  CK_LAUNCH(to_float_kernel);
  CK(cudaDeviceSynchronize());
  return true;
}

// fftx-f64-device[-nomult], fftx-f32-device (host = false) and fftx-f64-host (host = true). In f32
// (device only) rho and Ghat are converted from the f64 originals on the device, as naive-f32 does.
template <class T>
static FftxResult run_fftx(Problem &P, const char *name, bool host, bool with_mult) {
  using C = typename Fx<T>::cplx;
  constexpr bool f32 = sizeof(T) == sizeof(float);
  FftxResult r;
  // device: rho, phi (and Ghat, shared) ours; temporaries ~2 real grids + 2 spectra + cuFFT work areas
  size_t need = 2 * P.N3 * sizeof(T) + 4 * P.half * sizeof(C) + 2 * P.n3 * sizeof(T);
  if (host) need += P.half * sizeof(C);  // fftx's own copy of Ghat
  if (f32) need += P.half * sizeof(C) + P.n3 * sizeof(double);  // converted Ghat, f64 rho staging
  if (!memory_for(need, name, P.n)) return r;
  if (host && !host_ghat(P)) return r;
  // rho and phi of this row (host: malloc, device: cudaMalloc); Ghat is the problem's (f32: converted)
  DevBuf rho_d, phi_d, ghat32, rho64;
  HostBuf rho_h, phi_h;
  if (!rho_h.alloc(P.n3 * sizeof(T), "fftx rho (host)") || !phi_h.alloc(P.n3 * sizeof(T), "fftx phi (host)"))
    return r;
  T *rho = rho_h.as<T>(), *phi = phi_h.as<T>();
  C *ghat = reinterpret_cast<C *>(P.ghat_h.p);
  if (!host) {
    if (!rho_d.alloc(P.n3 * sizeof(T), "fftx rho") || !phi_d.alloc(P.n3 * sizeof(T), "fftx phi")) return r;
    rho = rho_d.as<T>();
    phi = phi_d.as<T>();
    ghat = reinterpret_cast<C *>(P.ghat_d.p);
    if (f32) {
      if (!ghat32.alloc(P.half * sizeof(C), "fftx Ghat f32") || !rho64.alloc(P.n3 * sizeof(double), "rho f64"))
        return r;
      ghat = ghat32.as<C>();
    }
  }
  double t0 = now_ms();
  FftxPlan<T> plan;
  plan.p = fftx_hockney_plan<T>(rho, phi, ghat, P.n, with_mult);
  double plan_ms = now_ms() - t0;
  if (!plan.p) return r;
  // the inputs after planning (which may have run the plan on them)
  if (!write_ghat(P)) return r;
  if constexpr (f32) {
    if (!load_f32(P, rho64, rho_d.as<float>(), ghat32.as<float>())) return r;
  } else {
    memcpy(rho_h.p, P.rho_h.p, P.n3 * sizeof(double));
    if (!host && !cuda_ok(cudaMemcpy(rho_d.p, rho_h.p, P.n3 * sizeof(double), cudaMemcpyHostToDevice), "cudaMemcpy rho"))
      return r;
  }
  if (!time_median([&] { return fftx_run<T>(plan.p); }, r.t)) return r;
  if (!host && !cuda_ok(cudaMemcpy(phi_h.p, phi_d.p, P.n3 * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy phi"))
    return r;
  std::string err, extra = fmt(" plan_ms=%.1f", plan_ms);
  if (with_mult) {
    err = fmt("%.3e", P.ref_ok ? rel_l2(phi_h.as<T>(), P.ref_h.as<double>(), P.n3) : NAN);
  } else {
    // without the multiply, phi = N^3 rho: check that instead
    std::vector<double> want(P.n3);
    for (size_t i = 0; i < P.n3; i++) want[i] = (double)P.N3 * P.rho_h.as<double>()[i];
    err = "-";
    extra += fmt(" identity_err=%.3e", rel_l2(phi_h.as<T>(), want.data(), P.n3));
  }
  print_row(P, name, host ? "host" : "device", fusion_label(), r.t, err, extra);
  r.ok = true;
  return r;
}

// ------------------------------------------------------------------------------ main

static std::vector<std::string> split(const char *s) {
  std::vector<std::string> out;
  std::string cur;
  for (const char *c = s;; c++) {
    if (*c == ',' || *c == ' ' || *c == 0) {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
      if (!*c) break;
    } else {
      cur += *c;
    }
  }
  return out;
}

static bool wanted(const char *pipeline) {
  return std::find(g_opt.pipelines.begin(), g_opt.pipelines.end(), pipeline) != g_opt.pipelines.end();
}

static int usage(const char *argv0) {
  printf("usage: %s [--n 64,128,256] [--pipelines naive-f32,fftx-f32-device,naive-f64,fftx-f64-device,fftx-f64-device-nomult,"
         "naive-f64-host,fftx-f64-host] [--min-time SEC] [--max-reps N]\n", argv0);
  return 2;
}

static bool parse_args(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (i + 1 >= argc) return false;
    const char *v = argv[++i];
    if (a == "--n") {
      g_opt.ns.clear();
      for (auto &s : split(v)) g_opt.ns.push_back(atoi(s.c_str()));
    } else if (a == "--pipelines") {
      g_opt.pipelines = split(v);
    } else if (a == "--min-time") {
      g_opt.min_time_s = atof(v);
    } else if (a == "--max-reps") {
      g_opt.max_reps = atoi(v);
    } else {
      return false;
    }
  }
  for (int n : g_opt.ns)
    if (n < 2 || n % 2) {
      printf("ERROR bad n %d (must be even and >= 2)\n", n);
      return false;
    }
  return g_opt.max_reps >= 1;
}

// All rows of one n. A failed row prints its ERROR line(s) and the next row runs.
static void run_n(int n) {
  Problem P;
  g_row = "n=" + std::to_string(n) + "/setup";
  if (!setup_problem(P, n)) return;
  FftxResult dev, nomult;
  for (const std::string &name : g_opt.pipelines) {
    g_row = "n=" + std::to_string(n) + "/" + name;
    const char *p = name.c_str();
    if (name == "naive-f32") run_naive_device<float>(P, p);
    else if (name == "naive-f64") run_naive_device<double>(P, p);
    else if (name == "naive-f64-host") run_naive_host(P, p);
    else if (name == "fftx-f64-device") dev = run_fftx<double>(P, p, false, true);
    else if (name == "fftx-f64-device-nomult") nomult = run_fftx<double>(P, p, false, false);
    else if (name == "fftx-f64-host") run_fftx<double>(P, p, true, true);
    else if (name == "fftx-f32-device") run_fftx<float>(P, p, false, true);
    else printf("ERROR unknown pipeline %s\n", p);
    fflush(stdout);
  }
  if (dev.ok && nomult.ok)
    printf("NOTE fused-mult n=%d fusion=%s fftx_ms=%.4f nomult_ms=%.4f fused_mult_ms=%.4f\n", n, fusion_label(),
           dev.t.median_ms, nomult.t.median_ms, dev.t.median_ms - nomult.t.median_ms);
}

int main(int argc, char **argv) {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  if (!parse_args(argc, argv)) return usage(argv[0]);
  cudaDeviceProp prop;
  if (!cuda_ok(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties")) return 1;
  size_t free_b = 0, total_b = 0;
  cuda_ok(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
  printf("NOTE gpu=\"%s\" memory_free_gib=%.1f memory_total_gib=%.1f min_time_s=%g max_reps=%d fusion=%s\n", prop.name,
         free_b / 1073741824.0, total_b / 1073741824.0, g_opt.min_time_s, g_opt.max_reps, fusion_label());
  fftx_init(FFTX_HIGH_PERFORMANCE);
  fftxf_init(FFTX_HIGH_PERFORMANCE);
  for (int n : g_opt.ns) run_n(n);
  fftxf_shutdown();
  fftx_shutdown();
  return 0;
}
