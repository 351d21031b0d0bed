//! Column FFTs: the 1-D FFTs of a block of adjacent strided pencils, all at once, straight
//! from and into the caller's arrays.
//!
//! A pass along an outer axis of a row-major array (axis 0 of 64³, say) has pencils whose
//! elements lie far apart, while neighbouring pencils' elements are adjacent: element `i` of
//! pencils `c = 0..count` is one contiguous row. The gathered path (`pencil::c2c`) transposes
//! such a block into scratch, runs rustfft on each pencil and transposes back: four sweeps over
//! the block, two of them moves. Here the FFT runs on whole rows instead, as FFTW's vector loops
//! do: a Stockham autosort FFT whose every butterfly combines rows element by element, so the
//! inner loop runs along the `count` adjacent pencils (vectorised by the compiler) and each
//! stage is one sweep — two for 64 points (radix 8 × 8), from the source straight into scratch
//! and back into the destination. rustfft has no such strided-batch form, so this is ours.
//! It takes powers of two up to 64 ([`ColumnFft::new`] says which, and why); other lengths stay
//! on the gathered path.
//!
//! Stockham stage of radix `R` after radices of product `ns`: for `j < n / R`, with
//! `k = j mod ns`, the rows `j + r·n/R` (`r < R`) are multiplied by `w^(r·k)`
//! (`w = exp(∓2πi / (ns·R))`), transformed by an `R`-point DFT and written to rows
//! `(j / ns)·ns·R + k + r·ns`. After the last stage the rows are in natural order.

use crate::real::Real;
use num_complex::Complex;
use rustfft::FftDirection;

/// The radices this module has butterflies for, the preferred first.
const RADICES: [usize; 3] = [8, 4, 2];

/// The column FFT of one length and direction.
pub struct ColumnFft<T> {
    n: usize,
    forward: bool,
    /// The butterflies it runs, chosen once at plan time.
    isa: Isa,
    stages: Vec<Stage<T>>,
}

struct Stage<T> {
    radix: usize,
    /// Product of the earlier stages' radices.
    ns: usize,
    /// `w^(r·k)` at `k·(radix − 1) + r − 1`, for `k < ns`, `1 ≤ r < radix`.
    twiddles: Vec<Complex<T>>,
}

/// Where a block's rows are: row `i` starts at `base + i·stride` (elements), and holds the
/// block's `count` pencils' element `i`, adjacent.
#[derive(Clone, Copy)]
pub struct Rows<T> {
    pub base: *mut Complex<T>,
    pub stride: isize,
}

impl<T> Rows<T> {
    #[inline(always)]
    unsafe fn row(&self, i: usize) -> *mut Complex<T> {
        self.base.offset(i as isize * self.stride)
    }
}

impl<T: Real> ColumnFft<T> {
    /// The plan for `n` points where the column FFT is the faster and gives FFTW's results, as
    /// measured against the gathered path (2026-11-27, the 2-core VM here and the H100 box's
    /// 16-core host, both with AVX-512; 1 and all threads): powers of two from 2 to 64, f32
    /// always (c2c f32 64³ 6-23% faster), f64 where AVX-512 runs (c2c f64 64³: with AVX2
    /// butterflies up to 18% faster at 1 thread but 6-8% slower at 16; with AVX-512 ones 10-38%
    /// faster than with AVX2). Powers of two above 64 take three sweeps or more and lost 9-15%
    /// (f64 128³ and 512², f32 1024²). Radix-3 and radix-5 butterflies ran lengths like 100
    /// 17-44% faster, but ImageMagick's phase images of 216² and 640² spectra then differed from
    /// FFTW's in thousands of pixels: bins FFTW computes as exact zeros came out as rounding
    /// noise, whose phase is arbitrary. rustfft's algorithms give FFTW's zeros there.
    pub fn new(n: usize, dir: FftDirection) -> Option<Self> {
        let f64_bytes = std::mem::size_of::<f64>();
        let f64_avx2 = std::mem::size_of::<T>() == f64_bytes && Isa::here() != Isa::Avx512;
        if !n.is_power_of_two() || n > 64 || f64_avx2 {
            return None;
        }
        Some(Self::with_radices(n, dir, factor(n)?))
    }

    /// The plan for `n` = the product of `radices`, in that order.
    fn with_radices(n: usize, dir: FftDirection, radices: Vec<usize>) -> Self {
        let forward = dir == FftDirection::Forward;
        let mut ns = 1;
        let stages = radices
            .into_iter()
            .map(|radix| {
                let twiddles = (0..ns)
                    .flat_map(|k| {
                        (1..radix).map(move |r| {
                            // correctly rounded, and exact at multiples of an eighth turn (as
                            // FFTW's): a real column's Nyquist bin comes out exactly real
                            let (c, s) = rustfft::accurate_twiddle(r * k, ns * radix);
                            let s = if forward { s } else { -s };
                            Complex::new(T::cast(c), T::cast(s))
                        })
                    })
                    .collect();
                let stage = Stage {
                    radix,
                    ns,
                    twiddles,
                };
                ns *= radix;
                stage
            })
            .collect();
        ColumnFft {
            n,
            forward,
            isa: Isa::here(),
            stages,
        }
    }

    /// Complex scratch a block of `count` pencils needs: one or two copies of the block.
    pub fn scratch_len(&self, count: usize) -> usize {
        let copies = match self.stages.len() {
            0 | 1 => 0,
            2 => 1,
            _ => 2,
        };
        copies * self.n * scratch_ld::<T>(count)
    }

    /// Whether the first stage reads every source row before the last writes a destination row
    /// (at least two stages): then source and destination may overlap.
    pub fn reads_all_first(&self) -> bool {
        self.stages.len() >= 2
    }

    /// Transforms the `count` pencils whose rows are `src` into the rows `dst`.
    ///
    /// # Safety
    /// Every row's `count` elements must be valid on both sides; `scratch` must hold
    /// [`Self::scratch_len`]; source and destination may share memory only if
    /// [`Self::reads_all_first`] or they are the same rows.
    pub unsafe fn process(
        &self,
        src: Rows<T>,
        dst: Rows<T>,
        count: usize,
        scratch: &mut [Complex<T>],
    ) {
        self.process_on(self.isa, src, dst, count, scratch)
    }

    /// [`Self::process`] with the butterflies of `isa` (which the CPU must have).
    unsafe fn process_on(
        &self,
        isa: Isa,
        src: Rows<T>,
        dst: Rows<T>,
        count: usize,
        scratch: &mut [Complex<T>],
    ) {
        match (isa, self.forward) {
            #[cfg(target_arch = "x86_64")]
            (Isa::Avx512, true) => self.process_avx512::<true>(src, dst, count, scratch),
            #[cfg(target_arch = "x86_64")]
            (Isa::Avx512, false) => self.process_avx512::<false>(src, dst, count, scratch),
            #[cfg(target_arch = "x86_64")]
            (Isa::Avx2, true) => self.process_avx::<true>(src, dst, count, scratch),
            #[cfg(target_arch = "x86_64")]
            (Isa::Avx2, false) => self.process_avx::<false>(src, dst, count, scratch),
            (_, true) => self.stages::<true, 16>(src, dst, count, scratch),
            (_, false) => self.stages::<false, 16>(src, dst, count, scratch),
        }
    }

    /// [`Self::stages`] compiled for AVX-512: four (f64) or eight (f32) complex numbers per
    /// instruction, and 32 registers to hold a radix-8 butterfly's vectors.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,fma")]
    unsafe fn process_avx512<const FWD: bool>(
        &self,
        src: Rows<T>,
        dst: Rows<T>,
        count: usize,
        scratch: &mut [Complex<T>],
    ) {
        self.stages::<FWD, 64>(src, dst, count, scratch)
    }

    /// [`Self::stages`] compiled for AVX2 and FMA: two (f64) or four (f32) complex numbers per
    /// instruction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn process_avx<const FWD: bool>(
        &self,
        src: Rows<T>,
        dst: Rows<T>,
        count: usize,
        scratch: &mut [Complex<T>],
    ) {
        self.stages::<FWD, 32>(src, dst, count, scratch)
    }

    /// The stages, with vectors of `VB` bytes.
    #[inline(always)]
    unsafe fn stages<const FWD: bool, const VB: usize>(
        &self,
        src: Rows<T>,
        dst: Rows<T>,
        count: usize,
        scratch: &mut [Complex<T>],
    ) {
        let nst = self.stages.len();
        let ld = scratch_ld::<T>(count);
        let block = self.n * ld;
        let (a, b) = scratch.split_at_mut(block.min(scratch.len()));
        let buffers = [
            Rows {
                base: a.as_mut_ptr(),
                stride: ld as isize,
            },
            Rows {
                base: b.as_mut_ptr(),
                stride: ld as isize,
            },
        ];
        let mut from = src;
        for (i, st) in self.stages.iter().enumerate() {
            let to = if i + 1 == nst { dst } else { buffers[i % 2] };
            match st.radix {
                2 => self.stage::<2, FWD, VB>(st, from, to, count),
                4 => self.stage::<4, FWD, VB>(st, from, to, count),
                8 => self.stage::<8, FWD, VB>(st, from, to, count),
                r => unreachable!("no butterfly of radix {r}"),
            }
            from = to;
        }
    }

    /// One stage: the rows' elements a vector at a time (the tail one at a time).
    #[inline(always)]
    unsafe fn stage<const R: usize, const FWD: bool, const VB: usize>(
        &self,
        st: &Stage<T>,
        from: Rows<T>,
        to: Rows<T>,
        count: usize,
    ) {
        // Scalars a step, as measured on the H100 box's host (2026-11-27, c2c 64³, 1 and 16
        // threads): f32 two vectors (with AVX-512 one, 16 scalars, ran 1.4-2.0x slower); f64
        // eight (with AVX-512 sixteen ran 1.25-1.46x slower).
        match (std::mem::size_of::<T>(), VB) {
            (4, 64) => self.stage_lanes::<R, FWD, 32>(st, from, to, count),
            (4, _) => self.stage_lanes::<R, FWD, 16>(st, from, to, count),
            _ => self.stage_lanes::<R, FWD, 8>(st, from, to, count),
        }
    }

    #[inline(always)]
    unsafe fn stage_lanes<const R: usize, const FWD: bool, const W: usize>(
        &self,
        st: &Stage<T>,
        from: Rows<T>,
        to: Rows<T>,
        count: usize,
    ) {
        let (n, ns) = (self.n, st.ns);
        let quarter = n / R;
        let one = Complex::new(T::one(), T::zero());
        let lanes = W / 2;
        let whole = count - count % lanes;
        for j in 0..quarter {
            let k = j % ns;
            let mut w = [one; R];
            w[1..].copy_from_slice(&st.twiddles[k * (R - 1)..(k + 1) * (R - 1)]);
            let out0 = (j / ns) * ns * R + k;
            let ins: [*mut Complex<T>; R] = std::array::from_fn(|r| from.row(j + r * quarter));
            let outs: [*mut Complex<T>; R] = std::array::from_fn(|r| to.row(out0 + r * ns));
            let mut c = 0;
            while c < whole {
                butterfly::<T, R, FWD, W>(&ins, &outs, c, &w, k == 0);
                c += lanes;
            }
            while c < count {
                butterfly::<T, R, FWD, 2>(&ins, &outs, c, &w, k == 0);
                c += 1;
            }
        }
    }
}

/// Elements `c..c + W / 2` of `R` rows: loaded, turned by the twiddles `w` (unless `plain`),
/// transformed and stored.
#[inline(always)]
unsafe fn butterfly<T: Real, const R: usize, const FWD: bool, const W: usize>(
    ins: &[*mut Complex<T>; R],
    outs: &[*mut Complex<T>; R],
    c: usize,
    w: &[Complex<T>; R],
    plain: bool,
) {
    let mut v: [V<T, W>; R] = std::array::from_fn(|r| V::load(ins[r].add(c)));
    if !plain {
        for r in 1..R {
            v[r] = v[r].mul(w[r]);
        }
    }
    let y = dft::<T, R, FWD, W>(v);
    for r in 0..R {
        y[r].store(outs[r].add(c));
    }
}

/// `W / 2` complex numbers as `W` scalars, interleaved as in memory: every operation is `W`
/// lanes of one instruction (the compiler's vectors), the complex products a swap of
/// neighbours apart.
#[derive(Clone, Copy)]
struct V<T, const W: usize>([T; W]);

impl<T: Real, const W: usize> V<T, W> {
    #[inline(always)]
    unsafe fn load(p: *const Complex<T>) -> Self {
        V(std::ptr::read_unaligned(p as *const [T; W]))
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut Complex<T>) {
        std::ptr::write_unaligned(p as *mut [T; W], self.0);
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        V(std::array::from_fn(|l| self.0[l] + o.0[l]))
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        V(std::array::from_fn(|l| self.0[l] - o.0[l]))
    }
    #[inline(always)]
    fn scale(self, a: T) -> Self {
        V(std::array::from_fn(|l| self.0[l] * a))
    }
    /// Real and imaginary parts swapped.
    #[inline(always)]
    fn swapped(self) -> [T; W] {
        std::array::from_fn(|l| self.0[l ^ 1])
    }
    /// Times the complex number `w`, in every lane.
    #[inline(always)]
    fn mul(self, w: Complex<T>) -> Self {
        let sw = self.swapped();
        V(std::array::from_fn(|l| {
            let b = if l % 2 == 0 { -w.im } else { w.im };
            self.0[l] * w.re + sw[l] * b
        }))
    }
    /// Times `∓i`: a quarter turn in the transform's direction.
    #[inline(always)]
    fn turn<const FWD: bool>(self) -> Self {
        let sw = self.swapped();
        // forward: (re, im) → (im, −re); inverse: (−im, re)
        V(std::array::from_fn(|l| {
            if (l % 2 == 1) == FWD {
                -sw[l]
            } else {
                sw[l]
            }
        }))
    }
}

/// The instructions the butterflies are compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Isa {
    Avx512,
    Avx2,
    Plain,
}

impl Isa {
    /// The widest this CPU has.
    fn here() -> Isa {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx512f") {
                return Isa::Avx512;
            }
            if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
                return Isa::Avx2;
            }
        }
        Isa::Plain
    }
    /// Every set this CPU can run.
    #[cfg(test)]
    fn available() -> Vec<Isa> {
        let here = Isa::here();
        [Isa::Avx512, Isa::Avx2, Isa::Plain]
            .into_iter()
            .filter(|&i| match here {
                Isa::Avx512 => true,
                Isa::Avx2 => i != Isa::Avx512,
                Isa::Plain => i == Isa::Plain,
            })
            .collect()
    }
}

/// Elements from one scratch row to the next: `count`, padded off multiples of 1 KiB, whose
/// rows `ns` apart (a stage reads `R` of them at once) would share the same L1 sets — with the
/// caller's rows, often 4 KiB multiples apart too, more lines than an 8-way L1 set holds.
fn scratch_ld<T>(count: usize) -> usize {
    super::layout::block_ld(count, std::mem::size_of::<Complex<T>>())
}

/// `n`'s radices (largest first), or None if it is not a power of two from 2.
fn factor(n: usize) -> Option<Vec<usize>> {
    if n < 2 {
        return None;
    }
    let mut rest = n;
    let mut out = Vec::new();
    for r in RADICES {
        while rest.is_multiple_of(r) {
            out.push(r);
            rest /= r;
        }
    }
    (rest == 1).then_some(out)
}

/// The `R`-point DFT of `W / 2` lanes (unnormalised, sign by direction).
#[inline(always)]
fn dft<T: Real, const R: usize, const FWD: bool, const W: usize>(v: [V<T, W>; R]) -> [V<T, W>; R] {
    let mut y = v;
    match R {
        2 => {
            y[0] = v[0].add(v[1]);
            y[1] = v[0].sub(v[1]);
        }
        4 => {
            let (a, b) = (v[0].add(v[2]), v[0].sub(v[2]));
            let (c, d) = (v[1].add(v[3]), v[1].sub(v[3]).turn::<FWD>());
            y[0] = a.add(c);
            y[1] = b.add(d);
            y[2] = a.sub(c);
            y[3] = b.sub(d);
        }
        8 => {
            // two radix-4 DFTs of the even and odd points, the odd ones turned by w8^r
            let e = dft::<T, 4, FWD, W>([v[0], v[2], v[4], v[6]]);
            let o = dft::<T, 4, FWD, W>([v[1], v[3], v[5], v[7]]);
            let h = T::cast(std::f64::consts::FRAC_1_SQRT_2);
            let o1 = o[1].add(o[1].turn::<FWD>()).scale(h);
            let o2 = o[2].turn::<FWD>();
            let o3 = o[3].turn::<FWD>().sub(o[3]).scale(h);
            y[0] = e[0].add(o[0]);
            y[4] = e[0].sub(o[0]);
            y[1] = e[1].add(o1);
            y[5] = e[1].sub(o1);
            y[2] = e[2].add(o2);
            y[6] = e[2].sub(o2);
            y[3] = e[3].add(o3);
            y[7] = e[3].sub(o3);
        }
        _ => unreachable!("no butterfly of radix {R}"),
    }
    y
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::cpu::tests::Lcg;

    fn direct(x: &[Complex<f64>], sign: f64) -> Vec<Complex<f64>> {
        let n = x.len();
        let w: Vec<Complex<f64>> = (0..n)
            .map(|m| {
                let a = sign * 2.0 * std::f64::consts::PI * m as f64 / n as f64;
                Complex::new(a.cos(), a.sin())
            })
            .collect();
        (0..n)
            .map(|k| {
                x.iter()
                    .enumerate()
                    .fold(Complex::new(0.0, 0.0), |acc, (j, &v)| {
                        acc + v * w[(j * k) % n]
                    })
            })
            .collect()
    }

    /// Every power of two up to 1024 (those `new` leaves to rustfft too: the butterflies are
    /// the same), both directions, f64 and f32, the butterflies of every instruction set the CPU
    /// has, strided source and destination rows holding whole vectors and a tail, in place and
    /// not: against a direct DFT in f64; the gaps between the rows untouched.
    #[test]
    fn columns_match_the_direct_dft() {
        let mut rng = Lcg(7);
        for n in (1..=10).map(|e| 1usize << e) {
            for dir in [FftDirection::Forward, FftDirection::Inverse] {
                check::<f32>(n, dir, &mut rng, 1e-6);
                check::<f64>(n, dir, &mut rng, 1e-15);
            }
        }
    }

    /// Which lengths get a plan: powers of two from 2 to 64 (f64 ones with AVX-512 only).
    #[test]
    fn plans_are_powers_of_two_up_to_64() {
        for n in 0usize..=1100 {
            let want = (2..=64).contains(&n) && n.is_power_of_two();
            let dir = FftDirection::Forward;
            assert_eq!(ColumnFft::<f32>::new(n, dir).is_some(), want, "f32 n={n}");
            let f64_want = want && Isa::here() == Isa::Avx512;
            assert_eq!(
                ColumnFft::<f64>::new(n, dir).is_some(),
                f64_want,
                "f64 n={n}"
            );
        }
    }

    fn check<T: Real>(n: usize, dir: FftDirection, rng: &mut Lcg, eps: f64) {
        let sign = if dir == FftDirection::Forward {
            -1.0
        } else {
            1.0
        };
        let plan = ColumnFft::<T>::with_radices(n, dir, factor(n).unwrap());
        // 19 pencils: every width's vectors (4, 8 or 16 complex numbers) leave a tail; rows 21
        // apart
        let (count, stride) = (19, 21);
        let x: Vec<Complex<T>> = (0..n * stride)
            .map(|_| Complex::new(T::cast(rng.next()), T::cast(rng.next())))
            .collect();
        let wide = |v: Complex<T>| Complex::new(v.re.to_f64().unwrap(), v.im.to_f64().unwrap());
        let fill = Complex::new(T::cast(9.0), T::cast(9.0));
        let mut scratch = vec![fill; plan.scratch_len(count)];
        let want: Vec<Vec<Complex<f64>>> = (0..count)
            .map(|c| {
                let pencil: Vec<_> = (0..n).map(|i| wide(x[i * stride + c])).collect();
                direct(&pencil, sign)
            })
            .collect();
        for (isa, in_place) in Isa::available()
            .into_iter()
            .flat_map(|i| [(i, false), (i, true)])
        {
            let mut src = x.clone();
            let mut out = vec![fill; n * stride];
            let rows = |v: &mut Vec<Complex<T>>| Rows {
                base: v.as_mut_ptr(),
                stride: stride as isize,
            };
            let (srows, drows) = (rows(&mut src), rows(&mut out));
            let drows = if in_place { srows } else { drows };
            unsafe { plan.process_on(isa, srows, drows, count, &mut scratch) };
            let got = if in_place { &src } else { &out };
            let tol = eps * 8.0 * (n as f64).log2().max(1.0);
            for (c, want) in want.iter().enumerate() {
                let scale = want.iter().map(|v| v.norm()).fold(0.0, f64::max);
                for i in 0..n {
                    let e = (wide(got[i * stride + c]) - want[i]).norm() / scale;
                    assert!(
                        e < tol,
                        "n={n} {dir:?} {isa:?} in_place={in_place} c={c} i={i}: {e}"
                    );
                }
            }
            for i in 0..n {
                for c in count..stride {
                    let keep = if in_place { x[i * stride + c] } else { fill };
                    assert_eq!(got[i * stride + c], keep, "gap n={n} i={i} c={c}");
                }
            }
        }
    }
}
