//! The single-precision interface (`fftxf_*`): every plan kind, compositions (the Hockney
//! convolution, fused chains, pruning) and the precision errors, against the double interface
//! on the same values or direct sums in f64. Errors are relative L2 norms, within
//! 1e-5 * log2(n).

use super::*;

/// Random f32 values away from zero, and the same values as f64 (the double reference's input).
fn randf(r: &mut SmallRng, n: usize) -> (Vec<f32>, Vec<f64>) {
    let v: Vec<f32> = randv(r, n).into_iter().map(|x| x as f32).collect();
    let w = v.iter().map(|&x| x as f64).collect();
    (v, w)
}
fn assert_close_f32(got: &[f32], want: &[f64], n: usize, what: &str) {
    let num: f64 = got
        .iter()
        .zip(want)
        .map(|(&a, &b)| (a as f64 - b).powi(2))
        .sum();
    let den: f64 = want.iter().map(|b| b * b).sum::<f64>().max(1e-300);
    let err = (num / den).sqrt();
    let tol = 1e-5 * (n as f64).log2().max(1.0);
    assert!(err < tol, "{what}: relative L2 error {err:e} > {tol:e}");
    assert!(
        err > 0.0 || want.iter().all(|&x| x == (x as f32) as f64),
        "{what}: an f32 result equal to the f64 one"
    );
}
fn printout_f32(p: fftxf_plan) -> String {
    unsafe {
        let s = fftxf_sprint_plan(p);
        assert!(!s.is_null(), "{}", last_error());
        let t = CStr::from_ptr(s).to_string_lossy().into_owned();
        libc::free(s as *mut c_void);
        t
    }
}
fn planned_f32(p: fftxf_plan) -> (u64, u64) {
    let s = printout_f32(p);
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
    )
}

unsafe extern "C" fn cplx_scaling_f32(i: *mut c_void, o: *mut c_void, data: *mut c_void) {
    let t = fftxf_pointwise_temp_complex();
    fftxf_pointwise_complex(0, t, i as *mut fftxf_complex);
    fftxf_pointwise_complex(3, t, data as *mut fftxf_complex);
    fftxf_pointwise_complex(0, o as *mut fftxf_complex, t);
}
/// out = 0.75 * (in * data) - in, over complex or real elements.
unsafe extern "C" fn mul_sub_c(i: *mut c_void, o: *mut c_void, data: *mut c_void) {
    let (i, o, d) = (i as *mut fftxf_complex, o as *mut fftxf_complex, data);
    fftxf_pointwise_complex(0, o, i);
    fftxf_pointwise_complex(3, o, d as *mut fftxf_complex);
    fftxf_pointwise_complex_scale(o, 0.75);
    fftxf_pointwise_complex(2, o, i);
}
unsafe extern "C" fn mul_sub_c64(i: *mut c_void, o: *mut c_void, data: *mut c_void) {
    let (i, o, d) = (i as *mut fftx_complex, o as *mut fftx_complex, data);
    fftx_pointwise_complex(0, o, i);
    fftx_pointwise_complex(3, o, d as *mut fftx_complex);
    fftx_pointwise_complex_scale(o, 0.75);
    fftx_pointwise_complex(2, o, i);
}
unsafe extern "C" fn mul_sub_r(i: *mut c_void, o: *mut c_void, data: *mut c_void) {
    let (i, o, d) = (i as *mut fftxf_real, o as *mut fftxf_real, data);
    fftxf_pointwise_real(0, o, i);
    fftxf_pointwise_real(3, o, d as *mut fftxf_real);
    fftxf_pointwise_real_scale(o, 0.75);
    fftxf_pointwise_real(2, o, i);
}
unsafe extern "C" fn mul_sub_r64(i: *mut c_void, o: *mut c_void, data: *mut c_void) {
    let (i, o, d) = (i as *mut fftx_real, o as *mut fftx_real, data);
    fftx_pointwise_real(0, o, i);
    fftx_pointwise_real(3, o, d as *mut fftx_real);
    fftx_pointwise_real_scale(o, 0.75);
    fftx_pointwise_real(2, o, i);
}
type Cb = unsafe extern "C" fn(*mut c_void, *mut c_void, *mut c_void);

/// A double helper in a function given to an fftxf_ plan.
unsafe extern "C" fn double_helper(i: *mut c_void, o: *mut c_void, _d: *mut c_void) {
    fftx_pointwise_complex(0, o as *mut fftx_complex, i as *mut fftx_complex);
}

fn d64(n: usize, is: usize, os: usize) -> fftx_iodim64 {
    fftx_iodim64 {
        n: n as isize,
        is: is as isize,
        os: os as isize,
    }
}
fn dx64(x: fftx_iodimx) -> fftx_iodimx64 {
    fftx_iodimx64 {
        n: x.n as isize,
        iofs: x.iofs as isize,
        oofs: x.oofs as isize,
        dofs: x.dofs as isize,
        is: x.is as isize,
        os: x.os as isize,
        ds: x.ds as isize,
    }
}

/// Runs an f32 plan and its f64 twin (made by the two closures over the output arrays) and
/// compares the outputs.
unsafe fn twin(
    what: &str,
    n: usize,
    (out32, out64): (&mut [f32], &mut [f64]),
    make32: impl FnOnce(*mut f32) -> fftxf_plan,
    make64: impl FnOnce(*mut f64) -> fftx_plan,
) {
    let p = make32(out32.as_mut_ptr());
    assert!(!p.is_null(), "{what}: {}", last_error());
    let q = make64(out64.as_mut_ptr());
    assert!(!q.is_null(), "{what} (f64): {}", last_error());
    fftxf_execute(p);
    fftx_execute(q);
    assert_close_f32(out32, out64, n, what);
    fftxf_destroy_plan(p);
    fftx_destroy_plan(q);
}

#[test]
fn every_transform_kind_matches_the_double_interface() {
    let mut r = rng(32);
    let (n0, n1) = (6usize, 16usize);
    let nn = n0 * n1;
    let dims = [d(n0, n1, n1), d(n1, 1, 1)];
    let dims64 = [d64(n0, n1, n1), d64(n1, 1, 1)];
    let (mut c32, mut c64) = randf(&mut r, 2 * nn);
    let (mut r32, mut r64) = randf(&mut r, nn);
    let hn = n0 * (n1 / 2 + 1);
    let (h32, h64) = randf(&mut r, 2 * hn);
    let (mut o32, mut o64) = (vec![0f32; 2 * nn], vec![0f64; 2 * nn]);
    let c2r_dims = [d(n0, n1 / 2 + 1, n1), d(n1, 1, 1)];
    let kinds = [FFTX_REDFT10, FFTX_RODFT00];
    let (cf, cd) = (
        c32.as_mut_ptr() as *mut fftxf_complex,
        c64.as_mut_ptr() as *mut fftx_complex,
    );
    let (rf, rd) = (r32.as_mut_ptr(), r64.as_mut_ptr());
    let (nul, nul64) = (null_mut::<fftx_iodim>(), null_mut::<fftx_iodim64>());
    unsafe {
        for sign in [FFTX_FORWARD, FFTX_BACKWARD] {
            twin(
                "dft",
                nn,
                (&mut o32, &mut o64),
                |o| fftxf_plan_guru_dft(2, dims.as_ptr(), 0, nul, cf, o as _, sign, MODE),
                |o| fftx_plan_guru_dft(2, dims.as_ptr(), 0, nul, cd, o as _, sign, MODE),
            );
            twin(
                "guru64 dft",
                nn,
                (&mut o32, &mut o64),
                |o| fftxf_plan_guru64_dft(2, dims64.as_ptr(), 0, nul64, cf, o as _, sign, MODE),
                |o| fftx_plan_guru64_dft(2, dims64.as_ptr(), 0, nul64, cd, o as _, sign, MODE),
            );
        }
        let (a, b) = (&mut o32[..2 * hn], &mut o64[..2 * hn]);
        twin(
            "r2c",
            nn,
            (a, b),
            |o| fftxf_plan_guru_dft_r2c(2, dims.as_ptr(), 0, nul, rf, o as _, MODE),
            |o| fftx_plan_guru_dft_r2c(2, dims.as_ptr(), 0, nul, rd, o as _, MODE),
        );
        let (a, b) = (&mut o32[..2 * hn], &mut o64[..2 * hn]);
        twin(
            "guru64 r2c",
            nn,
            (a, b),
            |o| fftxf_plan_guru64_dft_r2c(2, dims64.as_ptr(), 0, nul64, rf, o as _, MODE),
            |o| fftx_plan_guru64_dft_r2c(2, dims64.as_ptr(), 0, nul64, rd, o as _, MODE),
        );
        // c2r may destroy its input: each run gets a fresh copy.
        for (k, what) in ["c2r", "guru64 c2r"].iter().enumerate() {
            let (mut hf2, mut hd2) = (h32.clone(), h64.clone());
            let (a, b) = (&mut o32[..nn], &mut o64[..nn]);
            let (x, y) = (
                hf2.as_mut_ptr() as *mut fftxf_complex,
                hd2.as_mut_ptr() as *mut fftx_complex,
            );
            let c64d = [d64(n0, n1 / 2 + 1, n1), d64(n1, 1, 1)];
            twin(
                what,
                nn,
                (a, b),
                |o| match k {
                    0 => fftxf_plan_guru_dft_c2r(2, c2r_dims.as_ptr(), 0, nul, x, o, MODE),
                    _ => fftxf_plan_guru64_dft_c2r(2, c64d.as_ptr(), 0, nul64, x, o, MODE),
                },
                |o| match k {
                    0 => fftx_plan_guru_dft_c2r(2, c2r_dims.as_ptr(), 0, nul, y, o, MODE),
                    _ => fftx_plan_guru64_dft_c2r(2, c64d.as_ptr(), 0, nul64, y, o, MODE),
                },
            );
        }
        let (a, b) = (&mut o32[..nn], &mut o64[..nn]);
        twin(
            "r2r",
            nn,
            (a, b),
            |o| fftxf_plan_guru_r2r(2, dims.as_ptr(), 0, nul, rf, o, kinds.as_ptr(), MODE),
            |o| fftx_plan_guru_r2r(2, dims.as_ptr(), 0, nul, rd, o, kinds.as_ptr(), MODE),
        );
        let (a, b) = (&mut o32[..nn], &mut o64[..nn]);
        twin(
            "guru64 r2r",
            nn,
            (a, b),
            |o| fftxf_plan_guru64_r2r(2, dims64.as_ptr(), 0, nul64, rf, o, kinds.as_ptr(), MODE),
            |o| fftx_plan_guru64_r2r(2, dims64.as_ptr(), 0, nul64, rd, o, kinds.as_ptr(), MODE),
        );
    }
}

/// Inputs and outputs of the elementwise twins: `n` complex (or 2n real) random values in and
/// data, outputs starting at 0.5 (entries a plan does not address must keep it).
struct Elem {
    x: (Vec<f32>, Vec<f64>),
    g: (Vec<f32>, Vec<f64>),
    o: (Vec<f32>, Vec<f64>),
}

fn elem(seed: u64, n: usize) -> Elem {
    let mut r = rng(seed);
    Elem {
        x: randf(&mut r, 2 * n),
        g: randf(&mut r, 2 * n),
        o: (vec![0.5f32; 2 * n], vec![0.5f64; 2 * n]),
    }
}

#[test]
fn copies_match_the_double_interface() {
    let n = 24usize;
    let mut e = elem(33, n);
    // A reversing copy of 10 entries into 2..12, the others kept.
    let cp = [dx(10, 12, 2, -1, 1)];
    let cp64 = [dx64(cp[0])];
    let (xf, xd) = (e.x.0.as_mut_ptr(), e.x.1.as_mut_ptr());
    let (cx, cdx) = (xf as *mut fftxf_complex, xd as *mut fftx_complex);
    let (o32, o64) = (&mut e.o.0, &mut e.o.1);
    unsafe {
        twin(
            "copy real",
            n,
            (o32, o64),
            |o| fftxf_plan_guru_copy_real(1, cp.as_ptr(), xf, o, MODE),
            |o| fftx_plan_guru_copy_real(1, cp.as_ptr(), xd, o, MODE),
        );
        twin(
            "guru64 copy real",
            n,
            (o32, o64),
            |o| fftxf_plan_guru64_copy_real(1, cp64.as_ptr(), xf, o, MODE),
            |o| fftx_plan_guru64_copy_real(1, cp64.as_ptr(), xd, o, MODE),
        );
        twin(
            "copy complex",
            n,
            (o32, o64),
            |o| fftxf_plan_guru_copy_complex(1, cp.as_ptr(), cx, o as _, MODE),
            |o| fftx_plan_guru_copy_complex(1, cp.as_ptr(), cdx, o as _, MODE),
        );
        twin(
            "guru64 copy complex",
            n,
            (o32, o64),
            |o| fftxf_plan_guru64_copy_complex(1, cp64.as_ptr(), cx, o as _, MODE),
            |o| fftx_plan_guru64_copy_complex(1, cp64.as_ptr(), cdx, o as _, MODE),
        );
    }
    // Entries no copy addresses kept their value; the copies moved values exactly.
    assert_eq!(o32[0], 0.5);
    assert_eq!(o32[2 * n - 1], 0.5);
    assert_eq!((o32[4], o32[5]), (e.x.0[24], e.x.0[25]));
}

#[test]
fn pointwise_plans_match_the_double_interface() {
    let n = 24usize;
    let mut e = elem(34, n);
    // Three rows of 8 (a howmany loop), data strided as the input.
    let pw = [dx(8, 0, 0, 1, 1)];
    let hm = [fftx_iodimx {
        n: 3,
        iofs: 0,
        oofs: 0,
        dofs: 0,
        is: 8,
        os: 8,
        ds: 8,
    }];
    let (pw64, hm64) = ([dx64(pw[0])], [dx64(hm[0])]);
    let (xf, xd) = (e.x.0.as_mut_ptr(), e.x.1.as_mut_ptr());
    let (gf, gd) = (e.g.0.as_mut_ptr(), e.g.1.as_mut_ptr());
    let (cx, cdx) = (xf as *mut fftxf_complex, xd as *mut fftx_complex);
    let (cg, cdg) = (gf as *mut fftxf_complex, gd as *mut fftx_complex);
    let (o32, o64) = (&mut e.o.0, &mut e.o.1);
    let (h, h64) = ((1, hm.as_ptr()), (1, hm64.as_ptr()));
    let (fc, fc64) = (Some(mul_sub_c as Cb), Some(mul_sub_c64 as Cb));
    let (fr, fr64) = (Some(mul_sub_r as Cb), Some(mul_sub_r64 as Cb));
    unsafe {
        twin(
            "pointwise c2c",
            n,
            (o32, o64),
            |o| fftxf_plan_guru_pointwise_c2c(1, pw.as_ptr(), h.0, h.1, cx, o as _, cg, fc, MODE),
            |o| {
                fftx_plan_guru_pointwise_c2c(1, pw.as_ptr(), h.0, h.1, cdx, o as _, cdg, fc64, MODE)
            },
        );
        twin(
            "guru64 pointwise c2c",
            n,
            (o32, o64),
            |o| {
                fftxf_plan_guru64_pointwise_c2c(
                    1,
                    pw64.as_ptr(),
                    h64.0,
                    h64.1,
                    cx,
                    o as _,
                    cg,
                    fc,
                    MODE,
                )
            },
            |o| {
                fftx_plan_guru64_pointwise_c2c(
                    1,
                    pw64.as_ptr(),
                    h64.0,
                    h64.1,
                    cdx,
                    o as _,
                    cdg,
                    fc64,
                    MODE,
                )
            },
        );
        twin(
            "pointwise r2r",
            n,
            (o32, o64),
            |o| fftxf_plan_guru_pointwise_r2r(1, pw.as_ptr(), h.0, h.1, xf, o, gf, fr, MODE),
            |o| fftx_plan_guru_pointwise_r2r(1, pw.as_ptr(), h.0, h.1, xd, o, gd, fr64, MODE),
        );
        twin(
            "guru64 pointwise r2r",
            n,
            (o32, o64),
            |o| {
                fftxf_plan_guru64_pointwise_r2r(1, pw64.as_ptr(), h64.0, h64.1, xf, o, gf, fr, MODE)
            },
            |o| {
                fftx_plan_guru64_pointwise_r2r(
                    1,
                    pw64.as_ptr(),
                    h64.0,
                    h64.1,
                    xd,
                    o,
                    gd,
                    fr64,
                    MODE,
                )
            },
        );
    }
}

/// The Hockney convolution in single precision: zero-pad `ns`^rank of `input` (a copy into a
/// zero temporary), r2c, multiply by `g`, c2r, keep the last `nd`^rank (as `pruned_conv`).
struct ConvF {
    plan: fftxf_plan,
    subplans: Vec<fftxf_plan>,
    temps: (
        fftxf_temp_real,
        fftxf_temp_complex,
        fftxf_temp_complex,
        fftxf_temp_real,
    ),
}

#[allow(clippy::too_many_arguments)]
unsafe fn pruned_conv_f32(
    (rank, n, ns, nd): (usize, usize, usize, usize),
    input: *mut f32,
    out: *mut f32,
    g: *mut fftxf_complex,
    flags: u32,
) -> ConvF {
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
    let f_dx: Vec<fftx_iodimx> = f_d
        .iter()
        .map(|f| fftx_iodimx {
            n: f.n,
            iofs: 0,
            oofs: 0,
            dofs: 0,
            is: f.is,
            os: f.os,
            ds: f.is,
        })
        .collect();
    let b_dx = dx(1, 0, 0, 1, 1);
    let tmp1 = fftxf_create_zero_temp_real(rk, p_d.as_ptr());
    let tmp2 = fftxf_create_temp_complex(rk, f_d.as_ptr());
    let tmp3 = fftxf_create_temp_complex(rk, f_d.as_ptr());
    let tmp4 = fftxf_create_temp_real(rk, p_d.as_ptr());
    let sub = flags | FFTX_SUBPLAN;
    let f = Some(cplx_scaling_f32 as unsafe extern "C" fn(_, _, _));
    let plans = vec![
        fftxf_plan_guru_copy_real(rk, i_dx.as_ptr(), input, tmp1, sub),
        fftxf_plan_guru_dft_r2c(rk, p_d.as_ptr(), 0, &b_d, tmp1, tmp2, sub),
        fftxf_plan_guru_pointwise_c2c(rk, f_dx.as_ptr(), 0, &b_dx, tmp2, tmp3, g, f, sub),
        fftxf_plan_guru_dft_c2r(rk, p_d.as_ptr(), 0, &b_d, tmp3, tmp4, sub),
        fftxf_plan_guru_copy_real(rk, o_dx.as_ptr(), tmp4, out, sub),
    ];
    for (k, p) in plans.iter().enumerate() {
        assert!(!p.is_null(), "subplan {k}: {}", last_error());
    }
    let plan = fftxf_plan_compose(5, plans.as_ptr(), flags);
    assert!(!plan.is_null(), "{}", last_error());
    ConvF {
        plan,
        subplans: plans,
        temps: (tmp1, tmp2, tmp3, tmp4),
    }
}

unsafe fn release_f32(c: ConvF) {
    fftxf_destroy_plan(c.plan);
    c.subplans.into_iter().for_each(|p| fftxf_destroy_plan(p));
    fftxf_destroy_temp_real(c.temps.0);
    fftxf_destroy_temp_complex(c.temps.1);
    fftxf_destroy_temp_complex(c.temps.2);
    fftxf_destroy_temp_real(c.temps.3);
}

fn narrow_symbol(g: &[fftx_complex]) -> Vec<fftxf_complex> {
    g.iter().map(|c| [c[0] as f32, c[1] as f32]).collect()
}

#[test]
fn hockney_convolution_matches_direct_convolution() {
    for &(rank, n, ns, nd) in &[
        (1usize, 64usize, 20usize, 33usize),
        (1, 17, 4, 9),
        (3, 12, 5, 7),
        (3, 16, 8, 8),
    ] {
        let mut r = rng(100 + n as u64);
        let (mut input, input64) = randf(&mut r, ns.pow(rank as u32));
        let kernel = if rank == 1 {
            full_kernel(&mut r, 1, n)
        } else {
            random_kernel(&mut r, rank, n, 5)
        };
        let mut g = narrow_symbol(&symbol(n, rank, &kernel));
        let want = direct(rank, n, ns, nd, &input64, &kernel);
        let total = n.pow(rank as u32);
        for flags in [MODE, MODE | FFTX_NO_OPTIMIZE] {
            let mut out = vec![7.0f32; nd.pow(rank as u32)];
            let what = format!("rank={rank} n={n} ns={ns} nd={nd} flags={flags:#x}");
            unsafe {
                let c = pruned_conv_f32(
                    (rank, n, ns, nd),
                    input.as_mut_ptr(),
                    out.as_mut_ptr(),
                    g.as_mut_ptr(),
                    flags,
                );
                fftxf_execute(c.plan);
                assert_close_f32(&out, &want, total, &what);
                // Zero temporaries are zero again on the second execute.
                out.iter_mut().for_each(|x| *x = -3.0);
                fftxf_execute(c.plan);
                assert_close_f32(&out, &want, total, &format!("{what}, second execute"));
                if flags & FFTX_NO_OPTIMIZE == 0 && rank == 3 {
                    let s = printout_f32(c.plan);
                    assert!(s.contains("(chain ["), "{s}");
                    assert!(s.contains("from f32-real-array@"), "{s}");
                }
                release_f32(c);
            }
        }
    }
}

/// Pruning and fusion work on the graph, whatever its precision: the f32 plan computes exactly
/// the 1-D transforms the f64 plan does (far fewer than the unoptimized graph), with f32
/// accuracy.
#[test]
fn pruned_convolution_does_the_transforms_of_the_double_plan() {
    let (n, ns, nd) = (32usize, 16usize, 16usize);
    let mut r = rng(132);
    let (mut input, mut input64) = randf(&mut r, ns * ns * ns);
    let kernel = random_kernel(&mut r, 3, n, 6);
    let mut g64 = symbol(n, 3, &kernel);
    let mut g = narrow_symbol(&g64);
    let want = direct(3, n, ns, nd, &input64, &kernel);
    let mut out = vec![0f32; nd * nd * nd];
    let mut out64 = vec![0f64; nd * nd * nd];
    unsafe {
        let c = pruned_conv_f32(
            (3, n, ns, nd),
            input.as_mut_ptr(),
            out.as_mut_ptr(),
            g.as_mut_ptr(),
            MODE,
        );
        fftxf_execute(c.plan);
        assert_close_f32(&out, &want, n * n * n, "N=32 f32");
        let c64 = pruned_conv(
            3,
            n,
            ns,
            nd,
            input64.as_mut_ptr(),
            out64.as_mut_ptr(),
            g64.as_mut_ptr(),
            MODE,
        );
        let (planned, unpruned) = planned_f32(c.plan);
        let (p64, u64_, _) = counts(c64.plan);
        assert_eq!((planned, unpruned), (p64, u64_));
        // r2c: 16*16 + 16*17 + 32*17 pencils; c2r the same, reversed.
        assert_eq!(planned, 2 * (16 * 16 + 16 * 17 + 32 * 17));
        assert!(
            planned * 2 < unpruned + unpruned / 50,
            "{planned} vs {unpruned}"
        );
        release_f32(c);
        release(c64);
    }
}

/// dft -> pointwise -> inverse dft over f32 temporaries: one fused chain, against a direct DFT
/// in f64 on the same values.
#[test]
fn c2c_pointwise_c2c_chain_matches_direct_dft() {
    let mut r = rng(39);
    let n = 48usize;
    let (mut x, x64) = randf(&mut r, 2 * n);
    let (mut g, g64) = randf(&mut r, 2 * n);
    let mut out = vec![0f32; 2 * n];
    unsafe {
        let dd = [d(n, 1, 1)];
        let ddx = [dx(n, 0, 0, 1, 1)];
        let t1 = fftxf_create_temp_complex(1, dd.as_ptr());
        let t2 = fftxf_create_temp_complex(1, dd.as_ptr());
        let nul = null_mut();
        let f = Some(cplx_scaling_f32 as unsafe extern "C" fn(_, _, _));
        let plans = [
            fftxf_plan_guru_dft(
                1,
                dd.as_ptr(),
                0,
                nul,
                x.as_mut_ptr() as _,
                t1,
                FFTX_FORWARD,
                SUB,
            ),
            fftxf_plan_guru_pointwise_c2c(
                1,
                ddx.as_ptr(),
                0,
                null_mut(),
                t1,
                t2,
                g.as_mut_ptr() as _,
                f,
                SUB,
            ),
            fftxf_plan_guru_dft(
                1,
                dd.as_ptr(),
                0,
                nul,
                t2,
                out.as_mut_ptr() as _,
                FFTX_BACKWARD,
                SUB,
            ),
        ];
        let p = fftxf_plan_compose(3, plans.as_ptr(), MODE);
        assert!(!p.is_null(), "{}", last_error());
        fftxf_execute(p);
        assert!(printout_f32(p).contains("steps=1 "), "{}", printout_f32(p));
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
        let xf = dft(&x64, -1.0);
        let y: Vec<f64> = (0..2 * n)
            .map(|i| {
                let k = i / 2;
                let (a, b, c, e) = (xf[2 * k], xf[2 * k + 1], g64[2 * k], g64[2 * k + 1]);
                if i % 2 == 0 {
                    a * c - b * e
                } else {
                    a * e + b * c
                }
            })
            .collect();
        assert_close_f32(&out, &dft(&y, 1.0), n, "f32 c2c chain");
        fftxf_destroy_plan(p);
        plans.iter().for_each(|&q| fftxf_destroy_plan(q));
        fftxf_destroy_temp_complex(t1);
        fftxf_destroy_temp_complex(t2);
    }
}

/// A batched r2c then c2r through f32 temporaries (guru64) gives n times the input; an r2r
/// against its direct sum in f64.
#[test]
fn r2c_c2r_roundtrip_and_r2r_against_direct_sums() {
    let mut r = rng(40);
    let (m, n) = (5usize, 20usize);
    let (mut x, x64) = randf(&mut r, m * n);
    let mut y = vec![0f32; m * n];
    unsafe {
        let td = [d64(m, n / 2 + 1, n / 2 + 1), d64(n / 2 + 1, 1, 1)];
        let t = fftxf_create_temp_complex64(2, td.as_ptr());
        let rdims = [d64(n, 1, 1)];
        let how_r2c = [d64(m, n, n / 2 + 1)];
        let how_c2r = [d64(m, n / 2 + 1, n)];
        let plans = [
            fftxf_plan_guru64_dft_r2c(
                1,
                rdims.as_ptr(),
                1,
                how_r2c.as_ptr(),
                x.as_mut_ptr(),
                t,
                SUB,
            ),
            fftxf_plan_guru64_dft_c2r(
                1,
                rdims.as_ptr(),
                1,
                how_c2r.as_ptr(),
                t,
                y.as_mut_ptr(),
                SUB,
            ),
        ];
        let p = fftxf_plan_compose(2, plans.as_ptr(), MODE);
        assert!(!p.is_null(), "{}", last_error());
        fftxf_execute(p);
        let want: Vec<f64> = x64.iter().map(|v| v * n as f64).collect();
        assert_close_f32(&y, &want, n, "r2c/c2r roundtrip");
        fftxf_destroy_plan(p);
        plans.iter().for_each(|&q| fftxf_destroy_plan(q));
        fftxf_destroy_temp_complex(t);
    }
    let n = 12usize;
    let (mut x, x64) = randf(&mut r, n);
    let mut a = vec![0f32; n];
    let kind = [FFTX_REDFT10];
    unsafe {
        let p = fftxf_plan_guru_r2r(
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
        fftxf_execute(p);
        fftxf_destroy_plan(p);
    }
    let want: Vec<f64> = (0..n)
        .map(|k| {
            2.0 * (0..n)
                .map(|j| {
                    x64[j] * (std::f64::consts::PI * k as f64 * (j as f64 + 0.5) / n as f64).cos()
                })
                .sum::<f64>()
        })
        .collect();
    assert_close_f32(&a, &want, n, "redft10");
}

/// Two one-node subplans of a forward DFT of 8 points, one per precision.
struct Pair {
    x: (Vec<f32>, Vec<f64>),
    y: (Vec<f32>, Vec<f64>),
}

impl Pair {
    fn new() -> Pair {
        let mut r = rng(41);
        Pair {
            x: randf(&mut r, 16),
            y: (vec![0f32; 16], vec![0f64; 16]),
        }
    }
    unsafe fn plans(&mut self) -> (fftxf_plan, fftx_plan) {
        let dd = [d(8, 1, 1)];
        let (x, y) = (self.x.0.as_mut_ptr() as _, self.y.0.as_mut_ptr() as _);
        let p32 = fftxf_plan_guru_dft(1, dd.as_ptr(), 0, null_mut(), x, y, FFTX_FORWARD, SUB);
        let (x, y) = (self.x.1.as_mut_ptr() as _, self.y.1.as_mut_ptr() as _);
        let p64 = fftx_plan_guru_dft(1, dd.as_ptr(), 0, null_mut(), x, y, FFTX_FORWARD, SUB);
        assert!(!p32.is_null() && !p64.is_null(), "{}", last_error());
        (p32, p64)
    }
}

#[test]
fn plans_of_the_two_precisions_do_not_mix() {
    let mut pair = Pair::new();
    unsafe {
        let (p32, p64) = pair.plans();
        // A double plan in a single-precision compose, and the other way round.
        let mixed = [p32, p64 as fftxf_plan];
        assert!(fftxf_plan_compose(2, mixed.as_ptr(), MODE).is_null());
        let e = last_error();
        assert!(
            e.contains("fftxf_plan_compose: subplan 1")
                && e.contains("is a double precision (fftx_*) plan, given to the single precision (fftxf_*) interface"),
            "{e}"
        );
        let mixed = [p64, p32 as fftx_plan];
        assert!(fftx_plan_compose(2, mixed.as_ptr(), MODE).is_null());
        let e = last_error();
        assert!(
            e.contains("fftx_plan_compose: subplan 1")
                && e.contains("single precision (fftxf_*) plan"),
            "{e}"
        );
        // Executing, printing or destroying through the other interface is refused too.
        fftx_execute(p32 as fftx_plan);
        assert!(
            last_error().starts_with("fftx_execute: "),
            "{}",
            last_error()
        );
        assert!(fftxf_sprint_plan(p64 as fftxf_plan).is_null());
        fftxf_destroy_plan(p64 as fftxf_plan);
        assert!(
            last_error().contains("fftxf_destroy_plan"),
            "{}",
            last_error()
        );
        // Plans of one precision still compose and run.
        let ok = fftxf_plan_compose(1, [p32].as_ptr(), MODE);
        assert!(!ok.is_null(), "{}", last_error());
        fftxf_execute(ok);
        assert!(pair.y.0.iter().all(|&v| v != 0.0));
        fftxf_destroy_plan(ok);
        fftxf_destroy_plan(p32);
        fftx_destroy_plan(p64);
    }
}

#[test]
fn temporaries_and_helpers_of_the_other_precision_are_refused() {
    let mut pair = Pair::new();
    let dd = [d(8, 1, 1)];
    let ddx = [dx(8, 0, 0, 1, 1)];
    let (x, y) = (pair.x.0.as_mut_ptr(), pair.y.0.as_mut_ptr());
    unsafe {
        // A double temporary in a single-precision plan.
        let t64 = fftx_create_temp_complex(1, dd.as_ptr());
        let q = fftxf_plan_guru_dft(
            1,
            dd.as_ptr(),
            0,
            null_mut(),
            t64 as _,
            y as _,
            FFTX_FORWARD,
            SUB,
        );
        assert!(q.is_null());
        let e = last_error();
        assert!(
            e.contains("in is temporary #")
                && e.contains(
                    "of double precision (fftx_*), but this plan is single precision (fftxf_*)"
                ),
            "{e}"
        );
        fftxf_destroy_temp_complex(t64 as fftxf_temp_complex);
        let e = last_error();
        assert!(
            e.contains("released by the single precision (fftxf_*) interface"),
            "{e}"
        );
        fftx_destroy_temp_complex(t64);
        // A double helper in a function given to an fftxf_ plan.
        let f = Some(double_helper as Cb);
        let q = fftxf_plan_guru_pointwise_c2c(
            1,
            ddx.as_ptr(),
            0,
            null_mut(),
            x as _,
            y as _,
            null_mut(),
            f,
            SUB,
        );
        assert!(q.is_null());
        let e = last_error();
        assert!(
            e.contains("a double precision (fftx_*) helper in a single precision (fftxf_*) pointwise function"),
            "{e}"
        );
    }
}
