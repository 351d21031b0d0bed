use crate::{common::FftNum, FftDirection};
use num_complex::Complex;

use strength_reduce::{StrengthReducedU128, StrengthReducedU64};

/// fftx patch: primes up to this length are transformed by the direct DFT (see the planners).
pub const MAX_DIRECT_PRIME: usize = 127;

pub fn compute_twiddle<T: FftNum>(
    index: usize,
    fft_len: usize,
    direction: FftDirection,
) -> Complex<T> {
    let (re, im) = accurate_twiddle(index, fft_len);
    let result = Complex {
        re: T::from_f64(re).unwrap(),
        im: T::from_f64(im).unwrap(),
    };

    match direction {
        FftDirection::Forward => result,
        FftDirection::Inverse => result.conj(),
    }
}

/// fftx patch: `exp(-2 pi i index / len)` as (re, im), correctly rounded in all but rare
/// cases. The upstream version took `cos` and `sin` of the full angle `-2 pi index / len`,
/// whose rounding error grows with the angle (up to about 4 ulp near 2 pi): transforms came
/// out 1.3-3x less accurate than FFTW's. Here the angle is reduced to an octant with exact
/// integer arithmetic, its remainder `(pi/4) * r/len` is formed in double-double, and
/// `sin`/`cos` see an argument in [0, pi/4] plus a first-order correction; so `cos(2 pi/3)`
/// is exactly -0.5, and sums over a period cancel as FFTW's do.
pub fn accurate_twiddle(index: usize, len: usize) -> (f64, f64) {
    let n = len as u64;
    let t = index as u64 % n;
    // 2 pi t / n = (pi / 4) * (octant + r / n), with r < n. (8 t fits in u64 for any length
    // below 2^61; u128 division was a fifth of a table's time.)
    let (octant, r) = match t.checked_mul(8) {
        Some(t8) => ((t8 / n) as u32, t8 % n),
        None => {
            let (t8, n) = (8 * t as u128, n as u128);
            ((t8 / n) as u32, (t8 % n) as u64)
        }
    };
    // Odd octants measure from the octant's far end, so the argument stays small.
    let (s, c) = if octant % 2 == 0 {
        sin_cos_quarter_pi_times(r, n)
    } else {
        sin_cos_quarter_pi_times(n - r, n)
    };
    // (cos, sin) of the whole angle, from the octant's symmetry.
    let (cos, sin) = match octant {
        0 => (c, s),
        1 => (s, c),
        2 => (-s, c),
        3 => (-c, s),
        4 => (-c, -s),
        5 => (-s, -c),
        6 => (s, -c),
        _ => (c, -s),
    };
    (cos, -sin)
}

/// (sin, cos) of `(pi / 4) * p / q` for `0 <= p <= q`: the argument as a double-double
/// `hi + lo`, then `sin(hi + lo) = sin hi + lo cos hi`, `cos(hi + lo) = cos hi - lo sin hi`.
fn sin_cos_quarter_pi_times(p: u64, q: u64) -> (f64, f64) {
    if p == q {
        // pi/4 itself: the correctly rounded value, which the sum below can miss by an ulp.
        return (std::f64::consts::FRAC_1_SQRT_2, std::f64::consts::FRAC_1_SQRT_2);
    }
    const QUARTER_PI_HI: f64 = std::f64::consts::FRAC_PI_4;
    const QUARTER_PI_LO: f64 = 3.061616997868383e-17; // pi/4 - QUARTER_PI_HI
    let (pf, qf) = (p as f64, q as f64);
    let ratio = pf / qf;
    // p - ratio * q exactly (p and q below 2^53 in every use), so ratio_lo is its residual.
    let ratio_lo = f64::mul_add(-ratio, qf, pf) / qf;
    let hi = QUARTER_PI_HI * ratio;
    let lo = f64::mul_add(QUARTER_PI_HI, ratio, -hi) + QUARTER_PI_HI * ratio_lo + QUARTER_PI_LO * ratio;
    let (s, c) = hi.sin_cos();
    (s + lo * c, c - lo * s)
}

pub fn fill_bluesteins_twiddles<T: FftNum>(
    destination: &mut [Complex<T>],
    direction: FftDirection,
) {
    let twice_len = destination.len() * 2;

    // Standard bluestein's twiddle computation requires us to square the index before usingit to compute a twiddle factor
    // And since twiddle factors are cyclic, we can improve precision once the squared index gets converted to floating point by taking a modulo
    // Modulo is expensive, so we're going to use strength-reduction to keep it manageable

    // Strength-reduced u128s are very heavy, so we only want to use them if we need them - and we only need them if
    // len * len doesn't fit in a u64, AKA if len doesn't fit in a u32
    if destination.len() < std::u32::MAX as usize {
        let twice_len_reduced = StrengthReducedU64::new(twice_len as u64);

        for (i, e) in destination.iter_mut().enumerate() {
            let i_squared = i as u64 * i as u64;
            let i_mod = i_squared % twice_len_reduced;
            *e = compute_twiddle(i_mod as usize, twice_len, direction);
        }
    } else {
        // Sadly, the len doesn't fit in a u64, so we have to crank it up to u128 arithmetic
        let twice_len_reduced = StrengthReducedU128::new(twice_len as u128);

        for (i, e) in destination.iter_mut().enumerate() {
            // Standard bluestein's twiddle computation requires us to square the index before usingit to compute a twiddle factor
            // And since twiddle factors are cyclic, we can improve precision once the squared index gets converted to floating point by taking a modulo
            let i_squared = i as u128 * i as u128;
            let i_mod = i_squared % twice_len_reduced;
            *e = compute_twiddle(i_mod as usize, twice_len, direction);
        }
    }
}

pub fn rotate_90<T: FftNum>(value: Complex<T>, direction: FftDirection) -> Complex<T> {
    match direction {
        FftDirection::Forward => Complex {
            re: value.im,
            im: -value.re,
        },
        FftDirection::Inverse => Complex {
            re: -value.im,
            im: value.re,
        },
    }
}

#[cfg(test)]
mod unit_tests {
    use super::*;

    #[test]
    fn test_rotate() {
        // Verify that the rotate90 function does the same thing as multiplying by twiddle(1,4), in the forward direction
        let value = Complex { re: 9.1, im: 2.2 };
        let rotated_forward = rotate_90(value, FftDirection::Forward);
        let twiddled_forward = value * compute_twiddle(1, 4, FftDirection::Forward);

        assert_eq!(value.re, -rotated_forward.im);
        assert_eq!(value.im, rotated_forward.re);

        assert!(value.re + twiddled_forward.im < 0.0001);
        assert!(value.im - rotated_forward.re < 0.0001);

        // Verify that the rotate90 function does the same thing as multiplying by twiddle(1,4), in the inverse direction
        let rotated_forward = rotate_90(value, FftDirection::Inverse);
        let twiddled_forward = value * compute_twiddle(1, 4, FftDirection::Inverse);

        assert_eq!(value.re, rotated_forward.im);
        assert_eq!(value.im, -rotated_forward.re);

        assert!(value.re - twiddled_forward.im < 0.0001);
        assert!(value.im + rotated_forward.re < 0.0001);
    }
}

