//! Half-storage plans (`fftxh_*`) through the C interface: c2c, r2c and c2r of rank 1 to 3,
//! batched, strided, in and out of place, any size, against a direct DFT in f64 of the same
//! binary16 inputs (relative L2 error at most 1e-3 log2 N); the CPU twin is the f32 plan
//! rounded; gaps of strided outputs keep their values; bad input gives NULL plans. With
//! `FFTX_BACKEND=gpu` (the device runs) the same cases go through the GPU's path.

use fftx::half::{f16_from_f32, f32_from_f16};
use fftx::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::ffi::CStr;
use std::ptr::null;

fn rng(seed: u64) -> SmallRng {
    SmallRng::seed_from_u64(seed)
}

fn last_error() -> String {
    unsafe {
        CStr::from_ptr(fftx_last_error())
            .to_string_lossy()
            .into_owned()
    }
}

/// Random binary16 values in (-1, 1).
fn random_halves(r: &mut SmallRng, n: usize) -> Vec<u16> {
    (0..n)
        .map(|_| f16_from_f32(r.gen_range(-1.0f32..1.0)))
        .collect()
}

/// The multi-index of a row-major flat index.
fn unflatten(mut i: usize, shape: &[usize]) -> Vec<usize> {
    let mut idx = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        idx[d] = i % shape[d];
        i /= shape[d];
    }
    idx
}

/// A direct multi-dimensional DFT in f64 of packed row-major `x` of `shape`.
fn dft(x: &[(f64, f64)], shape: &[usize], sign: f64) -> Vec<(f64, f64)> {
    let total: usize = shape.iter().product();
    // Per-axis tables of exp(sign 2 pi i m / n).
    let tables: Vec<Vec<(f64, f64)>> = shape
        .iter()
        .map(|&n| {
            (0..n)
                .map(|m| {
                    let a = sign * 2.0 * std::f64::consts::PI * m as f64 / n as f64;
                    (a.cos(), a.sin())
                })
                .collect()
        })
        .collect();
    let idx: Vec<Vec<usize>> = (0..total).map(|i| unflatten(i, shape)).collect();
    (0..total)
        .map(|k| {
            let mut acc = (0.0, 0.0);
            for (j, xj) in x.iter().enumerate() {
                let mut w = (1.0, 0.0);
                for d in 0..shape.len() {
                    let t = tables[d][(idx[k][d] * idx[j][d]) % shape[d]];
                    w = (w.0 * t.0 - w.1 * t.1, w.0 * t.1 + w.1 * t.0);
                }
                acc.0 += xj.0 * w.0 - xj.1 * w.1;
                acc.1 += xj.0 * w.1 + xj.1 * w.0;
            }
            acc
        })
        .collect()
}

/// The reference transform: the direct DFT, or for long 1-D transforms (where it would take
/// minutes) rustfft's in f64.
fn reference(x: &[(f64, f64)], shape: &[usize], sign: i32) -> Vec<(f64, f64)> {
    if shape.len() > 1 || shape[0] <= 16384 {
        return dft(x, shape, sign as f64);
    }
    let dir = if sign < 0 {
        rustfft::FftDirection::Forward
    } else {
        rustfft::FftDirection::Inverse
    };
    let fft = rustfft::FftPlanner::<f64>::new().plan_fft(shape[0], dir);
    let mut v: Vec<rustfft::num_complex::Complex<f64>> = x
        .iter()
        .map(|&(re, im)| rustfft::num_complex::Complex::new(re, im))
        .collect();
    fft.process(&mut v);
    v.iter().map(|c| (c.re, c.im)).collect()
}

fn rel_l2(got: &[(f64, f64)], want: &[(f64, f64)]) -> f64 {
    let (mut e, mut w) = (0.0, 0.0);
    for (g, r) in got.iter().zip(want) {
        e += (g.0 - r.0).powi(2) + (g.1 - r.1).powi(2);
        w += r.0 * r.0 + r.1 * r.1;
    }
    (e / w.max(1e-300)).sqrt()
}

fn tolerance(shape: &[usize]) -> f64 {
    let n: usize = shape.iter().product();
    1e-3 * (n as f64).log2().max(1.0)
}

/// A strided layout: row-major with `stride` elements between neighbours, `dist` between
/// transforms (`dist` >= the transform's extent).
struct Layout {
    stride: usize,
    dist: usize,
}

/// Element `i` (row-major, the embedding is the shape) of transform `b`.
fn pos_of(b: usize, i: usize, l: &Layout) -> usize {
    b * l.dist + i * l.stride
}

/// Complex DFTs of `shape`, `howmany` of them, in the given layouts (in place if `in_place`).
fn check_c2c(
    shape: &[usize],
    howmany: usize,
    il: Layout,
    ol: Layout,
    sign: i32,
    in_place: bool,
    seed: u64,
) {
    let mut r = rng(seed);
    let total: usize = shape.iter().product();
    let ilen = (howmany - 1) * il.dist + (total - 1) * il.stride + 1;
    let olen = (howmany - 1) * ol.dist + (total - 1) * ol.stride + 1;
    let len = if in_place { ilen.max(olen) } else { ilen };
    let mut input: Vec<[u16; 2]> = (0..len)
        .map(|_| {
            let v = random_halves(&mut r, 2);
            [v[0], v[1]]
        })
        .collect();
    let sentinel = [0x1234u16, 0x4321u16];
    let mut output = vec![sentinel; olen];
    let n: Vec<i32> = shape.iter().map(|&x| x as i32).collect();
    let before = input.clone();
    unsafe {
        let (ip, op) = if in_place {
            (input.as_mut_ptr(), input.as_mut_ptr())
        } else {
            (input.as_mut_ptr(), output.as_mut_ptr())
        };
        let p = fftxh_plan_many_dft(
            n.len() as i32,
            n.as_ptr(),
            howmany as i32,
            ip,
            null(),
            il.stride as i32,
            il.dist as i32,
            op,
            null(),
            ol.stride as i32,
            ol.dist as i32,
            sign,
            FFTX_ESTIMATE,
        );
        assert!(!p.is_null(), "{}", last_error());
        fftxh_execute(p);
        assert!(
            last_error().is_empty() || !last_error().contains("fftxh_execute"),
            "{}",
            last_error()
        );
        fftxh_destroy_plan(p);
    }
    let result = if in_place { &input } else { &output };
    let w = |h: u16| f32_from_f16(h) as f64;
    for b in 0..howmany {
        let x: Vec<(f64, f64)> = (0..total)
            .map(|i| {
                let e = before[pos_of(b, i, &il)];
                (w(e[0]), w(e[1]))
            })
            .collect();
        let want = reference(&x, shape, sign);
        let got: Vec<(f64, f64)> = (0..total)
            .map(|i| {
                let e = result[pos_of(b, i, &ol)];
                (w(e[0]), w(e[1]))
            })
            .collect();
        let err = rel_l2(&got, &want);
        assert!(
            err <= tolerance(shape),
            "c2c {shape:?} x{howmany} sign {sign} in_place {in_place}: batch {b} error {err:e} > {:e}",
            tolerance(shape)
        );
    }
    // Out of place: the output's gaps keep their values.
    if !in_place && ol.stride > 1 {
        assert_eq!(
            output[1], sentinel,
            "a gap of the strided output was written"
        );
    }
}

#[test]
fn c2c_1d_any_size() {
    for (k, &n) in [
        1usize, 2, 3, 5, 7, 12, 16, 60, 97, 128, 243, 1000, 1024, 3125, 4096,
    ]
    .iter()
    .enumerate()
    {
        let howmany = if n > 1000 { 1 } else { 3 };
        let lay = || Layout { stride: 1, dist: n };
        check_c2c(&[n], howmany, lay(), lay(), -1, false, k as u64);
        check_c2c(&[n], howmany, lay(), lay(), 1, true, 100 + k as u64);
    }
}

/// Lengths over 4096 points: on the GPU, one pass kernel a pencil in the device's dynamic
/// shared memory where the pencils are contiguous (12288 in place, 5^6, 16384 on an H100 or
/// H200), passes over the digits of the length otherwise (12288 strided: two; 2^20: three;
/// 3 x 2^16), in place, both signs.
#[test]
fn c2c_1d_longer_than_one_pass() {
    let packed = |n: usize| Layout { stride: 1, dist: n };
    let n = 12288;
    let strided = Layout {
        stride: 2,
        dist: 2 * n + 3,
    };
    check_c2c(&[n], 2, strided, packed(n), -1, false, 41);
    check_c2c(&[n], 1, packed(n), packed(n), 1, true, 42);
    check_c2c(&[15625], 2, packed(15625), packed(15625), 1, true, 43);
    check_c2c(&[16384], 3, packed(16384), packed(16384), -1, false, 46);
    let n = 1 << 20;
    let spread = Layout {
        stride: 3,
        dist: 3 * n,
    };
    check_c2c(&[n], 1, packed(n), spread, -1, false, 44);
    check_c2c(&[3 << 16], 3, packed(3 << 16), packed(3 << 16), 1, true, 45);
}

/// The pass kernels of lengths over 4096 points against their CPU twin, `MultiPass::run` in
/// f32 on the widened input: for the digit passes with the split the plan takes, its scratch
/// and output rounded to binary16 as the kernels' are (its plan printed with "binary16
/// scratch"); for the one-pass kernels a pencil a block (16384 and 5^6 on an H100 or H200)
/// the same f32 transform rounded once. The same arithmetic up to f32 rounding (and the
/// twiddles' two-table products), so the outputs differ only where that moves a binary16
/// rounding of the scratch or the output (by a binary16 ulp, spread by the later passes): at
/// most 5e-5 a pass of the split (H200: 8.3e-5 over the three passes of 2^20), where a wrong
/// factor or digit gives O(1). Without a GPU the plan runs the f32 transform, which must
/// agree as closely.
#[test]
fn pass_kernels_match_their_cpu_twin() {
    use fftx::program::multipass::{ElementBytes, MultiPass};
    use num_complex::Complex;
    for (n, sign, seed) in [
        (3usize << 14, -1, 51),
        (78125, 1, 52),
        (1 << 20, -1, 53),
        (16384, 1, 54),
        (15625, -1, 55),
    ] {
        let mut r = rng(seed);
        let mut input: Vec<[u16; 2]> = random_halves(&mut r, 2 * n)
            .chunks(2)
            .map(|c| [c[0], c[1]])
            .collect();
        let mut output = vec![[0u16; 2]; n];
        let nn = n as i32;
        let on_gpu;
        unsafe {
            let p = fftxh_plan_many_dft(
                1,
                &nn,
                1,
                input.as_mut_ptr(),
                null(),
                1,
                nn,
                output.as_mut_ptr(),
                null(),
                1,
                nn,
                sign,
                FFTX_ESTIMATE,
            );
            assert!(!p.is_null(), "{}", last_error());
            fftxh_execute(p);
            let text = fftxh_sprint_plan(p);
            on_gpu = CStr::from_ptr(text)
                .to_string_lossy()
                .contains("binary16 scratch");
            libc::free(text as *mut std::ffi::c_void);
            fftxh_destroy_plan(p);
        }
        let split = MultiPass::choose(
            n,
            ElementBytes {
                user: 4,
                scratch: 4,
            },
        )
        .expect("a split of radices up to 16");
        let x: Vec<Complex<f32>> = input
            .iter()
            .map(|e| Complex::new(f32_from_f16(e[0]), f32_from_f16(e[1])))
            .collect();
        let (mut twin, mut scratch) = (vec![Complex::default(); n], vec![Complex::default(); n]);
        // The kernels' scratch holds binary16 (the CPU plan has none).
        let half = |v: f32| f32_from_f16(f16_from_f32(v));
        split.run(sign, &x, &mut twin, &mut scratch, |c| match on_gpu {
            true => Complex::new(half(c.re), half(c.im)),
            false => c,
        });
        let round = |v: f32| half(v) as f64;
        let want: Vec<(f64, f64)> = twin.iter().map(|c| (round(c.re), round(c.im))).collect();
        let w = |h: u16| f32_from_f16(h) as f64;
        let got: Vec<(f64, f64)> = output.iter().map(|e| (w(e[0]), w(e[1]))).collect();
        let err = rel_l2(&got, &want);
        let bound = 5e-5 * split.factors.len() as f64;
        assert!(
            err < bound,
            "n = {n} ({:?}): {err:e} from the twin",
            split.factors
        );
    }
}

#[test]
fn c2c_2d_3d_batched_strided() {
    // A last axis over 4096 points: one pencil a block in dynamic shared memory on the GPU.
    let packed = || Layout {
        stride: 1,
        dist: 2 * 6144,
    };
    check_c2c(&[2, 6144], 1, packed(), packed(), -1, false, 6);
    // A leading axis of 1024 or 2048 points: 8 pencils a block in dynamic shared memory (3 of
    // them live for 2048 x 3).
    for (k, shape) in [[1024usize, 8], [2048, 3]].iter().enumerate() {
        let total = shape[0] * shape[1];
        let lay = || Layout {
            stride: 1,
            dist: total,
        };
        check_c2c(shape, 2, lay(), lay(), 1, false, 7 + k as u64);
    }
    // A prime axis over 16 (the GPU's gather/cuFFT/scatter way), in place.
    check_c2c(
        &[17, 6],
        2,
        Layout {
            stride: 1,
            dist: 102,
        },
        Layout {
            stride: 1,
            dist: 102,
        },
        1,
        true,
        5,
    );
    check_c2c(
        &[12, 10],
        2,
        Layout {
            stride: 1,
            dist: 120,
        },
        Layout {
            stride: 1,
            dist: 120,
        },
        -1,
        false,
        1,
    );
    check_c2c(
        &[8, 9],
        3,
        Layout {
            stride: 2,
            dist: 150,
        },
        Layout {
            stride: 3,
            dist: 220,
        },
        1,
        false,
        2,
    );
    check_c2c(
        &[4, 6, 5],
        2,
        Layout {
            stride: 1,
            dist: 120,
        },
        Layout {
            stride: 1,
            dist: 120,
        },
        -1,
        true,
        3,
    );
    check_c2c(
        &[16, 16, 4],
        1,
        Layout {
            stride: 1,
            dist: 1024,
        },
        Layout {
            stride: 2,
            dist: 2048,
        },
        -1,
        false,
        4,
    );
}

/// r2c (n/2+1 outputs on the last axis) and c2r (its inverse, unnormalized) of rank 1 and 2.
#[test]
fn r2c_and_c2r() {
    for (k, shape) in [
        vec![1usize],
        vec![2],
        vec![15],
        vec![64],
        vec![1000],
        vec![8192],
        vec![6, 10],
        vec![5, 7],
        vec![4, 3, 6],
    ]
    .into_iter()
    .enumerate()
    {
        let mut r = rng(50 + k as u64);
        let howmany = 2usize;
        let total: usize = shape.iter().product();
        let last = *shape.last().unwrap();
        let mut cshape = shape.clone();
        *cshape.last_mut().unwrap() = last / 2 + 1;
        let ctotal: usize = cshape.iter().product();
        let n: Vec<i32> = shape.iter().map(|&x| x as i32).collect();
        let w = |h: u16| f32_from_f16(h) as f64;
        // r2c, out of place, packed.
        let mut x = random_halves(&mut r, total * howmany);
        let mut y = vec![[0u16; 2]; ctotal * howmany];
        unsafe {
            let p = fftxh_plan_many_dft_r2c(
                n.len() as i32,
                n.as_ptr(),
                howmany as i32,
                x.as_mut_ptr(),
                null(),
                1,
                total as i32,
                y.as_mut_ptr(),
                null(),
                1,
                ctotal as i32,
                FFTX_ESTIMATE,
            );
            assert!(!p.is_null(), "{}", last_error());
            fftxh_execute(p);
            fftxh_destroy_plan(p);
        }
        for b in 0..howmany {
            let xs: Vec<(f64, f64)> = (0..total).map(|i| (w(x[b * total + i]), 0.0)).collect();
            let full = dft(&xs, &shape, -1.0);
            let want: Vec<(f64, f64)> = (0..ctotal)
                .map(|c| {
                    let idx = unflatten(c, &cshape);
                    let flat = idx.iter().zip(&shape).fold(0, |a, (&i, &s)| a * s + i);
                    full[flat]
                })
                .collect();
            let got: Vec<(f64, f64)> = (0..ctotal)
                .map(|c| (w(y[b * ctotal + c][0]), w(y[b * ctotal + c][1])))
                .collect();
            let err = rel_l2(&got, &want);
            assert!(err <= tolerance(&shape), "r2c {shape:?}: error {err:e}");
        }
        // c2r of that (Hermitian) half spectrum, in place (FFTW's padded real layout).
        let pad = 2 * (last / 2 + 1);
        let rows = total / last;
        let mut buf = vec![[0u16; 2]; ctotal * howmany];
        buf.copy_from_slice(&y);
        let spectrum = buf.clone();
        unsafe {
            let p = fftxh_plan_many_dft_c2r(
                n.len() as i32,
                n.as_ptr(),
                howmany as i32,
                buf.as_mut_ptr(),
                null(),
                1,
                ctotal as i32,
                buf.as_mut_ptr() as *mut u16,
                null(),
                1,
                (ctotal * 2) as i32,
                FFTX_ESTIMATE,
            );
            assert!(!p.is_null(), "{}", last_error());
            fftxh_execute(p);
            fftxh_destroy_plan(p);
        }
        let out: &[u16] =
            unsafe { std::slice::from_raw_parts(buf.as_ptr() as *const u16, buf.len() * 2) };
        for b in 0..howmany {
            // The full spectrum by Hermitian symmetry, then the inverse DFT.
            let full: Vec<(f64, f64)> = (0..total)
                .map(|i| {
                    let idx = unflatten(i, &shape);
                    let l = idx.len() - 1;
                    let (src, conj) = if idx[l] <= last / 2 {
                        (idx.clone(), false)
                    } else {
                        (
                            idx.iter().zip(&shape).map(|(&i, &s)| (s - i) % s).collect(),
                            true,
                        )
                    };
                    let c = src.iter().zip(&cshape).fold(0, |a, (&i, &s)| a * s + i);
                    let e = spectrum[b * ctotal + c];
                    (w(e[0]), if conj { -w(e[1]) } else { w(e[1]) })
                })
                .collect();
            let want = dft(&full, &shape, 1.0);
            let got: Vec<(f64, f64)> = (0..total)
                .map(|i| {
                    let row = i / last;
                    (w(out[b * ctotal * 2 + row * pad + i % last]), 0.0)
                })
                .collect();
            let want: Vec<(f64, f64)> = want.iter().map(|v| (v.0, 0.0)).collect();
            let err = rel_l2(&got, &want);
            assert!(err <= tolerance(&shape), "c2r {shape:?}: error {err:e}");
            let _ = rows;
        }
    }
}

/// On the CPU the plan is the f32 plan of the widened data, rounded to nearest even: equal
/// bits to fftwf_ on the same values.
#[test]
fn the_cpu_twin_is_the_f32_transform_rounded() {
    if std::env::var("FFTX_BACKEND").is_ok_and(|v| v == "gpu") {
        return; // the GPU's f32 transform rounds differently from the CPU's
    }
    let n = 360usize;
    let mut r = rng(9);
    let mut x: Vec<[u16; 2]> = (0..n)
        .map(|_| {
            let v = random_halves(&mut r, 2);
            [v[0], v[1]]
        })
        .collect();
    let mut y = vec![[0u16; 2]; n];
    let mut xf: Vec<[f32; 2]> = x
        .iter()
        .map(|e| [f32_from_f16(e[0]), f32_from_f16(e[1])])
        .collect();
    let mut yf = vec![[0f32; 2]; n];
    unsafe {
        let p = fftxh_plan_many_dft(
            1,
            &(n as i32),
            1,
            x.as_mut_ptr(),
            null(),
            1,
            0,
            y.as_mut_ptr(),
            null(),
            1,
            0,
            -1,
            FFTX_ESTIMATE,
        );
        assert!(!p.is_null(), "{}", last_error());
        fftxh_execute(p);
        fftxh_destroy_plan(p);
        let q = fftwf_plan_dft_1d(
            n as i32,
            xf.as_mut_ptr(),
            yf.as_mut_ptr(),
            -1,
            FFTW_ESTIMATE,
        );
        fftwf_execute(q);
        fftwf_destroy_plan(q);
    }
    for k in 0..n {
        assert_eq!(
            y[k],
            [f16_from_f32(yf[k][0]), f16_from_f32(yf[k][1])],
            "bin {k}"
        );
    }
}

/// New-array executes: same layout, other arrays; in place only if the plan is.
#[test]
fn new_array_execute_and_errors() {
    let n = 48i32;
    let mut a = vec![[0u16; 2]; 48];
    let mut b = vec![[0u16; 2]; 48];
    let mut r = rng(11);
    let mut c: Vec<[u16; 2]> = (0..48)
        .map(|_| {
            let v = random_halves(&mut r, 2);
            [v[0], v[1]]
        })
        .collect();
    let mut d = vec![[0u16; 2]; 48];
    unsafe {
        let p = fftxh_plan_many_dft(
            1,
            &n,
            1,
            a.as_mut_ptr(),
            null(),
            1,
            48,
            b.as_mut_ptr(),
            null(),
            1,
            48,
            -1,
            FFTX_MEASURE,
        );
        assert!(!p.is_null(), "{}", last_error());
        fftxh_execute_dft(p, c.as_mut_ptr(), d.as_mut_ptr());
        let w = |h: u16| f32_from_f16(h) as f64;
        let x: Vec<(f64, f64)> = c.iter().map(|e| (w(e[0]), w(e[1]))).collect();
        let got: Vec<(f64, f64)> = d.iter().map(|e| (w(e[0]), w(e[1]))).collect();
        assert!(rel_l2(&got, &dft(&x, &[48], -1.0)) <= tolerance(&[48]));
        // In place on an out-of-place plan: refused, the output untouched.
        let keep = c.clone();
        fftxh_execute_dft(p, c.as_mut_ptr(), c.as_mut_ptr());
        assert!(last_error().contains("out of place"), "{}", last_error());
        assert_eq!(c, keep);
        // A c2c plan to the r2c execute.
        fftxh_execute_dft_r2c(p, c.as_mut_ptr() as *mut u16, d.as_mut_ptr());
        assert!(last_error().contains("r2c"), "{}", last_error());
        fftxh_destroy_plan(p);
        // A destroyed plan is not live.
        fftxh_execute(p);
        assert!(
            last_error().contains("not a live fftxh plan"),
            "{}",
            last_error()
        );
        fftxh_destroy_plan(std::ptr::null_mut());
    }
}

#[test]
fn bad_input_gives_null_plans() {
    let mut a = vec![[0u16; 2]; 16];
    let ap = a.as_mut_ptr();
    unsafe {
        let bad = [
            fftxh_plan_many_dft(
                1,
                null(),
                1,
                ap,
                null(),
                1,
                16,
                ap,
                null(),
                1,
                16,
                -1,
                FFTX_ESTIMATE,
            ),
            fftxh_plan_many_dft(
                1,
                &0,
                1,
                ap,
                null(),
                1,
                16,
                ap,
                null(),
                1,
                16,
                -1,
                FFTX_ESTIMATE,
            ),
            fftxh_plan_many_dft(
                1,
                &-4,
                1,
                ap,
                null(),
                1,
                16,
                ap,
                null(),
                1,
                16,
                -1,
                FFTX_ESTIMATE,
            ),
            fftxh_plan_many_dft(
                -1,
                &16,
                1,
                ap,
                null(),
                1,
                16,
                ap,
                null(),
                1,
                16,
                -1,
                FFTX_ESTIMATE,
            ),
            fftxh_plan_many_dft(
                1,
                &16,
                -2,
                ap,
                null(),
                1,
                16,
                ap,
                null(),
                1,
                16,
                -1,
                FFTX_ESTIMATE,
            ),
            fftxh_plan_many_dft(
                1,
                &16,
                1,
                ap,
                null(),
                1,
                16,
                ap,
                null(),
                1,
                16,
                3,
                FFTX_ESTIMATE,
            ),
            fftxh_plan_many_dft(1, &16, 1, ap, null(), 1, 16, ap, null(), 1, 16, -1, 1 << 30),
            fftxh_plan_many_dft(
                3,
                [1 << 30, 1 << 30, 1 << 30].as_ptr(),
                1,
                ap,
                null(),
                1,
                16,
                ap,
                null(),
                1,
                16,
                -1,
                FFTX_ESTIMATE,
            ),
        ];
        for (k, p) in bad.iter().enumerate() {
            assert!(p.is_null(), "case {k} made a plan");
        }
        assert!(!last_error().is_empty());
        // NULL arrays plan (in place, FFTW's rule for equal pointers); executing them needs
        // new arrays.
        let p = fftxh_plan_many_dft(
            1,
            &16,
            1,
            std::ptr::null_mut(),
            null(),
            1,
            16,
            std::ptr::null_mut(),
            null(),
            1,
            16,
            -1,
            FFTX_ESTIMATE,
        );
        assert!(!p.is_null(), "{}", last_error());
        fftxh_execute(p);
        assert!(last_error().contains("NULL arrays"), "{}", last_error());
        let mut b = vec![[0u16; 2]; 16];
        b[0] = [f16_from_f32(1.0), 0];
        fftxh_execute_dft(p, b.as_mut_ptr(), b.as_mut_ptr());
        assert!(b.iter().all(|e| *e == [f16_from_f32(1.0), 0]), "{b:?}");
        fftxh_destroy_plan(p);
    }
}

#[test]
fn the_plan_prints_what_runs() {
    let mut a = vec![[0u16; 2]; 30];
    unsafe {
        let p = fftxh_plan_many_dft(
            1,
            &30,
            1,
            a.as_mut_ptr(),
            null(),
            1,
            30,
            a.as_mut_ptr(),
            null(),
            1,
            30,
            1,
            FFTX_ESTIMATE,
        );
        assert!(!p.is_null(), "{}", last_error());
        fftxh_print_plan(p);
        let s = fftxh_sprint_plan(p);
        assert!(!s.is_null(), "{}", last_error());
        let text = CStr::from_ptr(s).to_string_lossy().into_owned();
        libc::free(s as *mut std::ffi::c_void);
        assert!(text.contains("binary16") && text.contains("f32"), "{text}");
        assert!(
            text.contains("dft") || text.contains("Dft") || text.contains("30"),
            "{text}"
        );
        fftxh_destroy_plan(p);
        assert!(fftxh_sprint_plan(p).is_null());
    }
}

/// Rank 4 (the CPU twin takes any rank; the GPU sends it through the host) and an empty batch.
#[test]
fn rank_four_and_empty_batches() {
    let shape = [2usize, 3, 2, 4];
    check_c2c(
        &shape,
        2,
        Layout {
            stride: 1,
            dist: 48,
        },
        Layout {
            stride: 1,
            dist: 48,
        },
        -1,
        false,
        21,
    );
    let mut a = vec![[0x3c00u16, 0]; 8];
    let mut b = vec![[0x1111u16, 0x2222]; 8];
    unsafe {
        let p = fftxh_plan_many_dft(
            1,
            &8,
            0,
            a.as_mut_ptr(),
            null(),
            1,
            8,
            b.as_mut_ptr(),
            null(),
            1,
            8,
            -1,
            FFTX_ESTIMATE,
        );
        assert!(!p.is_null(), "{}", last_error());
        fftxh_execute(p);
        fftxh_destroy_plan(p);
    }
    assert!(b.iter().all(|e| *e == [0x1111, 0x2222]), "howmany 0 wrote");
}

/// r2c into a strided output and c2r out of place, odd lengths, against the direct DFT.
#[test]
fn r2c_strided_and_c2r_out_of_place() {
    let n = 9usize;
    let h = n / 2 + 1;
    let mut r = rng(31);
    let w = |x: u16| f32_from_f16(x) as f64;
    let mut x = random_halves(&mut r, n * 2);
    // Output: stride 2 complex elements, 12 apart; the gaps keep their values.
    let mut y = vec![[0x7777u16, 0x7777]; 24];
    unsafe {
        let p = fftxh_plan_many_dft_r2c(
            1,
            &(n as i32),
            2,
            x.as_mut_ptr(),
            null(),
            1,
            n as i32,
            y.as_mut_ptr(),
            null(),
            2,
            12,
            FFTX_ESTIMATE,
        );
        assert!(!p.is_null(), "{}", last_error());
        fftxh_execute(p);
        fftxh_destroy_plan(p);
    }
    for b in 0..2 {
        let xs: Vec<(f64, f64)> = (0..n).map(|i| (w(x[b * n + i]), 0.0)).collect();
        let want = dft(&xs, &[n], -1.0);
        let got: Vec<(f64, f64)> = (0..h)
            .map(|k| (w(y[b * 12 + 2 * k][0]), w(y[b * 12 + 2 * k][1])))
            .collect();
        let err = rel_l2(&got, &want[..h]);
        assert!(err <= tolerance(&[n]), "r2c batch {b}: {err:e}");
        assert_eq!(y[b * 12 + 1], [0x7777, 0x7777], "a gap was written");
    }
    // c2r of the first spectrum, out of place.
    let mut spec: Vec<[u16; 2]> = (0..h).map(|k| y[2 * k]).collect();
    let mut out = vec![0u16; n];
    unsafe {
        let p = fftxh_plan_many_dft_c2r(
            1,
            &(n as i32),
            1,
            spec.as_mut_ptr(),
            null(),
            1,
            h as i32,
            out.as_mut_ptr(),
            null(),
            1,
            n as i32,
            FFTX_ESTIMATE,
        );
        assert!(!p.is_null(), "{}", last_error());
        fftxh_execute(p);
        fftxh_destroy_plan(p);
    }
    // The inverse of the rounded spectrum (Hermitian-extended), unnormalized.
    let full: Vec<(f64, f64)> = (0..n)
        .map(|j| {
            if j < h {
                (w(y[2 * j][0]), w(y[2 * j][1]))
            } else {
                (w(y[2 * (n - j)][0]), -w(y[2 * (n - j)][1]))
            }
        })
        .collect();
    let want: Vec<(f64, f64)> = dft(&full, &[n], 1.0).iter().map(|v| (v.0, 0.0)).collect();
    let got: Vec<(f64, f64)> = out.iter().map(|&v| (w(v), 0.0)).collect();
    let err = rel_l2(&got, &want);
    assert!(err <= tolerance(&[n]), "c2r: {err:e}");
}
