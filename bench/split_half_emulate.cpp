// CPU emulation of bench/split_half.cu's arithmetic (issue 17, split-half fp32 FFT on tensor
// cores): the same radix-16 Stockham stages, the same split of each column of 16 twiddled
// inputs (scale s = the power of two >= max |x|; x/s = hi + lo/2048, hi and lo binary16), the
// same split DFT matrix (F = Fhi + Flo/2048), the same three products Fhi.hi, Fhi.lo, Flo.hi
// summed in f32 (binary16 products are exact in f32; the emulation adds them in order with
// f32 rounding, where the tensor cores' f32 accumulation may round differently), f32 twiddles.
// It checks the scheme and the kernel's indexing before device time is spent, and gives the
// accuracy a CPU twin of the kernel would have. Error: relative L2 against a double FFT.
//   g++ -O2 -std=c++17 bench/split_half_emulate.cpp -o /tmp/she && /tmp/she
#include <cmath>
#include <complex>
#include <cstdio>
#include <random>
#include <vector>

typedef std::complex<double> cd;

static float f16(float x) { return (float)(_Float16)x; }  // round to nearest even

// Reference: iterative radix-2 FFT in double.
static void fft_ref(std::vector<cd>& a, int sign) {
  size_t n = a.size();
  for (size_t i = 1, j = 0; i < n; i++) {
    size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
  for (size_t len = 2; len <= n; len <<= 1) {
    for (size_t i = 0; i < n; i += len)
      for (size_t k = 0; k < len / 2; k++) {
        cd w = std::polar(1.0, sign * 2 * M_PI * (double)k / (double)len);
        cd u = a[i + k], v = a[i + k + len / 2] * w;
        a[i + k] = u + v;
        a[i + k + len / 2] = u - v;
      }
  }
}

int main() {
  const int sign = -1;
  // The split DFT matrix, as fragment_f builds it (sincospif in f32, then binary16 parts).
  float Fh[2][16][16], Fl[2][16][16];
  for (int q = 0; q < 16; q++)
    for (int r = 0; r < 16; r++) {
      double a = sign * 2 * M_PI * ((q * r) % 16) / 16.0;
      float v[2] = {(float)std::cos(a), (float)std::sin(a)};
      for (int c = 0; c < 2; c++) {
        Fh[c][q][r] = f16(v[c]);
        Fl[c][q][r] = f16((v[c] - Fh[c][q][r]) * 2048.f);
      }
    }
  printf("| N | split-half emulation err | plain f32 radix-16 err (no split) | binary16 only (hi.Fhi) err |\n|---|---|---|---|\n");
  for (int K = 2; K <= 5; K++) {
    const long long n = 1LL << (4 * K), m = n / 16;
    std::mt19937_64 rng(11 + K);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    std::vector<std::complex<float>> x0(n);
    for (auto& v : x0) v = {u(rng), u(rng)};
    std::vector<cd> ref(x0.begin(), x0.end());
    fft_ref(ref, sign);
    double errs[3];
    for (int mode = 0; mode < 3; mode++) {  // 0: split, 1: plain f32, 2: hi only
      std::vector<std::complex<float>> x = x0, y(n);
      long long p = 1;
      for (int s = 0; s < K; s++) {
        for (long long i = 0; i < m; i++) {
          const long long k = i % p;
          std::complex<float> col[16];
          float mx = 0.f;
          for (int r = 0; r < 16; r++) {
            std::complex<float> v = x[i + r * m];
            if (p > 1) {
              double a = sign * 2 * M_PI * (double)((r * k) % (16 * p)) / (double)(16 * p);
              std::complex<float> w((float)std::cos(a), (float)std::sin(a));
              v = std::complex<float>(v.real() * w.real() - v.imag() * w.imag(),
                                      v.real() * w.imag() + v.imag() * w.real());
            }
            col[r] = v;
            mx = std::max(mx, std::max(std::fabs(v.real()), std::fabs(v.imag())));
          }
          const float scale = mx > 0.f ? std::exp2(std::ceil(std::log2(mx))) : 1.f;
          float hr[16], hi[16], lr[16], li[16];
          for (int r = 0; r < 16; r++) {
            float a = col[r].real() / scale, c = col[r].imag() / scale;
            hr[r] = f16(a);
            hi[r] = f16(c);
            lr[r] = f16((a - hr[r]) * 2048.f);
            li[r] = f16((c - hi[r]) * 2048.f);
          }
          for (int q = 0; q < 16; q++) {
            float r1 = 0, i1 = 0, r2 = 0, i2 = 0;
            if (mode == 1) {
              for (int r = 0; r < 16; r++) {
                double a = sign * 2 * M_PI * ((q * r) % 16) / 16.0;
                float fr = (float)std::cos(a), fi = (float)std::sin(a);
                r1 += fr * col[r].real() - fi * col[r].imag();
                i1 += fr * col[r].imag() + fi * col[r].real();
              }
              y[(i - k) * 16 + k + q * p] = {r1, i1};
              continue;
            }
            for (int r = 0; r < 16; r++) {
              r1 += Fh[0][q][r] * hr[r];
              r1 += -Fh[1][q][r] * hi[r];
              i1 += Fh[0][q][r] * hi[r];
              i1 += Fh[1][q][r] * hr[r];
            }
            if (mode == 0)
              for (int r = 0; r < 16; r++) {
                r2 += Fh[0][q][r] * lr[r];
                r2 += -Fh[1][q][r] * li[r];
                r2 += Fl[0][q][r] * hr[r];
                r2 += -Fl[1][q][r] * hi[r];
                i2 += Fh[0][q][r] * li[r];
                i2 += Fh[1][q][r] * lr[r];
                i2 += Fl[0][q][r] * hi[r];
                i2 += Fl[1][q][r] * hr[r];
              }
            y[(i - k) * 16 + k + q * p] = {scale * (r1 + r2 * (1.f / 2048.f)), scale * (i1 + i2 * (1.f / 2048.f))};
          }
        }
        std::swap(x, y);
        p *= 16;
      }
      double e = 0, w = 0;
      for (long long j = 0; j < n; j++) {
        e += std::norm(cd(x[j]) - ref[j]);
        w += std::norm(ref[j]);
      }
      errs[mode] = std::sqrt(e / w);
    }
    printf("| 2^%d | %.2e | %.2e | %.2e |\n", 4 * K, errs[0], errs[1], errs[2]);
  }
  return 0;
}
