//! IEEE binary16 <-> f32 conversions, for the half-storage plans (`half`) and the split-half
//! twin (`exec::cpu::split_half`), which both round as the GPU's `cvt.rn.f16.f32` does.

/// f32 -> binary16, rounded to nearest, ties to even (overflow to infinity, NaN stays NaN).
pub fn f16_from_f32(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 0xff {
        let nan = if man != 0 {
            0x200 | (man >> 13) as u16
        } else {
            0
        };
        return sign | 0x7c00 | nan;
    }
    let round = |q: u32, rem: u32, half: u32| {
        if rem > half || (rem == half && q & 1 == 1) {
            q + 1
        } else {
            q
        }
    };
    let e = exp - 112; // the binary16 biased exponent
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        // Subnormal: value = m * 2^(exp - 150) = (m >> (14 - e)) * 2^-24.
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let q = round(m >> shift, m & ((1 << shift) - 1), 1 << (shift - 1));
        return sign | q as u16;
    }
    // A carry out of the mantissa steps the exponent (to infinity from the largest finite).
    let q = round(((e as u32) << 10) | (man >> 13), man & 0x1fff, 0x1000);
    sign | q as u16
}

/// binary16 -> f32 (exact).
pub fn f32_from_f16(h: u16) -> f32 {
    let sign = ((h & 0x8000) as u32) << 16;
    let exp = ((h >> 10) & 0x1f) as u32;
    let man = (h & 0x3ff) as u32;
    match exp {
        0 => {
            let v = man as f32 * f32::from_bits(0x3380_0000); // 2^-24
            if sign != 0 {
                -v
            } else {
                v
            }
        }
        0x1f => f32::from_bits(sign | 0x7f80_0000 | (man << 13)),
        _ => f32::from_bits(sign | ((exp + 112) << 23) | (man << 13)),
    }
}
