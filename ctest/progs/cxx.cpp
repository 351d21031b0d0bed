// C++: std::complex<double> / std::complex<float> storage reinterpreted as fftw_complex /
// fftwf_complex (FFTW manual, "Complex numbers"), std::vector storage (not fftw_malloc'ed),
// fftw3.h included after <complex>.
#include <complex>
#include <cstdio>
#include <cmath>
#include <vector>
#include <fftw3.h>

static double val(long i, int seed)
{
    return std::sin(0.7 * i + 0.31 * seed) + 0.5 * std::cos(1.9 * i - 0.17 * seed) + 0.01 * seed;
}

template <class T> static void print(const char *prec, const char *label, const std::vector<std::complex<T>> &v)
{
    std::printf("== %s %s\n", prec, label);
    for (size_t k = 0; k < v.size(); k++)
        std::printf("%zu: %.17g %.17g\n", k, (double)v[k].real(), (double)v[k].imag());
}

int main()
{
    {   // 1-D forward and backward, double
        const int n = 20;
        std::vector<std::complex<double>> in(n), out(n), back(n);
        fftw_plan f = fftw_plan_dft_1d(n, reinterpret_cast<fftw_complex *>(in.data()),
                                       reinterpret_cast<fftw_complex *>(out.data()), FFTW_FORWARD, FFTW_ESTIMATE);
        fftw_plan b = fftw_plan_dft_1d(n, reinterpret_cast<fftw_complex *>(out.data()),
                                       reinterpret_cast<fftw_complex *>(back.data()), FFTW_BACKWARD, FFTW_ESTIMATE);
        for (int i = 0; i < n; i++) in[i] = {val(i, 120), val(i, 121)};
        fftw_execute(f);
        print("d", "cxx dft_1d forward", out);
        fftw_execute(b);
        for (auto &z : back) z /= n;
        print("d", "cxx dft_1d round trip", back);
        fftw_destroy_plan(f);
        fftw_destroy_plan(b);
    }
    {   // 2-D in place
        const int n0 = 6, n1 = 10;
        std::vector<std::complex<double>> a(n0 * n1);
        fftw_complex *p = reinterpret_cast<fftw_complex *>(&a[0]);
        fftw_plan pl = fftw_plan_dft_2d(n0, n1, p, p, FFTW_BACKWARD, FFTW_ESTIMATE);
        for (int i = 0; i < n0 * n1; i++) a[i] = std::complex<double>(val(i, 122), val(i, 123));
        fftw_execute(pl);
        print("d", "cxx dft_2d in-place", a);
        fftw_destroy_plan(pl);
    }
    {   // r2c from std::vector<double> into std::complex<double>
        const int n = 30;
        std::vector<double> x(n);
        std::vector<std::complex<double>> X(n / 2 + 1);
        fftw_plan pl = fftw_plan_dft_r2c_1d(n, x.data(), reinterpret_cast<fftw_complex *>(X.data()), FFTW_ESTIMATE);
        for (int i = 0; i < n; i++) x[i] = val(i, 124);
        fftw_execute(pl);
        print("d", "cxx dft_r2c_1d", X);
        // new-array execute, unaligned (offset by one element)
        std::vector<double> y(n + 1);
        std::vector<std::complex<double>> Y(n / 2 + 2);
        for (int i = 0; i < n; i++) y[i + 1] = val(i, 125);
        fftw_plan pu = fftw_plan_dft_r2c_1d(n, y.data() + 1, reinterpret_cast<fftw_complex *>(Y.data() + 1),
                                            FFTW_ESTIMATE | FFTW_UNALIGNED);
        for (int i = 0; i < n; i++) y[i + 1] = val(i, 125);
        fftw_execute(pu);
        Y.erase(Y.begin());
        print("d", "cxx dft_r2c_1d unaligned", Y);
        fftw_destroy_plan(pl);
        fftw_destroy_plan(pu);
    }
    {   // single precision
        const int n = 16;
        std::vector<std::complex<float>> in(n), out(n);
        fftwf_plan pl = fftwf_plan_dft_1d(n, reinterpret_cast<fftwf_complex *>(in.data()),
                                          reinterpret_cast<fftwf_complex *>(out.data()), FFTW_FORWARD, FFTW_ESTIMATE);
        for (int i = 0; i < n; i++) in[i] = {(float)val(i, 126), (float)val(i, 127)};
        fftwf_execute(pl);
        print("f", "cxx fftwf_dft_1d", out);
        fftwf_destroy_plan(pl);
    }
    fftw_cleanup();
    fftwf_cleanup();
    return 0;
}
