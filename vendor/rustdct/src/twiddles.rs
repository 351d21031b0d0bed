use rustfft::num_complex::Complex;

use crate::DctNum;

// fftx patch: every twiddle comes from the vendored rustfft's accurate ones (see
// vendor/README.md); angles are -2 pi i / n, or -2 pi (i + 1/2) / n = -2 pi (2i + 1) / 2n.

#[inline(always)]
pub fn single_twiddle<T: DctNum>(i: usize, fft_len: usize) -> Complex<T> {
    let (re, im) = rustfft::accurate_twiddle(i, fft_len);
    Complex {
        re: T::from_f64(re).unwrap(),
        im: T::from_f64(im).unwrap(),
    }
}

// Same as above, but only return the real portion, not the imaginary portion
#[inline(always)]
pub fn single_twiddle_re<T: DctNum>(i: usize, fft_len: usize) -> T {
    T::from_f64(rustfft::accurate_twiddle(i, fft_len).0).unwrap()
}

// Same as above, but we add 0.5 to 0 before
#[inline(always)]
pub fn single_twiddle_halfoffset<T: DctNum>(i: usize, fft_len: usize) -> Complex<T> {
    let (re, im) = rustfft::accurate_twiddle(2 * i + 1, 2 * fft_len);
    Complex {
        re: T::from_f64(re).unwrap(),
        im: T::from_f64(im).unwrap(),
    }
}

#[cfg(test)]
mod unit_tests {
    use super::*;
    use std::f32;

    use crate::test_utils::fuzzy_cmp;

    #[test]
    fn test_single() {
        let len = 20;

        for i in 0..len {
            let single: Complex<f32> = single_twiddle(i, len);
            let single_inverse: Complex<f32> = single_twiddle(i, len).conj();

            let expected =
                Complex::from_polar(1f32, -2f32 * f32::consts::PI * i as f32 / len as f32);
            let expected_inverse =
                Complex::from_polar(1f32, 2f32 * f32::consts::PI * i as f32 / len as f32);

            assert!(
                fuzzy_cmp(single.re, expected.re, 0.001f32),
                "forwards, i = {}",
                i
            );
            assert!(
                fuzzy_cmp(single.im, expected.im, 0.001f32),
                "forwards, i = {}",
                i
            );
            assert!(
                fuzzy_cmp(single_inverse.re, expected_inverse.re, 0.001f32),
                "inverse, i = {}",
                i
            );
            assert!(
                fuzzy_cmp(single_inverse.im, expected_inverse.im, 0.001f32),
                "inverse, i = {}",
                i
            );
        }
    }
}
