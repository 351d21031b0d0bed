//! One problem on one library: its arrays (laid out as FFTW's bench lays them out:
//! libbench2/allocate.c), its plan through the guru64 interface, executes and results.

use crate::libs::{Api, Precision, P};
use crate::problem::{bounds, Dim, Kind, Problem};
use fftx::fftw_iodim64;
use std::os::raw::{c_int, c_uint};

/// Where a problem's arrays live, in reals: the physical size of each buffer and the offset of
/// the plan's pointer into it (strides may be negative, so the pointer is not always at 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub in_reals: usize,
    pub in_base: usize,
    /// 0 when in place (the output is the input buffer, at the same pointer).
    pub out_reals: usize,
    pub out_base: usize,
    pub in_complex: bool,
    pub out_complex: bool,
}

impl Layout {
    pub fn of(p: &Problem) -> Layout {
        let dims = p.all_dims();
        let (ilb, iub) = bounds(&dims, true);
        let (olb, oub) = bounds(&dims, false);
        let (isz, osz) = ((iub - ilb).max(1), (oub - olb).max(1));
        let (ic, oc) = (p.complex_side(true), p.complex_side(false));
        let scale = |c: bool| if c { 2 } else { 1 };
        let (mut in_reals, mut out_reals) = (isz * scale(ic), osz * scale(oc));
        // A real problem's real side holds the complex side's values too, for in place.
        if p.kind == Kind::Real {
            if p.sign < 0 {
                in_reals = in_reals.max(2 * osz);
            } else {
                out_reals = out_reals.max(2 * isz);
            }
        }
        let (in_base, out_base) = (-ilb * scale(ic), -olb * scale(oc));
        if p.in_place {
            // One buffer, the real side's (or the input's), one pointer for both sides.
            let (reals, base) = if p.kind == Kind::Real && p.sign > 0 {
                (out_reals, out_base)
            } else {
                (in_reals, in_base)
            };
            return Layout {
                in_reals: reals as usize,
                in_base: base as usize,
                out_reals: 0,
                out_base: base as usize,
                in_complex: ic,
                out_complex: oc,
            };
        }
        Layout {
            in_reals: in_reals as usize,
            in_base: in_base as usize,
            out_reals: out_reals as usize,
            out_base: out_base as usize,
            in_complex: ic,
            out_complex: oc,
        }
    }

    /// Indices (into a side's buffer, in reals) of the side's elements in logical order: two
    /// per complex element.
    pub fn indices(&self, p: &Problem, input: bool) -> Vec<usize> {
        let (base, complex) = if input {
            (self.in_base, self.in_complex)
        } else {
            (self.out_base, self.out_complex)
        };
        let mut out = Vec::new();
        for o in p.offsets(input) {
            if complex {
                let i = (base as i64 + 2 * o) as usize;
                out.extend([i, i + 1]);
            } else {
                out.push((base as i64 + o) as usize);
            }
        }
        out
    }
}

fn iodims(dims: &[Dim]) -> Vec<fftw_iodim64> {
    dims.iter()
        .map(|d| fftw_iodim64 {
            n: d.n as isize,
            is: d.is as isize,
            os: d.os as isize,
        })
        .collect()
}

/// FFTW's bench flags for the input: a multi-dimensional out-of-place c2r may destroy its
/// input (FFTW cannot preserve it), `d` problems may, the others must preserve it.
pub fn input_flags(p: &Problem) -> c_uint {
    if (p.kind == Kind::Real && p.sign > 0 && !p.in_place && p.sz.len() > 1) || p.destroy_input {
        fftx::FFTW_DESTROY_INPUT
    } else {
        fftx::FFTW_PRESERVE_INPUT
    }
}

/// Plans `p` (its own kinds and sign) through the guru64 interface at the given arrays.
///
/// # Safety
/// The arrays must cover what the problem addresses, or be NULL under FFTW_ESTIMATE (which
/// never touches them).
pub unsafe fn plan_at(api: &Api, p: &Problem, flags: c_uint, i: P, o: P) -> P {
    let (dims, loops) = (iodims(&p.sz), iodims(&p.vecsz));
    let (r, hr) = (dims.len() as c_int, loops.len() as c_int);
    let (d, l) = (dims.as_ptr(), loops.as_ptr());
    match p.kind {
        Kind::Complex => (api.dft)(r, d, hr, l, i, o, p.sign, flags),
        Kind::Real if p.sign < 0 => (api.r2c)(r, d, hr, l, i, o, flags),
        Kind::Real => (api.c2r)(r, d, hr, l, i, o, flags),
        Kind::R2r => {
            let kinds: Vec<c_int> = p.kinds.iter().map(|&k| k as c_int).collect();
            (api.r2r)(r, d, hr, l, i, o, kinds.as_ptr(), flags)
        }
    }
}

/// A problem's arrays in one library's `fftw_malloc` memory.
pub struct Arrays<'a> {
    api: &'a Api,
    prec: Precision,
    pub layout: Layout,
    phys_in: P,
    phys_out: P,
}

impl<'a> Arrays<'a> {
    pub fn new(api: &'a Api, prec: Precision, layout: Layout) -> Result<Arrays<'a>, String> {
        let alloc = |reals: usize| -> Result<P, String> {
            // SAFETY: the library's own allocator; freed by Drop with its fftw_free.
            let p = unsafe { (api.malloc)(reals.max(1) * prec.bytes()) };
            if p.is_null() {
                Err(format!(
                    "{}: fftw_malloc of {} bytes failed",
                    api.name,
                    reals * prec.bytes()
                ))
            } else {
                // Defined contents (zeros) before anything reads them.
                unsafe { std::ptr::write_bytes(p as *mut u8, 0, reals.max(1) * prec.bytes()) };
                Ok(p)
            }
        };
        let phys_in = alloc(layout.in_reals)?;
        let phys_out = if layout.out_reals > 0 {
            match alloc(layout.out_reals) {
                Ok(p) => p,
                Err(e) => {
                    unsafe { (api.free)(phys_in) };
                    return Err(e);
                }
            }
        } else {
            std::ptr::null_mut()
        };
        Ok(Arrays {
            api,
            prec,
            layout,
            phys_in,
            phys_out,
        })
    }

    fn at(&self, input: bool) -> P {
        let (phys, base) = if input || self.phys_out.is_null() {
            (
                self.phys_in,
                if input {
                    self.layout.in_base
                } else {
                    self.layout.out_base
                },
            )
        } else {
            (self.phys_out, self.layout.out_base)
        };
        (phys as usize + base * self.prec.bytes()) as P
    }

    /// Plans `p` (its own kinds and sign) over these arrays.
    pub fn plan(&self, p: &Problem, flags: c_uint) -> P {
        // SAFETY: the arrays cover every element the dims address (sized from the same dims
        // by FFTW's bounds).
        unsafe { plan_at(self.api, p, flags, self.at(true), self.at(false)) }
    }

    /// The r2c that makes a c2r problem's input (Hermitian data): the same dims with input
    /// and output strides swapped, from the c2r's output array into its input array.
    pub fn plan_hermitian_maker(&self, p: &Problem) -> P {
        let swap = |d: &[Dim]| -> Vec<fftw_iodim64> {
            d.iter()
                .map(|d| fftw_iodim64 {
                    n: d.n as isize,
                    is: d.os as isize,
                    os: d.is as isize,
                })
                .collect()
        };
        let (dims, loops) = (swap(&p.sz), swap(&p.vecsz));
        // SAFETY: as in `plan`, the sides exchanged.
        unsafe {
            (self.api.r2c)(
                dims.len() as c_int,
                dims.as_ptr(),
                loops.len() as c_int,
                loops.as_ptr(),
                self.at(false),
                self.at(true),
                fftx::FFTW_ESTIMATE,
            )
        }
    }

    fn buffer(&self, input: bool) -> (P, usize) {
        if input || self.phys_out.is_null() {
            (
                self.phys_in,
                if self.phys_out.is_null() || input {
                    self.layout.in_reals
                } else {
                    0
                },
            )
        } else {
            (self.phys_out, self.layout.out_reals)
        }
    }

    /// Writes a whole buffer (input: the input's; else the output's) from f64 values.
    pub fn write(&mut self, input: bool, values: &[f64]) {
        let (p, len) = self.buffer(input);
        let n = values.len().min(len);
        // SAFETY: `len` reals of the precision's size were allocated at `p`.
        unsafe {
            match self.prec {
                Precision::F64 => {
                    std::ptr::copy_nonoverlapping(values.as_ptr(), p as *mut f64, n);
                }
                Precision::F32 => {
                    let d = std::slice::from_raw_parts_mut(p as *mut f32, n);
                    for (d, v) in d.iter_mut().zip(values) {
                        *d = *v as f32;
                    }
                }
            }
        }
    }

    /// Reads a whole buffer as f64 values.
    pub fn read(&self, input: bool) -> Vec<f64> {
        let (p, len) = self.buffer(input);
        // SAFETY: as in `write`.
        unsafe {
            match self.prec {
                Precision::F64 => std::slice::from_raw_parts(p as *const f64, len).to_vec(),
                Precision::F32 => std::slice::from_raw_parts(p as *const f32, len)
                    .iter()
                    .map(|&v| v as f64)
                    .collect(),
            }
        }
    }
}

impl Drop for Arrays<'_> {
    fn drop(&mut self) {
        // SAFETY: allocated by this library's fftw_malloc, freed once.
        unsafe {
            (self.api.free)(self.phys_in);
            if !self.phys_out.is_null() {
                (self.api.free)(self.phys_out);
            }
        }
    }
}

/// A small deterministic generator (xorshift64*): the same inputs on every run and library.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    /// Uniform in [-0.5, 0.5).
    pub fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        (x >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    }
}

/// Relative L2 distance of `a` from `reference`.
pub fn rel_l2(a: &[f64], reference: &[f64]) -> f64 {
    let (mut num, mut den) = (0.0f64, 0.0f64);
    for (x, r) in a.iter().zip(reference) {
        num += (x - r) * (x - r);
        den += r * r;
    }
    if den == 0.0 {
        if num == 0.0 {
            0.0
        } else {
            f64::INFINITY
        }
    } else {
        (num / den).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::parse;

    #[test]
    fn layouts_as_fftw_allocates() {
        let l = Layout::of(&parse("cf16").unwrap());
        assert_eq!((l.in_reals, l.out_reals, l.in_base), (32, 32, 0));
        let l = Layout::of(&parse("icf16").unwrap());
        assert_eq!((l.in_reals, l.out_reals), (32, 0));
        // FFTW's bounds take the complex side's last dimension at its full length, so the
        // complex side is over-allocated, as FFTW's bench does.
        let l = Layout::of(&parse("rf16").unwrap());
        assert_eq!((l.in_reals, l.out_reals), (32, 32));
        let l = Layout::of(&parse("irf16").unwrap());
        assert_eq!((l.in_reals, l.out_reals), (32, 0));
        let l = Layout::of(&parse("rb4x6").unwrap());
        assert_eq!((l.in_reals, l.out_reals), (36, 36));
        let l = Layout::of(&parse("c16:-1").unwrap());
        assert_eq!((l.in_reals, l.in_base, l.out_base), (32, 30, 30));
        let l = Layout::of(&parse("ok8e10*3").unwrap());
        assert_eq!((l.in_reals, l.out_reals), (24, 24));
        let p = parse("rf4x6").unwrap();
        let l = Layout::of(&p);
        assert_eq!(l.indices(&p, true).len(), 24);
        assert_eq!(l.indices(&p, false).len(), 32);
    }

    #[test]
    fn rng_and_error() {
        let mut r = Rng::new(1);
        let v: Vec<f64> = (0..1000).map(|_| r.next()).collect();
        assert!(v.iter().all(|x| (-0.5..0.5).contains(x)));
        assert_eq!(rel_l2(&v, &v), 0.0);
        let w: Vec<f64> = v.iter().map(|x| x * (1.0 + 1e-9)).collect();
        assert!((rel_l2(&w, &v) - 1e-9).abs() < 1e-12);
    }
}
