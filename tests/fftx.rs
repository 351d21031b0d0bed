//! FFTX through its C interface: composed plans against independent f64 references (direct
//! convolutions and DFTs), the paper's assignment semantics, pruning and fusion seen in the plan
//! printout and in the executed transform counts, and the errors.

use fftx::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::ffi::{c_void, CStr};
use std::ptr::null_mut;

/// The single-precision twins (`fftxf_*`), in tests/fftx/single.rs.
#[path = "fftx/single.rs"]
mod single;

const MODE: u32 = FFTX_ESTIMATE | FFTX_OBSERVE;
const SUB: u32 = MODE | FFTX_SUBPLAN;

fn rng(seed: u64) -> SmallRng {
    SmallRng::seed_from_u64(seed)
}
/// Random values away from zero.
fn randv(r: &mut SmallRng, n: usize) -> Vec<f64> {
    (0..n)
        .map(|_| r.gen_range(0.1..1.0) * if r.gen_bool(0.5) { 1.0 } else { -1.0 })
        .collect()
}
fn last_error() -> String {
    unsafe {
        CStr::from_ptr(fftx_last_error())
            .to_string_lossy()
            .into_owned()
    }
}
fn printout(p: fftx_plan) -> String {
    unsafe {
        let s = fftx_sprint_plan(p);
        assert!(!s.is_null(), "{}", last_error());
        let t = CStr::from_ptr(s).to_string_lossy().into_owned();
        libc::free(s as *mut c_void);
        t
    }
}
/// (1-D transforms per execute, of the unoptimized graph, executed so far).
fn counts(p: fftx_plan) -> (u64, u64, u64) {
    let s = printout(p);
    let num = |key: &str| -> u64 {
        let i = s.find(key).unwrap_or_else(|| panic!("no {key:?} in {s}")) + key.len();
        s[i..]
            .trim_start()
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    (
        num("1-D transforms per execute:"),
        num("unoptimized graph:"),
        num("(executed:"),
    )
}
fn tol(n: usize) -> f64 {
    1e-14 * (n as f64).log2().max(1.0) * 8.0
}
fn assert_close(got: &[f64], want: &[f64], n: usize, what: &str) {
    let scale = want.iter().fold(0.0f64, |m, x| m.max(x.abs())).max(1e-300);
    let err = got
        .iter()
        .zip(want)
        .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()))
        / scale;
    assert!(
        err < tol(n),
        "{what}: relative error {err:e} > {:e}",
        tol(n)
    );
}

fn d(n: usize, is: usize, os: usize) -> fftx_iodim {
    fftx_iodim {
        n: n as i32,
        is: is as i32,
        os: os as i32,
    }
}
fn dx(n: usize, iofs: i32, oofs: i32, is: i32, os: i32) -> fftx_iodimx {
    fftx_iodimx {
        n: n as i32,
        iofs,
        oofs,
        dofs: 0,
        is,
        os,
        ds: 1,
    }
}

/// Fig. 4: complex multiply by the symbol.
unsafe extern "C" fn cplx_scaling(i: *mut c_void, o: *mut c_void, data: *mut c_void) {
    let t = fftx_pointwise_temp_complex();
    fftx_pointwise_complex(0, t, i as *mut fftx_complex);
    fftx_pointwise_complex(3, t, data as *mut fftx_complex);
    fftx_pointwise_complex(0, o as *mut fftx_complex, t);
}

/// The kernel's half spectrum over an n^rank grid (last axis halved), strides 1, n, n^2 ... as
/// in Fig. 6 (dims listed fastest first): G_k = sum_p w_p e^{-2 pi i k.p/n} / n^rank.
fn symbol(n: usize, rank: usize, kernel: &[(Vec<usize>, f64)]) -> Vec<fftx_complex> {
    let nk = n / 2 + 1;
    let total = (n as f64).powi(rank as i32);
    let count = n.pow(rank as u32 - 1) * nk;
    let mut g = vec![[0.0; 2]; count];
    for (idx, gv) in g.iter_mut().enumerate() {
        // dims fastest first: k0 = idx % n, k1 = idx / n % n, ..., last (halved) slowest.
        let mut k = vec![0usize; rank];
        let mut r = idx;
        for (a, kk) in k.iter_mut().enumerate() {
            let len = if a == rank - 1 { nk } else { n };
            *kk = r % len;
            r /= len;
        }
        for (p, w) in kernel {
            let phase = -2.0
                * std::f64::consts::PI
                * k.iter()
                    .zip(p)
                    .map(|(&a, &b)| (a * b % n) as f64)
                    .sum::<f64>()
                / n as f64;
            gv[0] += w * phase.cos() / total;
            gv[1] += w * phase.sin() / total;
        }
    }
    g
}

struct Conv {
    plan: fftx_plan,
    subplans: Vec<fftx_plan>,
    temps: (
        fftx_temp_real,
        fftx_temp_complex,
        fftx_temp_complex,
        fftx_temp_real,
    ),
}

/// Fig. 2 (rank 1) / Fig. 6 (rank 3): zero-pad `ns`^rank of `input`, r2c, multiply by `g`,
/// c2r, keep the last `nd`^rank in `out`. Dims are listed fastest first, as in the paper.
#[allow(clippy::too_many_arguments)]
unsafe fn pruned_conv(
    rank: usize,
    n: usize,
    ns: usize,
    nd: usize,
    input: *mut f64,
    out: *mut f64,
    g: *mut fftx_complex,
    flags: u32,
) -> Conv {
    let nk = n / 2 + 1;
    let rk = rank as i32;
    let pw = |k: usize| n.pow(k as u32);
    let p_d: Vec<fftx_iodim> = (0..rank).map(|k| d(n, pw(k), pw(k))).collect();
    let f_d: Vec<fftx_iodim> = (0..rank)
        .map(|k| d(if k == rank - 1 { nk } else { n }, pw(k), pw(k)))
        .collect();
    let b_d = d(1, 1, 1);
    let i_dx: Vec<fftx_iodimx> = (0..rank)
        .map(|k| dx(ns, 0, 0, ns.pow(k as u32) as i32, pw(k) as i32))
        .collect();
    let o_dx: Vec<fftx_iodimx> = (0..rank)
        .map(|k| {
            dx(
                nd,
                (n - nd) as i32,
                0,
                pw(k) as i32,
                nd.pow(k as u32) as i32,
            )
        })
        .collect();
    let f_dx: Vec<fftx_iodimx> = (0..rank)
        .map(|k| fftx_iodimx {
            n: f_d[k].n,
            iofs: 0,
            oofs: 0,
            dofs: 0,
            is: f_d[k].is,
            os: f_d[k].os,
            ds: f_d[k].is,
        })
        .collect();
    let b_dx = fftx_iodimx {
        n: 1,
        iofs: 0,
        oofs: 0,
        dofs: 0,
        is: 1,
        os: 1,
        ds: 1,
    };
    let tmp1 = fftx_create_zero_temp_real(rk, p_d.as_ptr());
    let tmp2 = fftx_create_temp_complex(rk, f_d.as_ptr());
    let tmp3 = fftx_create_temp_complex(rk, f_d.as_ptr());
    let tmp4 = fftx_create_temp_real(rk, p_d.as_ptr());
    let plans = vec![
        fftx_plan_guru_copy_real(rk, i_dx.as_ptr(), input, tmp1, SUB),
        fftx_plan_guru_dft_r2c(rk, p_d.as_ptr(), 0, &b_d, tmp1, tmp2, SUB),
        fftx_plan_guru_pointwise_c2c(
            rk,
            f_dx.as_ptr(),
            0,
            &b_dx,
            tmp2,
            tmp3,
            g,
            Some(cplx_scaling),
            SUB,
        ),
        fftx_plan_guru_dft_c2r(rk, p_d.as_ptr(), 0, &b_d, tmp3, tmp4, SUB),
        fftx_plan_guru_copy_real(rk, o_dx.as_ptr(), tmp4, out, SUB),
    ];
    for (k, p) in plans.iter().enumerate() {
        assert!(!p.is_null(), "subplan {k}: {}", last_error());
    }
    let plan = fftx_plan_compose(5, plans.as_ptr(), flags);
    assert!(!plan.is_null(), "{}", last_error());
    Conv {
        plan,
        subplans: plans,
        temps: (tmp1, tmp2, tmp3, tmp4),
    }
}

unsafe fn release(c: Conv) {
    fftx_destroy_plan(c.plan);
    for p in c.subplans {
        fftx_destroy_plan(p);
    }
    fftx_destroy_temp_real(c.temps.0);
    fftx_destroy_temp_complex(c.temps.1);
    fftx_destroy_temp_complex(c.temps.2);
    fftx_destroy_temp_real(c.temps.3);
}

/// Direct pruned cyclic convolution: out[x] = sum_p w_p in_pad[(x + (n-nd) - p) mod n], the
/// arrays of extent ns^rank (input) and nd^rank (output) stored fastest-first.
fn direct(
    rank: usize,
    n: usize,
    ns: usize,
    nd: usize,
    input: &[f64],
    kernel: &[(Vec<usize>, f64)],
) -> Vec<f64> {
    let count = nd.pow(rank as u32);
    let mut out = vec![0.0; count];
    for (o, v) in out.iter_mut().enumerate() {
        let mut x = vec![0usize; rank];
        let mut r = o;
        for xx in x.iter_mut() {
            *xx = r % nd + (n - nd);
            r /= nd;
        }
        for (p, w) in kernel {
            let mut off = 0;
            let mut inside = true;
            for a in (0..rank).rev() {
                let y = (x[a] + n - p[a]) % n;
                inside &= y < ns;
                off = off * ns + y;
            }
            if inside {
                *v += w * input[off];
            }
        }
    }
    out
}

fn random_kernel(r: &mut SmallRng, rank: usize, n: usize, points: usize) -> Vec<(Vec<usize>, f64)> {
    (0..points)
        .map(|_| {
            (
                (0..rank).map(|_| r.gen_range(0..n)).collect(),
                r.gen_range(0.5..1.5),
            )
        })
        .collect()
}

fn full_kernel(r: &mut SmallRng, rank: usize, n: usize) -> Vec<(Vec<usize>, f64)> {
    (0..n.pow(rank as u32))
        .map(|i| {
            (
                (0..rank).map(|a| i / n.pow(a as u32) % n).collect(),
                r.gen_range(-1.0..1.0),
            )
        })
        .collect()
}

#[test]
fn fig2_pruned_1d_convolution_matches_direct_convolution() {
    for &(n, ns, nd) in &[
        (8usize, 3usize, 5usize),
        (64, 20, 33),
        (30, 30, 30),
        (17, 4, 9),
    ] {
        let mut r = rng(n as u64);
        let mut input = randv(&mut r, ns);
        let kernel = full_kernel(&mut r, 1, n);
        let mut g = symbol(n, 1, &kernel);
        let want = direct(1, n, ns, nd, &input, &kernel);
        for flags in [MODE, MODE | FFTX_NO_OPTIMIZE] {
            let mut out = vec![7.0; nd];
            unsafe {
                let c = pruned_conv(
                    1,
                    n,
                    ns,
                    nd,
                    input.as_mut_ptr(),
                    out.as_mut_ptr(),
                    g.as_mut_ptr(),
                    flags,
                );
                fftx_execute(c.plan);
                assert_close(
                    &out,
                    &want,
                    n,
                    &format!("n={n} ns={ns} nd={nd} flags={flags:#x}"),
                );
                // A second execute gives the same result (zero temporaries are zero again).
                out.iter_mut().for_each(|x| *x = -3.0);
                fftx_execute(c.plan);
                assert_close(&out, &want, n, "second execute");
                release(c);
            }
        }
    }
}

#[test]
fn fig6_pruned_3d_convolution_small_full_kernel() {
    let (n, ns, nd) = (12, 5, 7);
    let mut r = rng(6);
    let mut input = randv(&mut r, ns * ns * ns);
    let kernel = full_kernel(&mut r, 3, n);
    let mut g = symbol(n, 3, &kernel);
    let want = direct(3, n, ns, nd, &input, &kernel);
    let mut out = vec![0.0; nd * nd * nd];
    unsafe {
        let c = pruned_conv(
            3,
            n,
            ns,
            nd,
            input.as_mut_ptr(),
            out.as_mut_ptr(),
            g.as_mut_ptr(),
            MODE,
        );
        // Twice, the first time on other data: nothing of an earlier execute leaks into the next.
        let keep = input.clone();
        input.iter_mut().for_each(|x| *x = -*x + 0.5);
        fftx_execute(c.plan);
        input.copy_from_slice(&keep);
        fftx_execute(c.plan);
        assert_close(&out, &want, n * n * n, "3-D");
        let text = printout(c.plan);
        assert!(text.contains("steps=1 "), "{text}");
        assert!(text.contains("(temporaries none)"), "{text}");
        release(c);
    }
}

/// The acceptance case: N = 128, N_s = N_d = 64. The pruned graph does fewer 1-D
/// transforms than the unpruned one, by its plan and by what it executed; every output checked
/// against a direct convolution with a sparse kernel.
#[test]
fn fig6_pruned_3d_convolution_n128_does_fewer_transforms() {
    let (n, ns, nd) = (128, 64, 64);
    let mut r = rng(128);
    let mut input = randv(&mut r, ns * ns * ns);
    let kernel = random_kernel(&mut r, 3, n, 6);
    let mut g = symbol(n, 3, &kernel);
    let want = direct(3, n, ns, nd, &input, &kernel);
    let mut out = vec![0.0; nd * nd * nd];
    unsafe {
        let c = pruned_conv(
            3,
            n,
            ns,
            nd,
            input.as_mut_ptr(),
            out.as_mut_ptr(),
            g.as_mut_ptr(),
            MODE,
        );
        fftx_execute(c.plan);
        assert_close(&out, &want, n * n * n, "N=128");
        let (planned, unpruned, executed) = counts(c.plan);
        // r2c: 64*64 + 64*65 + 128*65; c2r: 128*65 + 64*65 + 64*64.
        assert_eq!(planned, 2 * (64 * 64 + 64 * 65 + 128 * 65));
        assert_eq!(unpruned, 2 * (128 * 128 + 2 * 128 * 65));
        assert_eq!(executed, planned);
        assert!(
            planned * 2 < unpruned + unpruned / 50,
            "{planned} vs {unpruned}"
        );
        let reference = pruned_conv(
            3,
            n,
            ns,
            nd,
            input.as_mut_ptr(),
            out.as_mut_ptr(),
            g.as_mut_ptr(),
            MODE | FFTX_NO_OPTIMIZE,
        );
        out.iter_mut().for_each(|x| *x = 0.0);
        fftx_execute(reference.plan);
        assert_close(&out, &want, n * n * n, "N=128 unoptimized");
        let (p2, u2, e2) = counts(reference.plan);
        assert_eq!((p2, u2, e2), (unpruned, unpruned, unpruned));
        release(c);
        release(reference);
    }
}

#[test]
fn printout_shows_pruning_and_fusion() {
    let (n, ns, nd) = (16, 4, 6);
    let mut r = rng(3);
    let mut input = randv(&mut r, ns);
    let mut g = symbol(n, 1, &random_kernel(&mut r, 1, n, 3));
    let mut out = vec![0.0; nd];
    unsafe {
        let c = pruned_conv(
            1,
            n,
            ns,
            nd,
            input.as_mut_ptr(),
            out.as_mut_ptr(),
            g.as_mut_ptr(),
            MODE,
        );
        let s = printout(c.plan);
        // One chain made of all five subplans: the copies became the load and the store, the
        // pointwise runs in the work buffer, no temporary is left.
        assert!(s.contains("(fftx-plan subplans=5 steps=1 optimized"), "{s}");
        assert!(s.contains("(temporaries none)"), "{s}");
        assert!(s.contains("(load [0..4] from real-array"), "{s}");
        assert!(
            s.contains("(dft-r2c n=[16] live-in=[0..4] live-out=[0..9]"),
            "{s}"
        );
        assert!(
            s.contains("(pointwise \"mov t0 in; mul t0 data; mov out t0\" data=complex-array"),
            "{s}"
        );
        assert!(
            s.contains("(dft-c2r n=[16] live-in=[0..9] live-out=[10..16]"),
            "{s}"
        );
        assert!(s.contains("(store [10..16] to real-array"), "{s}");
        let u = pruned_conv(
            1,
            n,
            ns,
            nd,
            input.as_mut_ptr(),
            out.as_mut_ptr(),
            g.as_mut_ptr(),
            MODE | FFTX_NO_OPTIMIZE,
        );
        let s = printout(u.plan);
        assert!(s.contains("subplans=5 steps=5 unoptimized"), "{s}");
        assert!(s.matches("temp#").count() >= 4, "{s}");
        release(c);
        release(u);
    }
}

/// A single-node FFTX DFT computes what the FFTW plan computes (the same path).
#[test]
fn single_node_plans_match_fftw_plans() {
    let mut r = rng(11);
    let (n0, n1) = (6usize, 10usize);
    let input: Vec<f64> = randv(&mut r, 2 * n0 * n1);
    let dims = [d(n0, n1, n1), d(n1, 1, 1)];
    let fd = [
        fftx::fftw_iodim {
            n: n0 as i32,
            is: n1 as i32,
            os: n1 as i32,
        },
        fftx::fftw_iodim {
            n: n1 as i32,
            is: 1,
            os: 1,
        },
    ];
    let mut a = input.clone();
    let mut b = input.clone();
    let mut oa = vec![0.0; 2 * n0 * n1];
    let mut ob = vec![0.0; 2 * n0 * n1];
    unsafe {
        let p = fftx_plan_guru_dft(
            2,
            dims.as_ptr(),
            0,
            null_mut(),
            a.as_mut_ptr() as *mut fftx_complex,
            oa.as_mut_ptr() as *mut fftx_complex,
            FFTX_FORWARD,
            FFTX_ESTIMATE,
        );
        assert!(!p.is_null(), "{}", last_error());
        fftx_execute(p);
        let q = fftx::fftw_plan_guru_dft(
            2,
            fd.as_ptr(),
            0,
            std::ptr::null(),
            b.as_mut_ptr() as *mut [f64; 2],
            ob.as_mut_ptr() as *mut [f64; 2],
            -1,
            fftx::FFTW_ESTIMATE,
        );
        fftx::fftw_execute(q);
        fftx::fftw_destroy_plan(q);
        assert_eq!(oa, ob);
        // And against a direct 2-D DFT.
        let mut want = vec![0.0; 2 * n0 * n1];
        for k0 in 0..n0 {
            for k1 in 0..n1 {
                let (mut re, mut im) = (0.0, 0.0);
                for j0 in 0..n0 {
                    for j1 in 0..n1 {
                        let ph = -2.0
                            * std::f64::consts::PI
                            * ((k0 * j0) as f64 / n0 as f64 + (k1 * j1) as f64 / n1 as f64);
                        let (x, y) = (input[2 * (j0 * n1 + j1)], input[2 * (j0 * n1 + j1) + 1]);
                        re += x * ph.cos() - y * ph.sin();
                        im += x * ph.sin() + y * ph.cos();
                    }
                }
                want[2 * (k0 * n1 + k1)] = re;
                want[2 * (k0 * n1 + k1) + 1] = im;
            }
        }
        assert_close(&oa, &want, n0 * n1, "2-D dft");
        let s = printout(p);
        assert!(s.contains("fftx_plan_guru_dft dft-forward"), "{s}");
        fftx_destroy_plan(p);
    }
}

/// Copies assign only what they address; offsets and negative strides reverse.
#[test]
fn copies_keep_untouched_entries_and_reverse_with_negative_strides() {
    let mut src: Vec<f64> = (0..12).map(|x| x as f64 + 0.5).collect();
    let mut dst = vec![-1.0; 12];
    // dst[2..6] = src[7], src[6], src[5], src[4] (index j at (7 - j)*1).
    let dims = [fftx_iodimx {
        n: 4,
        iofs: 7,
        oofs: 2,
        dofs: 0,
        is: -1,
        os: 1,
        ds: 1,
    }];
    unsafe {
        let p =
            fftx_plan_guru_copy_real(1, dims.as_ptr(), src.as_mut_ptr(), dst.as_mut_ptr(), MODE);
        assert!(!p.is_null(), "{}", last_error());
        fftx_execute(p);
        fftx_destroy_plan(p);
    }
    assert_eq!(
        dst,
        vec![-1.0, -1.0, 7.5, 6.5, 5.5, 4.5, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0]
    );
    // Through a zero temporary: copy part in, copy all out: the rest is zero.
    unsafe {
        let t = fftx_create_zero_temp_real(1, &d(6, 1, 1));
        let a = [fftx_iodimx {
            n: 2,
            iofs: 0,
            oofs: 3,
            dofs: 0,
            is: 1,
            os: 1,
            ds: 1,
        }];
        let b = [fftx_iodimx {
            n: 6,
            iofs: 0,
            oofs: 0,
            dofs: 0,
            is: 1,
            os: 1,
            ds: 1,
        }];
        let plans = [
            fftx_plan_guru_copy_real(1, a.as_ptr(), src.as_mut_ptr(), t, SUB),
            fftx_plan_guru_copy_real(1, b.as_ptr(), t, dst.as_mut_ptr(), SUB),
        ];
        let p = fftx_plan_compose(2, plans.as_ptr(), MODE);
        assert!(!p.is_null(), "{}", last_error());
        fftx_execute(p);
        assert_eq!(&dst[..7], &[0.0, 0.0, 0.0, 0.5, 1.5, 0.0, -1.0]);
        fftx_destroy_plan(p);
        plans.iter().for_each(|&q| fftx_destroy_plan(q));
        fftx_destroy_temp_real(t);
    }
}

unsafe extern "C" fn axpy_real(i: *mut c_void, o: *mut c_void, data: *mut c_void) {
    let t = fftx_pointwise_temp_real();
    fftx_pointwise_real(0, t, i as *mut f64);
    fftx_pointwise_real_scale(t, 2.0);
    fftx_pointwise_real(1, t, data as *mut f64);
    fftx_pointwise_real(0, o as *mut f64, t);
}

unsafe extern "C" fn conj_minus(i: *mut c_void, o: *mut c_void, data: *mut c_void) {
    fftx_pointwise_complex(0, o as *mut fftx_complex, i as *mut fftx_complex);
    fftx_pointwise_complex(5, o as *mut fftx_complex, o as *mut fftx_complex);
    fftx_pointwise_complex(2, o as *mut fftx_complex, data as *mut fftx_complex);
    fftx_pointwise_complex(6, o as *mut fftx_complex, o as *mut fftx_complex);
}

#[test]
fn standalone_pointwise_with_howmany_and_data_strides() {
    let mut r = rng(5);
    let (n, m) = (5usize, 3usize);
    // Real: out[j*n+k] = 2*in[j*n+k] + data[k] (data broadcast over the howmany loop).
    let mut input = randv(&mut r, n * m);
    let mut data = randv(&mut r, n);
    let mut out = vec![0.0; n * m];
    let dims = [fftx_iodimx {
        n: n as i32,
        iofs: 0,
        oofs: 0,
        dofs: 0,
        is: 1,
        os: 1,
        ds: 1,
    }];
    let hd = [fftx_iodimx {
        n: m as i32,
        iofs: 0,
        oofs: 0,
        dofs: 0,
        is: n as i32,
        os: n as i32,
        ds: 0,
    }];
    unsafe {
        let p = fftx_plan_guru_pointwise_r2r(
            1,
            dims.as_ptr(),
            1,
            hd.as_ptr(),
            input.as_mut_ptr(),
            out.as_mut_ptr(),
            data.as_mut_ptr(),
            Some(axpy_real),
            MODE,
        );
        assert!(!p.is_null(), "{}", last_error());
        fftx_execute(p);
        fftx_destroy_plan(p);
    }
    for j in 0..m {
        for k in 0..n {
            assert!((out[j * n + k] - (2.0 * input[j * n + k] + data[k])).abs() < 1e-15);
        }
    }
    // Complex, in place: x = -(conj(x) - data).
    let mut x = randv(&mut r, 2 * n);
    let x0 = x.clone();
    let mut g = randv(&mut r, 2 * n);
    unsafe {
        let p = fftx_plan_guru_pointwise_c2c(
            1,
            dims.as_ptr(),
            0,
            null_mut(),
            x.as_mut_ptr() as _,
            x.as_mut_ptr() as _,
            g.as_mut_ptr() as _,
            Some(conj_minus),
            MODE,
        );
        assert!(!p.is_null(), "{}", last_error());
        fftx_execute(p);
        fftx_destroy_plan(p);
    }
    for k in 0..n {
        assert!((x[2 * k] - (g[2 * k] - x0[2 * k])).abs() < 1e-15);
        assert!((x[2 * k + 1] - (g[2 * k + 1] + x0[2 * k + 1])).abs() < 1e-15);
    }
}

/// Two c2c transforms around a pointwise: fused into one chain, against a direct DFT.
#[test]
fn c2c_pointwise_c2c_chain_matches_direct() {
    let mut r = rng(9);
    let n = 24usize;
    let x = randv(&mut r, 2 * n);
    let mut xin = x.clone();
    let mut g = randv(&mut r, 2 * n);
    let mut out = vec![0.0; 2 * n];
    unsafe {
        let dd = [d(n, 1, 1)];
        let ddx = [fftx_iodimx {
            n: n as i32,
            iofs: 0,
            oofs: 0,
            dofs: 0,
            is: 1,
            os: 1,
            ds: 1,
        }];
        let t1 = fftx_create_temp_complex(1, dd.as_ptr());
        let t2 = fftx_create_temp_complex(1, dd.as_ptr());
        let plans = [
            fftx_plan_guru_dft(
                1,
                dd.as_ptr(),
                0,
                null_mut(),
                xin.as_mut_ptr() as _,
                t1,
                FFTX_FORWARD,
                SUB,
            ),
            fftx_plan_guru_pointwise_c2c(
                1,
                ddx.as_ptr(),
                0,
                null_mut(),
                t1,
                t2,
                g.as_mut_ptr() as _,
                Some(cplx_scaling),
                SUB,
            ),
            fftx_plan_guru_dft(
                1,
                dd.as_ptr(),
                0,
                null_mut(),
                t2,
                out.as_mut_ptr() as _,
                FFTX_BACKWARD,
                SUB,
            ),
        ];
        let p = fftx_plan_compose(3, plans.as_ptr(), MODE);
        assert!(!p.is_null(), "{}", last_error());
        fftx_execute(p);
        let s = printout(p);
        assert!(s.contains("steps=1 "), "{s}");
        // Direct: out = n * circular convolution of x with ifft(g)/n ... computed plainly:
        // X = DFT(x); Y = X*g; out = IDFT(Y) (unnormalized).
        let dft = |v: &[f64], sign: f64| -> Vec<f64> {
            let mut o = vec![0.0; 2 * n];
            for k in 0..n {
                for j in 0..n {
                    let ph = sign * 2.0 * std::f64::consts::PI * (k * j % n) as f64 / n as f64;
                    o[2 * k] += v[2 * j] * ph.cos() - v[2 * j + 1] * ph.sin();
                    o[2 * k + 1] += v[2 * j] * ph.sin() + v[2 * j + 1] * ph.cos();
                }
            }
            o
        };
        let xf = dft(&x, -1.0);
        let mut y = vec![0.0; 2 * n];
        for k in 0..n {
            y[2 * k] = xf[2 * k] * g[2 * k] - xf[2 * k + 1] * g[2 * k + 1];
            y[2 * k + 1] = xf[2 * k] * g[2 * k + 1] + xf[2 * k + 1] * g[2 * k];
        }
        assert_close(&out, &dft(&y, 1.0), n, "c2c chain");
        fftx_destroy_plan(p);
        plans.iter().for_each(|&q| fftx_destroy_plan(q));
        fftx_destroy_temp_complex(t1);
        fftx_destroy_temp_complex(t2);
    }
}

unsafe extern "C" fn reads_directly(i: *mut c_void, o: *mut c_void, _d: *mut c_void) {
    if *(i as *const f64) > 0.0 {
        fftx_pointwise_complex(0, o as _, i as _);
    } else {
        fftx_pointwise_complex(6, o as _, o as _);
    }
}

#[test]
fn errors_name_the_subplan_and_the_reason() {
    let mut a = vec![0.0f64; 64];
    let mut b = vec![0.0f64; 64];
    unsafe {
        let dd = [d(8, 1, 1)];
        // A temporary read before it is written.
        let t = fftx_create_temp_real(1, dd.as_ptr());
        let tc = fftx_create_temp_complex(1, [d(5, 1, 1)].as_ptr());
        let cx = [fftx_iodimx {
            n: 8,
            iofs: 0,
            oofs: 0,
            dofs: 0,
            is: 1,
            os: 1,
            ds: 1,
        }];
        let plans = [
            fftx_plan_guru_dft_r2c(1, dd.as_ptr(), 0, null_mut(), t, tc, SUB),
            fftx_plan_guru_copy_real(1, cx.as_ptr(), a.as_mut_ptr(), t, SUB),
        ];
        assert!(plans.iter().all(|p| !p.is_null()), "{}", last_error());
        let p = fftx_plan_compose(2, plans.as_ptr(), MODE);
        assert!(p.is_null());
        let e = last_error();
        assert!(
            e.contains("subplan 0 (fftx_plan_guru_dft_r2c): reads its input real-temp#")
                && e.contains("before anything writes it"),
            "{e}"
        );
        // Shapes that do not chain: an r2c of 8 needs 5 complex outputs, the temporary has 4.
        let small = fftx_create_temp_complex(1, [d(4, 1, 1)].as_ptr());
        let q = fftx_plan_guru_dft_r2c(1, dd.as_ptr(), 0, null_mut(), t, small, SUB);
        assert!(q.is_null());
        let e = last_error();
        assert!(
            e.contains("strides leave complex-temp#") && e.contains("elements 0..=4"),
            "{e}"
        );
        // A real temporary where a complex array is needed.
        let q = fftx_plan_guru_dft_r2c(
            1,
            dd.as_ptr(),
            0,
            null_mut(),
            a.as_mut_ptr(),
            t as *mut fftx_complex,
            SUB,
        );
        assert!(q.is_null());
        assert!(
            last_error().contains("but a complex array is needed"),
            "{}",
            last_error()
        );
        // Overlapping copy in and out that are not the same elements.
        let sh = [fftx_iodimx {
            n: 8,
            iofs: 0,
            oofs: 1,
            dofs: 0,
            is: 1,
            os: 1,
            ds: 1,
        }];
        let q = fftx_plan_guru_copy_real(1, sh.as_ptr(), a.as_mut_ptr(), a.as_mut_ptr(), MODE);
        assert!(q.is_null());
        assert!(last_error().contains("overlap"), "{}", last_error());
        let q =
            fftx_plan_guru_copy_real(1, sh.as_ptr(), a.as_mut_ptr(), a.as_mut_ptr().add(3), MODE);
        assert!(q.is_null());
        // A DFT whose output overlaps its input at another start.
        let q = fftx_plan_guru_dft(
            1,
            dd.as_ptr(),
            0,
            null_mut(),
            a.as_mut_ptr() as _,
            a.as_mut_ptr().add(2) as _,
            FFTX_FORWARD,
            MODE,
        );
        assert!(q.is_null());
        assert!(last_error().contains("overlap"), "{}", last_error());
        // Offsets that reach before the array (a reversed walk from index 2 over 4 elements).
        let rev = [fftx_iodimx {
            n: 4,
            iofs: 2,
            oofs: 0,
            dofs: 0,
            is: -1,
            os: 1,
            ds: 1,
        }];
        let q = fftx_plan_guru_copy_real(1, rev.as_ptr(), a.as_mut_ptr(), b.as_mut_ptr(), MODE);
        assert!(q.is_null());
        assert!(
            last_error().contains("before the start of the array"),
            "{}",
            last_error()
        );
        // A pointwise function that reads values directly.
        let q = fftx_plan_guru_pointwise_c2c(
            1,
            cx.as_ptr(),
            0,
            null_mut(),
            a.as_mut_ptr() as _,
            b.as_mut_ptr() as _,
            null_mut(),
            Some(reads_directly),
            MODE,
        );
        assert!(q.is_null());
        assert!(
            last_error().contains(
                "fftx_plan_guru_pointwise_c2c: the pointwise function records differently"
            ),
            "{}",
            last_error()
        );
        // The Fig. 4 function without a data operand.
        let q = fftx_plan_guru_pointwise_c2c(
            1,
            cx.as_ptr(),
            0,
            null_mut(),
            a.as_mut_ptr() as _,
            b.as_mut_ptr() as _,
            null_mut(),
            Some(cplx_scaling),
            MODE,
        );
        assert!(q.is_null());
        assert!(last_error().contains("no data operand"), "{}", last_error());
        // A helper called outside planning; bad plans; bad flags.
        fftx_pointwise_complex(0, a.as_mut_ptr() as _, b.as_mut_ptr() as _);
        assert!(
            last_error().contains("outside a pointwise function being planned"),
            "{}",
            last_error()
        );
        fftx_execute(null_mut());
        assert!(last_error().contains("NULL plan"));
        let q = fftx_plan_guru_copy_real(1, cx.as_ptr(), a.as_mut_ptr(), b.as_mut_ptr(), 1 << 30);
        assert!(q.is_null());
        assert!(last_error().contains("unknown flag"));
        let bogus = 0x1234usize as fftx_plan;
        let q = fftx_plan_compose(1, &bogus, MODE);
        assert!(q.is_null());
        assert!(
            last_error().contains("subplan 0: 0x1234 is not a live FFTX plan"),
            "{}",
            last_error()
        );
        plans.iter().for_each(|&q| fftx_destroy_plan(q));
        // NULL arrays and dims, negative ranks, released temporaries.
        let q = fftx_plan_guru_copy_real(1, cx.as_ptr(), null_mut(), b.as_mut_ptr(), MODE);
        assert!(
            q.is_null() && last_error().contains("in is NULL"),
            "{}",
            last_error()
        );
        let q = fftx_plan_guru_copy_real(2, null_mut(), a.as_mut_ptr(), b.as_mut_ptr(), MODE);
        assert!(
            q.is_null() && last_error().contains("dims are NULL"),
            "{}",
            last_error()
        );
        let q = fftx_plan_guru_dft(
            -1,
            dd.as_ptr(),
            0,
            null_mut(),
            a.as_mut_ptr() as _,
            b.as_mut_ptr() as _,
            FFTX_FORWARD,
            MODE,
        );
        assert!(
            q.is_null() && last_error().contains("negative transform rank"),
            "{}",
            last_error()
        );
        fftx_destroy_temp_real(t);
        fftx_destroy_temp_real(t);
        assert!(
            last_error().contains("is not a live FFTX temporary"),
            "{}",
            last_error()
        );
        fftx_destroy_temp_real(tc as *mut f64);
        assert!(
            last_error().contains("is complex, released as real"),
            "{}",
            last_error()
        );
        fftx_destroy_temp_complex(tc);
        fftx_destroy_temp_complex(small);
    }
}

/// A dead subplan (writes a temporary no one reads) is removed and listed.
#[test]
fn dead_subplans_are_removed() {
    let mut a: Vec<f64> = (0..8).map(|x| x as f64 + 1.0).collect();
    let mut b = vec![0.0; 8];
    unsafe {
        let t = fftx_create_temp_real(1, [d(8, 1, 1)].as_ptr());
        let cx = [fftx_iodimx {
            n: 8,
            iofs: 0,
            oofs: 0,
            dofs: 0,
            is: 1,
            os: 1,
            ds: 1,
        }];
        let plans = [
            fftx_plan_guru_copy_real(1, cx.as_ptr(), a.as_mut_ptr(), t, SUB),
            fftx_plan_guru_copy_real(1, cx.as_ptr(), a.as_mut_ptr(), b.as_mut_ptr(), SUB),
        ];
        let p = fftx_plan_compose(2, plans.as_ptr(), MODE);
        assert!(!p.is_null(), "{}", last_error());
        fftx_execute(p);
        assert_eq!(a, b);
        let s = printout(p);
        assert!(
            s.contains("(removed-dead [subplan 0 (fftx_plan_guru_copy_real)])")
                && s.contains("steps=1 "),
            "{s}"
        );
        fftx_destroy_plan(p);
        plans.iter().for_each(|&q| fftx_destroy_plan(q));
        fftx_destroy_temp_real(t);
    }
}

/// r2r through FFTX is FFTW's r2r (the same path), and both match a direct REDFT10 sum.
#[test]
fn r2r_single_node_matches_fftw_and_direct_sum() {
    let n = 12usize;
    let mut r = rng(21);
    let mut x = randv(&mut r, n);
    let mut y = x.clone();
    let (mut a, mut b) = (vec![0.0; n], vec![0.0; n]);
    let kind = [FFTX_REDFT10];
    unsafe {
        let p = fftx_plan_guru_r2r(
            1,
            [d(n, 1, 1)].as_ptr(),
            0,
            null_mut(),
            x.as_mut_ptr(),
            a.as_mut_ptr(),
            kind.as_ptr(),
            FFTX_ESTIMATE,
        );
        assert!(!p.is_null(), "{}", last_error());
        fftx_execute(p);
        fftx_destroy_plan(p);
        let q = fftx::fftw_plan_r2r_1d(
            n as i32,
            y.as_mut_ptr(),
            b.as_mut_ptr(),
            fftx::FFTW_REDFT10,
            fftx::FFTW_ESTIMATE,
        );
        fftx::fftw_execute(q);
        fftx::fftw_destroy_plan(q);
    }
    assert_eq!(a, b);
    let want: Vec<f64> = (0..n)
        .map(|k| {
            2.0 * (0..n)
                .map(|j| {
                    x[j] * (std::f64::consts::PI * k as f64 * (j as f64 + 0.5) / n as f64).cos()
                })
                .sum::<f64>()
        })
        .collect();
    assert_close(&a, &want, n, "redft10");
}

/// Batched (howmany) transforms on temporaries run as plain FFTW transforms inside a composed
/// plan: r2c then c2r of m rows gives n times the input (guru64 forms).
#[test]
fn guru64_batched_roundtrip_through_temporaries() {
    let (n, m) = (10usize, 7usize);
    let nk = n / 2 + 1;
    let mut r = rng(31);
    let mut x = randv(&mut r, n * m);
    let mut y = vec![0.0; n * m];
    let dims = [fftx_iodim64 {
        n: n as isize,
        is: 1,
        os: 1,
    }];
    let rows_r2c = [fftx_iodim64 {
        n: m as isize,
        is: n as isize,
        os: nk as isize,
    }];
    let rows_c2r = [fftx_iodim64 {
        n: m as isize,
        is: nk as isize,
        os: n as isize,
    }];
    unsafe {
        let t = fftx_create_temp_complex64(
            1,
            [fftx_iodim64 {
                n: (nk * m) as isize,
                is: 1,
                os: 1,
            }]
            .as_ptr(),
        );
        let plans = [
            fftx_plan_guru64_dft_r2c(
                1,
                dims.as_ptr(),
                1,
                rows_r2c.as_ptr(),
                x.as_mut_ptr(),
                t,
                SUB,
            ),
            fftx_plan_guru64_dft_c2r(
                1,
                dims.as_ptr(),
                1,
                rows_c2r.as_ptr(),
                t,
                y.as_mut_ptr(),
                SUB,
            ),
        ];
        assert!(plans.iter().all(|p| !p.is_null()), "{}", last_error());
        let p = fftx_plan_compose(2, plans.as_ptr(), MODE);
        assert!(!p.is_null(), "{}", last_error());
        fftx_execute(p);
        let want: Vec<f64> = x.iter().map(|v| v * n as f64).collect();
        assert_close(&y, &want, n, "roundtrip");
        let s = printout(p);
        assert!(
            s.contains("steps=2 ")
                && s.contains("dft-r2c")
                && s.contains("temporaries complex-temp#"),
            "{s}"
        );
        fftx_destroy_plan(p);
        plans.iter().for_each(|&q| fftx_destroy_plan(q));
        fftx_destroy_temp_complex(t);
    }
}

/// A 2-D c2c whose input is a partial copy into a zero temporary: the copy becomes the
/// transform's load, only the live rows are transformed first; against a direct DFT.
#[test]
fn pruned_c2c_with_a_partial_copy_matches_direct_dft() {
    let (n0, n1) = (8usize, 6usize);
    let mut r = rng(41);
    // A 3x2 complex block at rows 2..5, columns 1..3, copied from a strided source.
    let mut src = randv(&mut r, 2 * 3 * 4);
    let mut out = vec![0.0; 2 * n0 * n1];
    unsafe {
        let td = [d(n0, n1, n1), d(n1, 1, 1)];
        let t = fftx_create_zero_temp_complex(2, td.as_ptr());
        let cx = [
            fftx_iodimx {
                n: 3,
                iofs: 0,
                oofs: 2,
                dofs: 0,
                is: 4,
                os: n1 as i32,
                ds: 1,
            },
            fftx_iodimx {
                n: 2,
                iofs: 1,
                oofs: 1,
                dofs: 0,
                is: 1,
                os: 1,
                ds: 1,
            },
        ];
        let plans = [
            fftx_plan_guru_copy_complex(2, cx.as_ptr(), src.as_mut_ptr() as _, t, SUB),
            fftx_plan_guru_dft(
                2,
                td.as_ptr(),
                0,
                null_mut(),
                t,
                out.as_mut_ptr() as _,
                FFTX_FORWARD,
                SUB,
            ),
        ];
        let p = fftx_plan_compose(2, plans.as_ptr(), MODE);
        assert!(!p.is_null(), "{}", last_error());
        fftx_execute(p);
        let s = printout(p);
        assert!(
            s.contains("steps=1 ")
                && s.contains("live-in=[2..5,1..3]")
                && s.contains("(temporaries none)"),
            "{s}"
        );
        let (planned, unpruned, _) = counts(p);
        assert!(planned < unpruned, "{s}");
        let mut want = vec![0.0; 2 * n0 * n1];
        for k0 in 0..n0 {
            for k1 in 0..n1 {
                for j0 in 0..3 {
                    for j1 in 0..2 {
                        let (x, y) = (src[2 * (j0 * 4 + j1 + 1)], src[2 * (j0 * 4 + j1 + 1) + 1]);
                        let ph = -2.0
                            * std::f64::consts::PI
                            * (((j0 + 2) * k0) as f64 / n0 as f64
                                + ((j1 + 1) * k1) as f64 / n1 as f64);
                        want[2 * (k0 * n1 + k1)] += x * ph.cos() - y * ph.sin();
                        want[2 * (k0 * n1 + k1) + 1] += x * ph.sin() + y * ph.cos();
                    }
                }
            }
        }
        assert_close(&out, &want, n0 * n1, "pruned c2c");
        fftx_destroy_plan(p);
        plans.iter().for_each(|&q| fftx_destroy_plan(q));
        fftx_destroy_temp_complex(t);
    }
}

/// One plan executed from several threads at once gives the right result each time.
#[test]
fn concurrent_executes_of_one_plan() {
    let (n, ns, nd) = (32usize, 9usize, 11usize);
    let mut r = rng(51);
    let mut input = randv(&mut r, ns);
    let kernel = full_kernel(&mut r, 1, n);
    let mut g = symbol(n, 1, &kernel);
    let want = direct(1, n, ns, nd, &input, &kernel);
    let mut out = vec![0.0; nd];
    let c = unsafe {
        pruned_conv(
            1,
            n,
            ns,
            nd,
            input.as_mut_ptr(),
            out.as_mut_ptr(),
            g.as_mut_ptr(),
            MODE,
        )
    };
    let plan = c.plan as usize;
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(move || (0..50).for_each(|_| unsafe { fftx_execute(plan as fftx_plan) }));
        }
    });
    assert_close(&out, &want, n, "after concurrent executes");
    assert_eq!(counts(c.plan).2, 200 * 2);
    unsafe { release(c) };
}

/// With host threads (fftw_plan_with_nthreads) the chain's passes are shared among them; the
/// result is the same.
#[test]
fn threaded_chain_matches_direct_convolution() {
    let (n, ns, nd) = (48, 20, 30);
    let mut r = rng(61);
    let mut input = randv(&mut r, ns * ns * ns);
    let kernel = random_kernel(&mut r, 3, n, 5);
    let mut g = symbol(n, 3, &kernel);
    let want = direct(3, n, ns, nd, &input, &kernel);
    let mut out = vec![0.0; nd * nd * nd];
    unsafe {
        fftx::fftw_init_threads();
        fftx::fftw_plan_with_nthreads(4);
        let c = pruned_conv(
            3,
            n,
            ns,
            nd,
            input.as_mut_ptr(),
            out.as_mut_ptr(),
            g.as_mut_ptr(),
            MODE,
        );
        fftx::fftw_plan_with_nthreads(1);
        fftx_execute(c.plan);
        assert_close(&out, &want, n * n * n, "threaded");
        release(c);
    }
}

/// When the padded temporary is also read by another subplan, the copy is not fused into the
/// transform's load; the transform is still pruned (it loads only the live box of the
/// temporary) and every output is right.
#[test]
fn pruned_transform_over_a_shared_temporary() {
    let (n, ns) = (20usize, 6usize);
    let mut r = rng(71);
    let mut x = randv(&mut r, ns);
    let mut spec = vec![0.0; 2 * (n / 2 + 1)];
    let mut copy_out = vec![5.0; n];
    unsafe {
        let t = fftx_create_zero_temp_real(1, [d(n, 1, 1)].as_ptr());
        let cin = [fftx_iodimx {
            n: ns as i32,
            iofs: 0,
            oofs: 3,
            dofs: 0,
            is: 1,
            os: 1,
            ds: 1,
        }];
        let call = [fftx_iodimx {
            n: n as i32,
            iofs: 0,
            oofs: 0,
            dofs: 0,
            is: 1,
            os: 1,
            ds: 1,
        }];
        let plans = [
            fftx_plan_guru_copy_real(1, cin.as_ptr(), x.as_mut_ptr(), t, SUB),
            fftx_plan_guru_dft_r2c(
                1,
                [d(n, 1, 1)].as_ptr(),
                0,
                null_mut(),
                t,
                spec.as_mut_ptr() as _,
                SUB,
            ),
            fftx_plan_guru_copy_real(1, call.as_ptr(), t, copy_out.as_mut_ptr(), SUB),
        ];
        let p = fftx_plan_compose(3, plans.as_ptr(), MODE);
        assert!(!p.is_null(), "{}", last_error());
        fftx_execute(p);
        let s = printout(p);
        assert!(
            s.contains("steps=3 ")
                && s.contains("live-in=[3..9]")
                && s.contains("(load [0..20] from real-temp#"),
            "{s}"
        );
        let mut padded = vec![0.0; n];
        padded[3..3 + ns].copy_from_slice(&x);
        assert_eq!(copy_out, padded);
        let mut want = vec![0.0; 2 * (n / 2 + 1)];
        for k in 0..=n / 2 {
            for (j, v) in padded.iter().enumerate() {
                let ph = -2.0 * std::f64::consts::PI * (k * j % n) as f64 / n as f64;
                want[2 * k] += v * ph.cos();
                want[2 * k + 1] += v * ph.sin();
            }
        }
        assert_close(&spec, &want, n, "r2c of a shared temporary");
        fftx_destroy_plan(p);
        plans.iter().for_each(|&q| fftx_destroy_plan(q));
        fftx_destroy_temp_real(t);
    }
}

/// A plan made with FFTX_SUBPLAN can still be executed on its own (compiled on first use).
#[test]
fn a_subplan_executes_on_its_own() {
    let mut a = vec![1.5, 2.5, 3.5];
    let mut b = vec![0.0; 3];
    let cx = [fftx_iodimx {
        n: 3,
        iofs: 0,
        oofs: 0,
        dofs: 0,
        is: 1,
        os: 1,
        ds: 1,
    }];
    unsafe {
        let p = fftx_plan_guru_copy_real(1, cx.as_ptr(), a.as_mut_ptr(), b.as_mut_ptr(), SUB);
        assert!(!p.is_null(), "{}", last_error());
        assert!(printout(p).starts_with("(fftx-subplan"));
        fftx_execute(p);
        assert_eq!(a, b);
        assert!(printout(p).contains("steps=1 "));
        fftx_destroy_plan(p);
    }
}

/// Random pipelines (rank 1 to 3, odd and even sizes, input and output boxes anywhere, row-major
/// dims): the optimized plan computes what the unoptimized graph computes.
#[test]
fn random_pipelines_optimized_equal_unoptimized() {
    let mut r = rng(2024);
    for case in 0..40 {
        let rank = r.gen_range(1..=3usize);
        let n: Vec<usize> = (0..rank).map(|_| r.gen_range(1..=9usize)).collect();
        let nk = n[rank - 1] / 2 + 1;
        let cshape: Vec<usize> = (0..rank)
            .map(|d| if d == rank - 1 { nk } else { n[d] })
            .collect();
        let ins: Vec<usize> = n.iter().map(|&x| r.gen_range(1..=x)).collect();
        let inofs: Vec<usize> = n
            .iter()
            .zip(&ins)
            .map(|(&x, &s)| r.gen_range(0..=x - s))
            .collect();
        let outs: Vec<usize> = n.iter().map(|&x| r.gen_range(1..=x)).collect();
        let outofs: Vec<usize> = n
            .iter()
            .zip(&outs)
            .map(|(&x, &s)| r.gen_range(0..=x - s))
            .collect();
        let rev_in: Vec<bool> = (0..rank).map(|_| r.gen_bool(0.3)).collect();
        let rev_out: Vec<bool> = (0..rank).map(|_| r.gen_bool(0.3)).collect();
        let rm = |shape: &[usize]| -> Vec<usize> {
            (0..shape.len())
                .map(|d| shape[d + 1..].iter().product())
                .collect()
        };
        let (sr, sc, si, so) = (rm(&n), rm(&cshape), rm(&ins), rm(&outs));
        let mut input = randv(&mut r, ins.iter().product());
        let mut g = randv(&mut r, 2 * cshape.iter().product::<usize>());
        let total: usize = outs.iter().product();
        let mut results = vec![];
        for flags in [MODE, MODE | FFTX_NO_OPTIMIZE] {
            let mut out = vec![0.25; total];
            unsafe {
                let id = |n: &[usize], s: &[usize]| -> Vec<fftx_iodim> {
                    (0..rank).map(|k| d(n[k], s[k], s[k])).collect()
                };
                let p_d = id(&n, &sr);
                // r2c: logical sizes n, real input strides, complex output strides.
                let f_d: Vec<fftx_iodim> = (0..rank).map(|k| d(n[k], sr[k], sc[k])).collect();
                let c_d = id(&cshape, &sc);
                // Some axes of the caller's arrays are walked backwards (negative stride, the
                // offset at the far end).
                let i_dx: Vec<fftx_iodimx> = (0..rank)
                    .map(|k| {
                        let (iofs, is) = if rev_in[k] {
                            (ins[k] as i32 - 1, -(si[k] as i32))
                        } else {
                            (0, si[k] as i32)
                        };
                        fftx_iodimx {
                            n: ins[k] as i32,
                            iofs,
                            oofs: inofs[k] as i32,
                            dofs: 0,
                            is,
                            os: sr[k] as i32,
                            ds: 1,
                        }
                    })
                    .collect();
                let o_dx: Vec<fftx_iodimx> = (0..rank)
                    .map(|k| {
                        let (oofs, os) = if rev_out[k] {
                            (outs[k] as i32 - 1, -(so[k] as i32))
                        } else {
                            (0, so[k] as i32)
                        };
                        fftx_iodimx {
                            n: outs[k] as i32,
                            iofs: outofs[k] as i32,
                            oofs,
                            dofs: 0,
                            is: sr[k] as i32,
                            os,
                            ds: 1,
                        }
                    })
                    .collect();
                let f_dx: Vec<fftx_iodimx> = (0..rank)
                    .map(|k| fftx_iodimx {
                        n: cshape[k] as i32,
                        iofs: 0,
                        oofs: 0,
                        dofs: 0,
                        is: sc[k] as i32,
                        os: sc[k] as i32,
                        ds: sc[k] as i32,
                    })
                    .collect();
                let c2r_d: Vec<fftx_iodim> = (0..rank).map(|k| d(n[k], sc[k], sr[k])).collect();
                let t1 = fftx_create_zero_temp_real(rank as i32, p_d.as_ptr());
                let t2 = fftx_create_temp_complex(rank as i32, c_d.as_ptr());
                let t3 = fftx_create_temp_complex(rank as i32, c_d.as_ptr());
                let t4 = fftx_create_temp_real(rank as i32, p_d.as_ptr());
                let rk = rank as i32;
                let plans = [
                    fftx_plan_guru_copy_real(rk, i_dx.as_ptr(), input.as_mut_ptr(), t1, SUB),
                    fftx_plan_guru_dft_r2c(rk, f_d.as_ptr(), 0, null_mut(), t1, t2, SUB),
                    fftx_plan_guru_pointwise_c2c(
                        rk,
                        f_dx.as_ptr(),
                        0,
                        null_mut(),
                        t2,
                        t3,
                        g.as_mut_ptr() as _,
                        Some(cplx_scaling),
                        SUB,
                    ),
                    fftx_plan_guru_dft_c2r(rk, c2r_d.as_ptr(), 0, null_mut(), t3, t4, SUB),
                    fftx_plan_guru_copy_real(rk, o_dx.as_ptr(), t4, out.as_mut_ptr(), SUB),
                ];
                for (k, p) in plans.iter().enumerate() {
                    assert!(!p.is_null(), "case {case} subplan {k}: {}", last_error());
                }
                let p = fftx_plan_compose(5, plans.as_ptr(), flags);
                assert!(!p.is_null(), "case {case}: {}", last_error());
                // First on other data, so that a work buffer's stale values would show.
                let keep = input.clone();
                input.iter_mut().for_each(|x| *x = *x * 3.0 - 1.0);
                fftx_execute(p);
                input.copy_from_slice(&keep);
                fftx_execute(p);
                if flags == MODE {
                    assert!(
                        printout(p).contains("steps=1 "),
                        "case {case}: {}",
                        printout(p)
                    );
                }
                fftx_destroy_plan(p);
                plans.iter().for_each(|&q| fftx_destroy_plan(q));
                fftx_destroy_temp_real(t1);
                fftx_destroy_temp_complex(t2);
                fftx_destroy_temp_complex(t3);
                fftx_destroy_temp_real(t4);
            }
            results.push(out);
        }
        assert_close(
            &results[0],
            &results[1],
            n.iter().product(),
            &format!("case {case}: n={n:?} in {ins:?}@{inofs:?} out {outs:?}@{outofs:?}"),
        );
    }
}

/// A c2r whose input spectrum is a partial copy into a zero temporary (pruned on its input),
/// executed twice on different data, equals the unoptimized graph (the FFTW path).
#[test]
fn pruned_c2r_of_a_partial_spectrum() {
    let (n0, n1) = (6usize, 8usize);
    let h = n1 / 2 + 1;
    let mut r = rng(81);
    let mut coef = randv(&mut r, 2 * 3 * 3);
    let mut results = vec![];
    for flags in [MODE, MODE | FFTX_NO_OPTIMIZE] {
        let mut out = vec![0.0; n0 * n1];
        unsafe {
            let t = fftx_create_zero_temp_complex(2, [d(n0, h, h), d(h, 1, 1)].as_ptr());
            let cx = [
                fftx_iodimx {
                    n: 3,
                    iofs: 0,
                    oofs: 1,
                    dofs: 0,
                    is: 3,
                    os: h as i32,
                    ds: 1,
                },
                fftx_iodimx {
                    n: 3,
                    iofs: 0,
                    oofs: 1,
                    dofs: 0,
                    is: 1,
                    os: 1,
                    ds: 1,
                },
            ];
            let plans = [
                fftx_plan_guru_copy_complex(2, cx.as_ptr(), coef.as_mut_ptr() as _, t, SUB),
                fftx_plan_guru_dft_c2r(
                    2,
                    [d(n0, h, n1), d(n1, 1, 1)].as_ptr(),
                    0,
                    null_mut(),
                    t,
                    out.as_mut_ptr(),
                    SUB,
                ),
            ];
            let p = fftx_plan_compose(2, plans.as_ptr(), flags);
            assert!(!p.is_null(), "{}", last_error());
            let keep = coef.clone();
            coef.iter_mut().for_each(|x| *x = 2.0 * *x + 0.3);
            fftx_execute(p);
            coef.copy_from_slice(&keep);
            fftx_execute(p);
            if flags == MODE {
                let s = printout(p);
                assert!(
                    s.contains("steps=1 ") && s.contains("(dft-c2r n=[6, 8] live-in=[1..4,1..4]"),
                    "{s}"
                );
            }
            fftx_destroy_plan(p);
            plans.iter().for_each(|&q| fftx_destroy_plan(q));
            fftx_destroy_temp_complex(t);
        }
        results.push(out);
    }
    assert_close(&results[0], &results[1], n0 * n1, "pruned c2r");
}

/// A pointwise function after the last transform (here an r2c of a padded input, then a
/// multiply into the caller's array with permuted strides) runs in the chain's work buffer.
#[test]
fn trailing_pointwise_is_fused() {
    let (n0, n1, ns) = (6usize, 10usize, 4usize);
    let h = n1 / 2 + 1;
    let mut r = rng(91);
    let mut x = randv(&mut r, ns * ns);
    let mut g = randv(&mut r, 2 * n0 * h);
    let mut results = vec![];
    for flags in [MODE, MODE | FFTX_NO_OPTIMIZE] {
        // The output stored transposed: element (k0, k1) at k1 * n0 + k0.
        let mut out = vec![0.0; 2 * n0 * h];
        unsafe {
            let t1 = fftx_create_zero_temp_real(2, [d(n0, n1, n1), d(n1, 1, 1)].as_ptr());
            let t2 = fftx_create_temp_complex(2, [d(n0, h, h), d(h, 1, 1)].as_ptr());
            let cx = [
                fftx_iodimx {
                    n: ns as i32,
                    iofs: 0,
                    oofs: 1,
                    dofs: 0,
                    is: ns as i32,
                    os: n1 as i32,
                    ds: 1,
                },
                fftx_iodimx {
                    n: ns as i32,
                    iofs: 0,
                    oofs: 2,
                    dofs: 0,
                    is: 1,
                    os: 1,
                    ds: 1,
                },
            ];
            let px = [
                fftx_iodimx {
                    n: n0 as i32,
                    iofs: 0,
                    oofs: 0,
                    dofs: 0,
                    is: h as i32,
                    os: 1,
                    ds: h as i32,
                },
                fftx_iodimx {
                    n: h as i32,
                    iofs: 0,
                    oofs: 0,
                    dofs: 0,
                    is: 1,
                    os: n0 as i32,
                    ds: 1,
                },
            ];
            let plans = [
                fftx_plan_guru_copy_real(2, cx.as_ptr(), x.as_mut_ptr(), t1, SUB),
                fftx_plan_guru_dft_r2c(
                    2,
                    [d(n0, n1, h), d(n1, 1, 1)].as_ptr(),
                    0,
                    null_mut(),
                    t1,
                    t2,
                    SUB,
                ),
                fftx_plan_guru_pointwise_c2c(
                    2,
                    px.as_ptr(),
                    0,
                    null_mut(),
                    t2,
                    out.as_mut_ptr() as _,
                    g.as_mut_ptr() as _,
                    Some(cplx_scaling),
                    SUB,
                ),
            ];
            assert!(plans.iter().all(|p| !p.is_null()), "{}", last_error());
            let p = fftx_plan_compose(3, plans.as_ptr(), flags);
            assert!(!p.is_null(), "{}", last_error());
            let keep = x.clone();
            x.iter_mut().for_each(|v| *v = 1.0 - *v);
            fftx_execute(p);
            x.copy_from_slice(&keep);
            fftx_execute(p);
            if flags == MODE {
                let s = printout(p);
                assert!(
                    s.contains("steps=1 ")
                        && s.contains("(temporaries none)")
                        && s.contains("(pointwise \"mov t0 in; mul t0 data; mov out t0\"")
                        && s.contains("strides=[1, 6]"),
                    "{s}"
                );
            }
            fftx_destroy_plan(p);
            plans.iter().for_each(|&q| fftx_destroy_plan(q));
            fftx_destroy_temp_real(t1);
            fftx_destroy_temp_complex(t2);
        }
        results.push(out);
    }
    assert_close(&results[0], &results[1], n0 * n1, "trailing pointwise");
    // And against a direct sum for one element: (k0, k1) = (2, 3).
    let (k0, k1) = (2usize, 3usize);
    let (mut re, mut im) = (0.0, 0.0);
    for j0 in 0..ns {
        for j1 in 0..ns {
            let ph = -2.0
                * std::f64::consts::PI
                * (((j0 + 1) * k0) as f64 / n0 as f64 + ((j1 + 2) * k1) as f64 / n1 as f64);
            re += x[j0 * ns + j1] * ph.cos();
            im += x[j0 * ns + j1] * ph.sin();
        }
    }
    let (gr, gi) = (g[2 * (k0 * h + k1)], g[2 * (k0 * h + k1) + 1]);
    let o = 2 * (k1 * n0 + k0);
    assert!(
        (results[0][o] - (re * gr - im * gi)).abs() < 1e-12
            && (results[0][o + 1] - (re * gi + im * gr)).abs() < 1e-12
    );
}

/// A pointwise function writing the whole input of a c2c (reading the caller's array with
/// transposed strides) runs in the chain's work buffer before the transform.
#[test]
fn leading_pointwise_is_fused() {
    let (n0, n1) = (5usize, 8usize);
    let mut r = rng(101);
    let mut x = randv(&mut r, 2 * n0 * n1);
    let mut g = randv(&mut r, 2 * n0 * n1);
    let mut results = vec![];
    for flags in [MODE, MODE | FFTX_NO_OPTIMIZE] {
        let mut out = vec![0.0; 2 * n0 * n1];
        unsafe {
            let dd = [d(n0, n1, n1), d(n1, 1, 1)];
            let t = fftx_create_temp_complex(2, dd.as_ptr());
            // Element (i0, i1) of the transform's input is x[i1 * n0 + i0] * g[i0 * n1 + i1].
            let px = [
                fftx_iodimx {
                    n: n0 as i32,
                    iofs: 0,
                    oofs: 0,
                    dofs: 0,
                    is: 1,
                    os: n1 as i32,
                    ds: n1 as i32,
                },
                fftx_iodimx {
                    n: n1 as i32,
                    iofs: 0,
                    oofs: 0,
                    dofs: 0,
                    is: n0 as i32,
                    os: 1,
                    ds: 1,
                },
            ];
            let plans = [
                fftx_plan_guru_pointwise_c2c(
                    2,
                    px.as_ptr(),
                    0,
                    null_mut(),
                    x.as_mut_ptr() as _,
                    t,
                    g.as_mut_ptr() as _,
                    Some(cplx_scaling),
                    SUB,
                ),
                fftx_plan_guru_dft(
                    2,
                    dd.as_ptr(),
                    0,
                    null_mut(),
                    t,
                    out.as_mut_ptr() as _,
                    FFTX_BACKWARD,
                    SUB,
                ),
            ];
            assert!(plans.iter().all(|p| !p.is_null()), "{}", last_error());
            let p = fftx_plan_compose(2, plans.as_ptr(), flags);
            assert!(!p.is_null(), "{}", last_error());
            let keep = x.clone();
            x.iter_mut().for_each(|v| *v = 0.5 - *v);
            fftx_execute(p);
            x.copy_from_slice(&keep);
            fftx_execute(p);
            if flags == MODE {
                let s = printout(p);
                assert!(
                    s.contains("steps=1 ")
                        && s.contains("(temporaries none)")
                        && s.contains("strides=[1, 5]"),
                    "{s}"
                );
            }
            fftx_destroy_plan(p);
            plans.iter().for_each(|&q| fftx_destroy_plan(q));
            fftx_destroy_temp_complex(t);
        }
        results.push(out);
    }
    assert_close(&results[0], &results[1], n0 * n1, "leading pointwise");
    // Direct sum for one output element.
    let (k0, k1) = (3usize, 5usize);
    let (mut re, mut im) = (0.0, 0.0);
    for i0 in 0..n0 {
        for i1 in 0..n1 {
            let (a, b) = (x[2 * (i1 * n0 + i0)], x[2 * (i1 * n0 + i0) + 1]);
            let (c, e) = (g[2 * (i0 * n1 + i1)], g[2 * (i0 * n1 + i1) + 1]);
            let (vr, vi) = (a * c - b * e, a * e + b * c);
            let ph = 2.0
                * std::f64::consts::PI
                * ((i0 * k0) as f64 / n0 as f64 + (i1 * k1) as f64 / n1 as f64);
            re += vr * ph.cos() - vi * ph.sin();
            im += vr * ph.sin() + vi * ph.cos();
        }
    }
    let o = 2 * (k0 * n1 + k1);
    assert!(
        (results[0][o] - re).abs() < 1e-12 && (results[0][o + 1] - im).abs() < 1e-12,
        "{} {} vs {re} {im}",
        results[0][o],
        results[0][o + 1]
    );
}
