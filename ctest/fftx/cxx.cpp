// A C++ user of fftx.h: a 2-D complex circular convolution with std::complex arrays (the same
// layout as fftx_complex), a scaling pointwise function, composed and checked against a direct
// sum; plus the error interface from C++.
#include <fftx.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

typedef std::complex<double> cd;

static void scale_by_symbol(fftx_complex *in, fftx_complex *out, fftx_complex *data) {
  FFTX_COMPLEX_TEMP(t);
  FFTX_COMPLEX_MOV(t, in);
  FFTX_COMPLEX_MULT(t, data);
  FFTX_COMPLEX_SCALE(t, 0.5);
  FFTX_COMPLEX_MOV(out, t);
}

static fftx_complex *fx(std::vector<cd> &v) { return reinterpret_cast<fftx_complex *>(v.data()); }

int main() {
  const int n0 = 6, n1 = 10, n = n0 * n1;
  std::vector<cd> x(n), g(n), y(n), want(n), h(n);
  unsigned s = 12345;
  auto rnd = [&s]() { s = s * 1103515245u + 12345u; return 0.1 + (s >> 8) % 1000 / 1111.0; };
  for (auto &v : x) v = cd(rnd(), -rnd());
  for (auto &v : h) v = cd(rnd(), rnd());
  // g = DFT(h): then y = 0.5 * IDFT(DFT(x) g) = 0.5 * n * (x circ-conv h).
  const double pi = std::acos(-1.0);
  for (int k0 = 0; k0 < n0; k0++)
    for (int k1 = 0; k1 < n1; k1++) {
      cd acc = 0;
      for (int j0 = 0; j0 < n0; j0++)
        for (int j1 = 0; j1 < n1; j1++)
          acc += h[j0 * n1 + j1] * std::polar(1.0, -2 * pi * ((k0 * j0 % n0) / double(n0) + (k1 * j1 % n1) / double(n1)));
      g[k0 * n1 + k1] = acc;
    }
  for (int a0 = 0; a0 < n0; a0++)
    for (int a1 = 0; a1 < n1; a1++) {
      cd acc = 0;
      for (int j0 = 0; j0 < n0; j0++)
        for (int j1 = 0; j1 < n1; j1++) acc += x[j0 * n1 + j1] * h[((a0 - j0 + n0) % n0) * n1 + (a1 - j1 + n1) % n1];
      want[a0 * n1 + a1] = 0.5 * double(n) * acc;
    }

  fftx_init(FFTX_HIGH_PERFORMANCE);
  fftx_iodim dims[] = {{n0, n1, n1}, {n1, 1, 1}};
  fftx_iodimx dimsx[] = {{n0, 0, 0, 0, n1, n1, n1}, {n1, 0, 0, 0, 1, 1, 1}};
  fftx_temp_complex t1 = fftx_create_temp_complex(2, dims), t2 = fftx_create_temp_complex(2, dims);
  const unsigned sub = FFTX_ESTIMATE | FFTX_SUBPLAN;
  fftx_plan plans[3] = {
      fftx_plan_guru_dft(2, dims, 0, nullptr, fx(x), t1, FFTX_FORWARD, sub),
      fftx_plan_guru_pointwise_c2c(2, dimsx, 0, nullptr, t1, t2, fx(g), (fftx_callback)scale_by_symbol, sub),
      fftx_plan_guru_dft(2, dims, 0, nullptr, t2, fx(y), FFTX_BACKWARD, sub),
  };
  int bad = 0;
  for (fftx_plan p : plans)
    if (!p) { std::printf("planning failed: %s\n", fftx_last_error()); return 1; }
  fftx_plan p = fftx_plan_compose(3, plans, FFTX_ESTIMATE);
  if (!p) { std::printf("compose failed: %s\n", fftx_last_error()); return 1; }
  fftx_execute(p);
  double err = 0, mx = 0;
  for (int i = 0; i < n; i++) { err = std::fmax(err, std::abs(y[i] - want[i])); mx = std::fmax(mx, std::abs(want[i])); }
  std::printf("C++ 2-D convolution: relative error %.3e\n", err / mx);
  if (!(err / mx < 1e-13)) bad = 1;
  char *text = fftx_sprint_plan(p);
  if (!text || !std::strstr(text, "steps=1 ")) { std::printf("not fused:\n%s\n", text ? text : "(null)"); bad = 1; }
  std::free(text);
  // Errors come back as NULL plus a message.
  fftx_iodim bad_dims[] = {{n0, n1, n1}, {n1 + 1, 1, 1}};
  fftx_plan q = fftx_plan_guru_dft(2, bad_dims, 0, nullptr, t1, t2, FFTX_FORWARD, sub);
  if (q || !std::strstr(fftx_last_error(), "strides leave")) { std::printf("expected a bounds error, got: %s\n", fftx_last_error()); bad = 1; }
  fftx_destroy_plan(p);
  for (fftx_plan sp : plans) fftx_destroy_plan(sp);
  fftx_destroy_temp_complex(t1);
  fftx_destroy_temp_complex(t2);
  fftx_shutdown();
  std::printf(bad ? "cxx: FAILED\n" : "cxx: all passed\n");
  return bad;
}
