//! FFTW API behaviour beyond the numbers: basic/advanced layouts (in-place r2c padding, embeds),
//! new-array execute, bad input, planner flags, wisdom, threads, concurrency, plan inspection.
//! Tests that change or read back process-wide planner state (threads, wisdom, callbacks) hold
//! STATE exclusively; every other test plans, and planning records wisdom (ESTIMATE choices
//! too, as FFTW's planner does), so they hold it shared: a wisdom export never sees a plan of a
//! test running beside it (under valgrind's scheduling one did, and the exported text changed
//! between two exports of the wisdom test).

mod common;
use common::*;
use fftx::*;
use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_int, c_void};
use std::ptr::{null, null_mut};
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

static STATE: RwLock<()> = RwLock::new(());

/// Puts the backend back to FFTX_BACKEND's when dropped.
struct Restore;
impl Drop for Restore {
    fn drop(&mut self) {
        fftx::backend::force_backend(None);
    }
}

/// Exclusive: the test changes or inspects process-wide planner state.
fn state() -> RwLockWriteGuard<'static, ()> {
    STATE.write().unwrap_or_else(|e| e.into_inner())
}

/// Shared: the test only plans and executes.
fn planning() -> RwLockReadGuard<'static, ()> {
    STATE.read().unwrap_or_else(|e| e.into_inner())
}

fn random_complex(n: usize, seed: u64) -> Vec<fftw_complex> {
    use rand::Rng;
    let mut r = rng(seed);
    (0..n)
        .map(|_| [r.gen_range(-1.0..1.0), r.gen_range(-1.0..1.0)])
        .collect()
}

fn random_real(n: usize, seed: u64) -> Vec<f64> {
    use rand::Rng;
    let mut r = rng(seed);
    (0..n).map(|_| r.gen_range(-1.0..1.0)).collect()
}

/// Direct DFT in f64 of a row-major multi-dimensional array: the independent reference.
fn direct_dft(x: &[fftw_complex], shape: &[usize], sign: f64) -> Vec<fftw_complex> {
    let mut cur: Vec<(f64, f64)> = x.iter().map(|c| (c[0], c[1])).collect();
    for d in 0..shape.len() {
        let n = shape[d];
        let inner: usize = shape[d + 1..].iter().product();
        let outer: usize = shape[..d].iter().product();
        let mut next = cur.clone();
        for o in 0..outer {
            for i in 0..inner {
                for k in 0..n {
                    let (mut re, mut im) = (0.0, 0.0);
                    for j in 0..n {
                        let a = sign * 2.0 * std::f64::consts::PI * ((j * k) % n) as f64 / n as f64;
                        let (s, c) = a.sin_cos();
                        let v = cur[(o * n + j) * inner + i];
                        re += v.0 * c - v.1 * s;
                        im += v.0 * s + v.1 * c;
                    }
                    next[(o * n + k) * inner + i] = (re, im);
                }
            }
        }
        cur = next;
    }
    cur.into_iter().map(|(a, b)| [a, b]).collect()
}

fn err_c(a: &[fftw_complex], b: &[fftw_complex]) -> f64 {
    let num: f64 = a
        .iter()
        .zip(b)
        .map(|(x, y)| (x[0] - y[0]).powi(2) + (x[1] - y[1]).powi(2))
        .sum();
    let den: f64 = b.iter().map(|y| y[0] * y[0] + y[1] * y[1]).sum();
    (num / den).sqrt()
}

#[test]
fn direct_dft_reference_small_sizes() {
    let _s = planning();
    for (seed, shape) in [
        vec![1],
        vec![2],
        vec![7],
        vec![12],
        vec![31],
        vec![3, 5],
        vec![4, 1, 6],
        vec![2, 3, 5],
    ]
    .into_iter()
    .enumerate()
    {
        let n: usize = shape.iter().product();
        let dims: Vec<c_int> = shape.iter().map(|&s| s as c_int).collect();
        for sign in [FFTW_FORWARD, FFTW_BACKWARD] {
            let mut x = random_complex(n, seed as u64);
            let want = direct_dft(&x, &shape, sign as f64);
            let mut y = vec![[0.0; 2]; n];
            unsafe {
                let p = fftw_plan_dft(
                    dims.len() as c_int,
                    dims.as_ptr(),
                    x.as_mut_ptr(),
                    y.as_mut_ptr(),
                    sign,
                    FFTW_ESTIMATE,
                );
                assert!(!p.is_null());
                fftw_execute(p);
                fftw_destroy_plan(p);
            }
            let tol = 1e-12 * (n as f64).log2().max(1.0);
            assert!(
                err_c(&y, &want) < tol,
                "{shape:?} sign {sign}: {}",
                err_c(&y, &want)
            );
        }
    }
}

#[test]
fn large_prime_and_power_of_two_sizes() {
    let _s = planning();
    for (seed, n) in [(1u64, 65537usize), (2, 1 << 20), (3, 999983)] {
        let mut x = random_complex(n, seed);
        let mut y = vec![[0.0; 2]; n];
        let mut back = vec![[0.0; 2]; n];
        unsafe {
            let f = fftw_plan_dft_1d(
                n as c_int,
                x.as_mut_ptr(),
                y.as_mut_ptr(),
                FFTW_FORWARD,
                FFTW_ESTIMATE,
            );
            let b = fftw_plan_dft_1d(
                n as c_int,
                y.as_mut_ptr(),
                back.as_mut_ptr(),
                FFTW_BACKWARD,
                FFTW_ESTIMATE,
            );
            fftw_execute(f);
            fftw_execute(b);
            fftw_destroy_plan(f);
            fftw_destroy_plan(b);
        }
        // Spot-check three outputs against the direct sum, and the round trip everywhere.
        for k in [0usize, 1, n / 3] {
            let (mut re, mut im) = (0.0, 0.0);
            for (j, v) in x.iter().enumerate() {
                let a = -2.0 * std::f64::consts::PI * ((j as u128 * k as u128) % n as u128) as f64
                    / n as f64;
                re += v[0] * a.cos() - v[1] * a.sin();
                im += v[0] * a.sin() + v[1] * a.cos();
            }
            let scale = (n as f64).sqrt();
            assert!(
                ((y[k][0] - re).powi(2) + (y[k][1] - im).powi(2)).sqrt() < 1e-9 * scale,
                "n={n} k={k}"
            );
        }
        let scaled: Vec<fftw_complex> = back
            .iter()
            .map(|v| [v[0] / n as f64, v[1] / n as f64])
            .collect();
        assert!(
            err_c(&scaled, &x) < 1e-13 * (n as f64).log2(),
            "n={n} round trip"
        );
    }
}

#[test]
fn in_place_r2c_uses_fftws_padded_layout() {
    let _s = planning();
    // Basic-interface in-place r2c: the real array's last dimension is padded to 2(n/2+1).
    let reference = reference("fftw_");
    let _ = reference; // loaded to assert FFTW is present
    let (n0, n1) = (6usize, 9usize);
    let pad = 2 * (n1 / 2 + 1);
    let src = random_real(n0 * n1, 5);
    let mut buf = vec![0.0f64; n0 * pad];
    for i in 0..n0 {
        buf[i * pad..i * pad + n1].copy_from_slice(&src[i * n1..(i + 1) * n1]);
    }
    let mut x = src.clone();
    let mut want = vec![[0.0; 2]; n0 * (n1 / 2 + 1)];
    unsafe {
        let p = fftw_plan_dft_r2c_2d(
            n0 as c_int,
            n1 as c_int,
            x.as_mut_ptr(),
            want.as_mut_ptr(),
            FFTW_ESTIMATE,
        );
        fftw_execute(p);
        fftw_destroy_plan(p);
        let p = fftw_plan_dft_r2c_2d(
            n0 as c_int,
            n1 as c_int,
            buf.as_mut_ptr(),
            buf.as_mut_ptr() as *mut fftw_complex,
            FFTW_ESTIMATE,
        );
        assert!(!p.is_null());
        fftw_execute(p);
        fftw_destroy_plan(p);
    }
    let got: &[fftw_complex] =
        unsafe { std::slice::from_raw_parts(buf.as_ptr() as *const fftw_complex, want.len()) };
    assert!(err_c(got, &want) < 1e-14);
    // And back, in place: c2r of the padded array gives n0*n1 times the signal.
    unsafe {
        let p = fftw_plan_dft_c2r_2d(
            n0 as c_int,
            n1 as c_int,
            buf.as_mut_ptr() as *mut fftw_complex,
            buf.as_mut_ptr(),
            FFTW_ESTIMATE,
        );
        fftw_execute(p);
        fftw_destroy_plan(p);
    }
    for i in 0..n0 {
        for j in 0..n1 {
            assert!((buf[i * pad + j] / (n0 * n1) as f64 - src[i * n1 + j]).abs() < 1e-14);
        }
    }
}

#[test]
fn plan_many_with_embeds_matches_fftw() {
    let _s = planning();
    let h = dlopen("libfftw3.so.3");
    type Many = unsafe extern "C" fn(
        c_int,
        *const c_int,
        c_int,
        *mut c_void,
        *const c_int,
        c_int,
        c_int,
        *mut c_void,
        *const c_int,
        c_int,
        c_int,
        c_int,
        u32,
    ) -> *mut c_void;
    let many: Many = dlsym(h, "fftw_plan_many_dft");
    let exec: unsafe extern "C" fn(*mut c_void) = dlsym(h, "fftw_execute");
    let destroy: unsafe extern "C" fn(*mut c_void) = dlsym(h, "fftw_destroy_plan");
    let n = [4, 6];
    let inembed = [5, 8];
    let onembed = [4, 7];
    let (howmany, istride, idist, ostride, odist) = (3, 2, 90, 1, 29);
    let ilen = (howmany - 1) * idist + inembed[0] * inembed[1] * istride;
    let olen = (howmany - 1) * odist + onembed[0] * onembed[1] * ostride;
    let mut x = random_complex(ilen as usize, 9);
    let mut ours = vec![[7.0; 2]; olen as usize];
    let mut theirs = ours.clone();
    unsafe {
        let _serial = REFERENCE_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let p = fftw_plan_many_dft(
            2,
            n.as_ptr(),
            howmany,
            x.as_mut_ptr(),
            inembed.as_ptr(),
            istride,
            idist,
            ours.as_mut_ptr(),
            onembed.as_ptr(),
            ostride,
            odist,
            FFTW_BACKWARD,
            FFTW_ESTIMATE,
        );
        assert!(!p.is_null());
        fftw_execute(p);
        fftw_destroy_plan(p);
        let q = many(
            2,
            n.as_ptr(),
            howmany,
            x.as_mut_ptr() as _,
            inembed.as_ptr(),
            istride,
            idist,
            theirs.as_mut_ptr() as _,
            onembed.as_ptr(),
            ostride,
            odist,
            FFTW_BACKWARD,
            FFTW_ESTIMATE,
        );
        exec(q);
        destroy(q);
    }
    assert!(err_c(&ours, &theirs) < 1e-14);
}

#[test]
fn new_array_execute_and_its_checks() {
    let _s = planning();
    let n = 64;
    let mut a = random_complex(n, 1);
    let mut b = vec![[0.0; 2]; n];
    let mut c = random_complex(n, 2);
    let mut d = vec![[0.0; 2]; n];
    unsafe {
        let p = fftw_plan_dft_1d(
            n as c_int,
            a.as_mut_ptr(),
            b.as_mut_ptr(),
            FFTW_FORWARD,
            FFTW_ESTIMATE,
        );
        fftw_execute_dft(p, c.as_mut_ptr(), d.as_mut_ptr());
        let want = direct_dft(&c, &[n], -1.0);
        assert!(err_c(&d, &want) < 1e-13);
        // In-place arrays for an out-of-place plan (undefined in FFTW): still the transform.
        let want = direct_dft(&c, &[n], -1.0);
        fftw_execute_dft(p, c.as_mut_ptr(), c.as_mut_ptr());
        assert!(err_c(&c, &want) < 1e-13);
        // An interleaved plan refuses split arrays (its strides would step past their ends).
        let (mut re, mut im) = (vec![1.0; n], vec![2.0; n]);
        let (mut ro, mut io) = (vec![0.0; n], vec![0.0; n]);
        fftw_execute_split_dft(
            p,
            re.as_mut_ptr(),
            im.as_mut_ptr(),
            ro.as_mut_ptr(),
            io.as_mut_ptr(),
        );
        assert_eq!((ro.clone(), io.clone()), (vec![0.0; n], vec![0.0; n]));
        // A dft plan refuses r2c arrays.
        let mut r = random_real(n, 3);
        fftw_execute_dft_r2c(p, r.as_mut_ptr(), d.as_mut_ptr());
        fftw_destroy_plan(p);
    }
    assert_eq!(
        b,
        vec![[0.0; 2]; n],
        "the plan's own arrays were never touched under ESTIMATE"
    );
}

#[test]
/// An out-of-place c2r plan whose output has FFTW's padded in-place layout, executed on one
/// array (undefined in FFTW): the transform, and the input scalars that are not output ones
/// (the padding of each row) kept, as an out-of-place c2r keeps its input. (The fuzzer found
/// the executor writing its intermediate rows into them.)
fn out_of_place_c2r_executed_in_place_keeps_the_padding() {
    let _s = planning();
    for (n0, n1) in [(6usize, 8usize), (1, 9), (5, 7)] {
        c2r_in_place_on_out_of_place_plan(n0, n1);
    }
}

fn c2r_in_place_on_out_of_place_plan(n0: usize, n1: usize) {
    let (c, r) = (n1 / 2 + 1, 2 * (n1 / 2 + 1));
    let n = [n0 as c_int, n1 as c_int];
    let onembed = [n0 as c_int, r as c_int];
    let mut spec = random_complex(n0 * c, 7);
    let mut out = vec![0.0; n0 * r];
    let mut check = |flags: u32| unsafe {
        let p = fftw_plan_many_dft_c2r(
            2,
            n.as_ptr(),
            1,
            spec.as_mut_ptr(),
            null(),
            1,
            (n0 * c) as c_int,
            out.as_mut_ptr(),
            onembed.as_ptr(),
            1,
            (n0 * r) as c_int,
            flags,
        );
        assert!(!p.is_null());
        let input = random_complex(n0 * c, 8);
        let mut want = vec![0.0; n0 * r];
        fftw_execute_dft_c2r(p, input.clone().as_mut_ptr(), want.as_mut_ptr());
        let mut both = input.clone();
        fftw_execute_dft_c2r(p, both.as_mut_ptr(), both.as_mut_ptr() as *mut f64);
        fftw_destroy_plan(p);
        let got = std::slice::from_raw_parts(both.as_ptr() as *const f64, n0 * r);
        for row in 0..n0 {
            for j in 0..r {
                let (g, i) = (got[row * r + j], row * r + j);
                if j < n1 {
                    assert!((g - want[i]).abs() < 1e-12, "flags {flags:#x} [{row}][{j}]");
                } else {
                    let kept = input[i / 2][i % 2];
                    assert_eq!(
                        g.to_bits(),
                        kept.to_bits(),
                        "flags {flags:#x}: padding [{row}][{j}]"
                    );
                }
            }
        }
    };
    check(FFTW_ESTIMATE);
    check(FFTW_ESTIMATE | FFTW_PRESERVE_INPUT);
}

#[test]
/// A multi-dimensional out-of-place c2r overwrites its input as FFTW's may (FFTW_DESTROY_INPUT
/// is c2r's default; fftx on the CPU then runs its complex passes in the input) and keeps it
/// under FFTW_PRESERVE_INPUT, with the same result. (Against FFTW: tests/differential.rs.)
fn c2r_destroys_its_input_unless_told_to_preserve_it() {
    let _s = planning();
    let (n0, n1, n2) = (6usize, 10usize, 8usize);
    let h = n2 / 2 + 1;
    let spec = random_complex(n0 * n1 * h, 11);
    let mut out = [vec![0.0; n0 * n1 * n2], vec![0.0; n0 * n1 * n2]];
    let mut printed = Vec::new();
    for (k, flags) in [FFTW_ESTIMATE, FFTW_ESTIMATE | FFTW_PRESERVE_INPUT]
        .into_iter()
        .enumerate()
    {
        let mut input = spec.clone();
        unsafe {
            let p = fftw_plan_dft_c2r_3d(
                n0 as c_int,
                n1 as c_int,
                n2 as c_int,
                input.as_mut_ptr(),
                out[k].as_mut_ptr(),
                flags,
            );
            assert!(!p.is_null());
            fftw_execute(p);
            let s = fftw_sprint_plan(p);
            printed.push(CStr::from_ptr(s).to_string_lossy().into_owned());
            libc::free(s as *mut c_void);
            fftw_destroy_plan(p);
        }
        if flags & FFTW_PRESERVE_INPUT != 0 {
            assert_eq!(input, spec, "FFTW_PRESERVE_INPUT: the input changed");
        } else if printed[k].contains("(cpu") {
            // The GPU reads the input into device buffers and keeps it, as FFTW may.
            assert_ne!(
                input, spec,
                "the c2r ran its passes in a buffer, not in the input"
            );
        }
    }
    assert!(printed[0].contains("destroy-input"), "{}", printed[0]);
    assert!(!printed[1].contains("destroy-input"), "{}", printed[1]);
    let scale = out[1].iter().fold(0.0f64, |m, x| m.max(x.abs()));
    for (a, b) in out[0].iter().zip(&out[1]) {
        assert!((a - b).abs() <= 1e-13 * scale, "{a} vs {b}");
    }
}

#[test]
fn estimate_and_measure_planning_leave_arrays_alone() {
    let _s = state();
    for flags in [FFTW_ESTIMATE, FFTW_MEASURE, FFTW_PATIENT] {
        let n = 256;
        let mut a = random_complex(n, 4);
        let mut b = random_complex(n, 5);
        let (a0, b0) = (a.clone(), b.clone());
        unsafe {
            let p = fftw_plan_dft_1d(
                n as c_int,
                a.as_mut_ptr(),
                b.as_mut_ptr(),
                FFTW_FORWARD,
                flags,
            );
            assert!(!p.is_null());
            fftw_destroy_plan(p);
        }
        assert_eq!((a, b), (a0, b0), "flags {flags:#x}");
    }
}

#[test]
/// A problem whose CPU plan needs more host memory than the machine has left (c2c f64 2^34 in
/// place: 256 GiB of array, and the plan's tables twice that) gets a NULL plan and a message,
/// not the out-of-memory killer while the plan fills its tables. With a GPU the planner may run
/// it out of card instead, which needs bounded host memory beyond the caller's array.
fn a_plan_larger_than_host_memory_is_refused() {
    let _s = planning();
    let mut a = random_complex(16, 3);
    let huge = [fftw_iodim64 {
        n: 1 << 34,
        is: 1,
        os: 1,
    }];
    let ap = a.as_mut_ptr();
    let p = unsafe {
        fftw_plan_guru64_dft(
            1,
            huge.as_ptr(),
            0,
            null(),
            ap,
            ap,
            FFTW_FORWARD,
            FFTW_ESTIMATE,
        )
    };
    if fftx::exec::cuda::default_device().is_some() {
        unsafe { fftw_destroy_plan(p) };
        return;
    }
    assert!(p.is_null(), "a 2^34-point CPU plan on this machine");
}

#[test]
/// What FFTW 3.3.10 refuses (NULL); what it accepts and fftx used to refuse is in
/// tests/fftw_contract.rs.
fn bad_input_gives_null_plans_and_no_crash() {
    let _s = planning();
    let mut a = random_complex(16, 1);
    let mut b = vec![[0.0; 2]; 16];
    let mut r = random_real(16, 2);
    let (ap, bp) = (a.as_mut_ptr(), b.as_mut_ptr());
    unsafe {
        assert!(
            fftw_plan_dft_1d(0, ap, bp, FFTW_FORWARD, FFTW_ESTIMATE).is_null(),
            "n = 0"
        );
        assert!(
            fftw_plan_dft_1d(-4, ap, bp, FFTW_FORWARD, FFTW_ESTIMATE).is_null(),
            "n < 0"
        );
        assert!(
            fftw_plan_dft(-1, [4].as_ptr(), ap, bp, FFTW_FORWARD, FFTW_ESTIMATE).is_null(),
            "negative rank"
        );
        assert!(
            fftw_plan_dft(2, null(), ap, bp, FFTW_FORWARD, FFTW_ESTIMATE).is_null(),
            "NULL n"
        );
        assert!(
            fftw_plan_r2r_1d(
                1,
                r.as_mut_ptr(),
                r.as_mut_ptr(),
                FFTW_REDFT00,
                FFTW_ESTIMATE
            )
            .is_null(),
            "REDFT00 n=1, as FFTW"
        );
        assert!(
            fftw_plan_many_dft(
                1,
                [16].as_ptr(),
                -1,
                ap,
                null(),
                1,
                16,
                bp,
                null(),
                1,
                16,
                FFTW_FORWARD,
                FFTW_ESTIMATE
            )
            .is_null(),
            "howmany < 0"
        );
        // Sizes whose product overflows.
        let big = fftw_iodim64 {
            n: isize::MAX / 2,
            is: 1,
            os: 1,
        };
        let dims = [big, big];
        assert!(
            fftw_plan_guru64_dft(
                2,
                dims.as_ptr(),
                0,
                null(),
                ap,
                bp,
                FFTW_FORWARD,
                FFTW_ESTIMATE
            )
            .is_null(),
            "overflow"
        );
        let huge_stride = [fftw_iodim64 {
            n: 3,
            is: isize::MAX / 2,
            os: 1,
        }];
        assert!(
            fftw_plan_guru64_dft(
                1,
                huge_stride.as_ptr(),
                0,
                null(),
                ap,
                bp,
                FFTW_FORWARD,
                FFTW_ESTIMATE
            )
            .is_null(),
            "stride overflow"
        );
        // Plans that are not plans: ignored, no crash.
        fftw_execute(null());
        fftw_destroy_plan(null_mut());
        let p = fftw_plan_dft_1d(16, ap, bp, FFTW_FORWARD, FFTW_ESTIMATE);
        fftw_destroy_plan(p);
        fftw_destroy_plan(p); // double destroy
        fftw_execute(p); // use after destroy
        fftw_execute(0x1234 as *const _);
        // A single-precision plan handed to the double API is refused.
        let mut f = vec![[0.0f32; 2]; 16];
        let q = fftwf_plan_dft_1d(
            16,
            f.as_mut_ptr(),
            f.as_mut_ptr(),
            FFTW_FORWARD,
            FFTW_ESTIMATE,
        );
        assert!(!q.is_null());
        fftw_execute_dft(q, ap, bp);
        fftwf_destroy_plan(q);
    }
    assert_eq!(b, vec![[0.0; 2]; 16]);
}

#[test]
fn rank_zero_howmany_zero_and_empty_loops() {
    let _s = planning();
    let mut a = random_complex(6, 3);
    let mut b = vec![[0.0; 2]; 6];
    unsafe {
        // Rank 0 with a loop: a strided copy.
        let loops = [fftw_iodim { n: 3, is: 2, os: 1 }];
        let p = fftw_plan_guru_dft(
            0,
            null(),
            1,
            loops.as_ptr(),
            a.as_mut_ptr(),
            b.as_mut_ptr(),
            FFTW_FORWARD,
            FFTW_ESTIMATE,
        );
        assert!(!p.is_null());
        fftw_execute(p);
        fftw_destroy_plan(p);
        assert_eq!(&b[..3], &[a[0], a[2], a[4]]);
        assert_eq!(&b[3..], &[[0.0; 2]; 3]);
        // howmany = 0: a valid plan that does nothing.
        let p = fftw_plan_many_dft(
            1,
            [6].as_ptr(),
            0,
            a.as_mut_ptr(),
            null(),
            1,
            6,
            b.as_mut_ptr(),
            null(),
            1,
            6,
            FFTW_FORWARD,
            FFTW_ESTIMATE,
        );
        assert!(!p.is_null());
        let before = b.clone();
        fftw_execute(p);
        fftw_destroy_plan(p);
        assert_eq!(b, before);
        // Rank-0 r2c: real part copied, imaginary part zero.
        let mut r = random_real(1, 4);
        let p = fftw_plan_guru_dft_r2c(
            0,
            null(),
            0,
            null(),
            r.as_mut_ptr(),
            b.as_mut_ptr(),
            FFTW_ESTIMATE,
        );
        fftw_execute(p);
        fftw_destroy_plan(p);
        assert_eq!(b[0], [r[0], 0.0]);
    }
}

#[test]
fn guru64_strides_beyond_2_to_the_31() {
    let _s = planning();
    // A sparse 16 GiB mapping: three elements 2^31 + 5 floats apart (8 GiB), the rest never
    // touched, so the 64-bit offset arithmetic is exercised without the memory.
    let stride: isize = (1 << 31) + 5;
    let len = (2 * stride as usize + 1) * 4;
    unsafe {
        let base = libc::mmap(
            null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        );
        assert_ne!(base, libc::MAP_FAILED);
        let x = base as *mut f32;
        for (i, v) in [1.0f32, 2.0, 4.0].iter().enumerate() {
            *x.offset(i as isize * stride) = *v;
        }
        let mut out = [0.0f32; 3];
        let dims = [fftw_iodim64 {
            n: 3,
            is: stride,
            os: 1,
        }];
        let p = fftwf_plan_guru64_r2r(
            1,
            dims.as_ptr(),
            0,
            null(),
            x,
            out.as_mut_ptr(),
            [FFTW_R2HC].as_ptr(),
            FFTW_ESTIMATE,
        );
        assert!(!p.is_null());
        fftwf_execute(p);
        fftwf_destroy_plan(p);
        // R2HC of [1, 2, 4]: r0 = 7, r1 = 1 - 3 = -2 (1 + 2cos(2pi/3)*... ), i1 = -(2-4) sin(2pi/3).
        let s = (2.0 * std::f32::consts::PI / 3.0).sin();
        let want = [7.0, 1.0 - 0.5 * 6.0, -(2.0 * s - 4.0 * s)];
        for k in 0..3 {
            assert!((out[k] - want[k]).abs() < 1e-5, "{out:?} vs {want:?}");
        }
        libc::munmap(base, len);
    }
}

unsafe extern "C" fn collect_char(c: c_char, data: *mut c_void) {
    (*(data as *mut Vec<u8>)).push(c as u8);
}

unsafe extern "C" fn read_char(data: *mut c_void) -> c_int {
    let src = &mut *(data as *mut (Vec<u8>, usize));
    if src.1 < src.0.len() {
        src.1 += 1;
        src.0[src.1 - 1] as c_int
    } else {
        libc::EOF
    }
}

#[test]
fn wisdom_round_trips_and_spares_measuring() {
    let _s = state();
    fftw_forget_wisdom();
    let n = 300;
    let mut a = random_complex(n, 1);
    let mut b = vec![[0.0; 2]; n];
    unsafe {
        assert!(
            fftw_plan_dft_1d(
                n as c_int,
                a.as_mut_ptr(),
                b.as_mut_ptr(),
                FFTW_FORWARD,
                FFTW_MEASURE | FFTW_WISDOM_ONLY
            )
            .is_null(),
            "no wisdom yet"
        );
        let p = fftw_plan_dft_1d(
            n as c_int,
            a.as_mut_ptr(),
            b.as_mut_ptr(),
            FFTW_FORWARD,
            FFTW_MEASURE,
        );
        assert!(fftw_cost(p) > 0.0, "a measured plan has a measured cost");
        fftw_destroy_plan(p);
        let s = fftw_export_wisdom_to_string();
        let text = CStr::from_ptr(s).to_str().unwrap().to_owned();
        libc::free(s as *mut c_void);
        assert!(text.contains("(fftw-3.3.10 fftx_wisdom"), "{text}");
        // FFTW 3.3.10 reads it without an error (an empty wisdom of its own comes first).
        {
            let _serial = REFERENCE_LOCK.lock().unwrap_or_else(|e| e.into_inner());
            let h = dlopen("libfftw3.so.3");
            let import: unsafe extern "C" fn(*const std::os::raw::c_char) -> c_int =
                dlsym(h, "fftw_import_wisdom_from_string");
            let c = CString::new(text.clone()).unwrap();
            assert_eq!(
                import(c.as_ptr()),
                1,
                "the system FFTW reads fftx's wisdom: {text}"
            );
            // And fftx reads FFTW's.
            let export: unsafe extern "C" fn() -> *mut std::os::raw::c_char =
                dlsym(h, "fftw_export_wisdom_to_string");
            let theirs = export();
            assert_eq!(fftw_import_wisdom_from_string(theirs), 1);
            libc::free(theirs as *mut c_void);
        }

        // String round trip.
        fftw_forget_wisdom();
        assert!(fftw_plan_dft_1d(
            n as c_int,
            a.as_mut_ptr(),
            b.as_mut_ptr(),
            FFTW_FORWARD,
            FFTW_MEASURE | FFTW_WISDOM_ONLY
        )
        .is_null());
        let c = CString::new(text.clone()).unwrap();
        assert_eq!(fftw_import_wisdom_from_string(c.as_ptr()), 1);
        let before = fftx::planner::measurements();
        let p = fftw_plan_dft_1d(
            n as c_int,
            a.as_mut_ptr(),
            b.as_mut_ptr(),
            FFTW_FORWARD,
            FFTW_MEASURE | FFTW_WISDOM_ONLY,
        );
        assert!(!p.is_null(), "plan from imported wisdom");
        fftw_destroy_plan(p);
        let p = fftw_plan_dft_1d(
            n as c_int,
            a.as_mut_ptr(),
            b.as_mut_ptr(),
            FFTW_FORWARD,
            FFTW_MEASURE,
        );
        fftw_destroy_plan(p);
        assert_eq!(
            fftx::planner::measurements(),
            before,
            "plans from wisdom are made without measuring"
        );
        // ESTIMATE-level wisdom does not satisfy PATIENT.
        assert!(fftw_plan_dft_1d(
            n as c_int,
            a.as_mut_ptr(),
            b.as_mut_ptr(),
            FFTW_FORWARD,
            FFTW_PATIENT | FFTW_WISDOM_ONLY
        )
        .is_null());

        // Single precision does not take double wisdom; malformed text is refused.
        assert_eq!(fftwf_import_wisdom_from_string(c.as_ptr()), 0);
        let bad = CString::new("(fftw-3.3.10 fftx_wisdom (choice").unwrap();
        assert_eq!(fftw_import_wisdom_from_string(bad.as_ptr()), 0);

        // File name, FILE*, and callbacks.
        let dir = std::env::temp_dir().join(format!("fftx-wisdom-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = CString::new(dir.join("w").to_str().unwrap()).unwrap();
        assert_eq!(fftw_export_wisdom_to_filename(path.as_ptr()), 1);
        fftw_forget_wisdom();
        assert_eq!(fftw_import_wisdom_from_filename(path.as_ptr()), 1);
        let f = libc::fopen(path.as_ptr(), c"w".as_ptr());
        fftw_export_wisdom_to_file(f);
        libc::fclose(f);
        fftw_forget_wisdom();
        let f = libc::fopen(path.as_ptr(), c"r".as_ptr());
        assert_eq!(fftw_import_wisdom_from_file(f), 1);
        libc::fclose(f);
        let mut out: Vec<u8> = Vec::new();
        fftw_export_wisdom(Some(collect_char), &mut out as *mut Vec<u8> as *mut c_void);
        assert_eq!(String::from_utf8(out.clone()).unwrap(), text);
        fftw_forget_wisdom();
        let mut src = (out, 0usize);
        assert_eq!(
            fftw_import_wisdom(Some(read_char), &mut src as *mut _ as *mut c_void),
            1
        );
        let p = fftw_plan_dft_1d(
            n as c_int,
            a.as_mut_ptr(),
            b.as_mut_ptr(),
            FFTW_FORWARD,
            FFTW_MEASURE | FFTW_WISDOM_ONLY,
        );
        assert!(!p.is_null(), "plan from callback-imported wisdom");
        fftw_destroy_plan(p);

        // System wisdom from the documented place (redirected for the test).
        std::fs::write(dir.join("wisdom"), &text).unwrap();
        std::env::set_var("FFTX_SYSTEM_WISDOM_DIR", &dir);
        fftw_forget_wisdom();
        assert_eq!(fftw_import_system_wisdom(), 1);
        assert_eq!(fftwf_import_system_wisdom(), 0, "no wisdomf there");
        std::env::remove_var("FFTX_SYSTEM_WISDOM_DIR");
        std::fs::remove_dir_all(&dir).unwrap();
        fftw_forget_wisdom();
    }
}

#[test]
fn timelimit_bounds_planning() {
    let _s = state();
    fftw_forget_wisdom();
    fftw_set_timelimit(0.0);
    fftw_plan_with_nthreads(4);
    let n = 1 << 16;
    let mut a = random_complex(n, 1);
    let mut b = vec![[0.0; 2]; n];
    let t = std::time::Instant::now();
    unsafe {
        let p = fftw_plan_dft_1d(
            n as c_int,
            a.as_mut_ptr(),
            b.as_mut_ptr(),
            FFTW_FORWARD,
            FFTW_EXHAUSTIVE,
        );
        assert!(!p.is_null());
        fftw_destroy_plan(p);
    }
    assert!(
        t.elapsed().as_secs_f64() < 1.0,
        "planning took {:?} with a zero time limit",
        t.elapsed()
    );
    // Infinite or NaN limits mean no limit, as negative ones do.
    for limit in [f64::INFINITY, f64::NAN] {
        fftw_set_timelimit(limit);
        fftw_forget_wisdom();
        unsafe {
            let p = fftw_plan_dft_1d(
                64,
                a.as_mut_ptr(),
                b.as_mut_ptr(),
                FFTW_FORWARD,
                FFTW_MEASURE,
            );
            assert!(!p.is_null(), "time limit {limit}");
            fftw_destroy_plan(p);
        }
    }
    fftw_set_timelimit(FFTW_NO_TIMELIMIT);
    fftw_plan_with_nthreads(1);
    fftw_forget_wisdom();
}

static LOOP_CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A caller's parallel loop (what an OpenMP program would install): runs jobs on its own threads.
unsafe extern "C" fn my_loop(
    work: fftw_work_func,
    jobdata: *mut c_char,
    elsize: usize,
    njobs: c_int,
    _data: *mut c_void,
) {
    LOOP_CALLS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let work = work.unwrap();
    let base = jobdata as usize;
    std::thread::scope(|s| {
        for i in 0..njobs as usize {
            s.spawn(move || {
                work((base + i * elsize) as *mut c_char);
            });
        }
    });
}

#[test]
fn threads_and_the_threads_callback() {
    let _s = state();
    // The callback runs the CPU executor's parallel loops (GPU plans' transfer threads wait on
    // one another and never go through it).
    fftx::backend::force_backend(Some(fftx::backend::BackendSetting::Cpu));
    let _cpu = Restore;
    assert_eq!(fftw_init_threads(), 1);
    fftw_plan_with_nthreads(3);
    assert_eq!(fftw_planner_nthreads(), 3);
    fftw_make_planner_thread_safe();
    let (n0, n1) = (64usize, 512usize);
    let mut a = random_complex(n0 * n1 * 8, 2);
    let mut single = vec![[0.0; 2]; a.len()];
    let mut threaded = single.clone();
    let n = [n0 as c_int, n1 as c_int];
    unsafe {
        // ESTIMATE uses threads for this much work; the result equals the one-thread plan's.
        let p = fftw_plan_many_dft(
            2,
            n.as_ptr(),
            8,
            a.as_mut_ptr(),
            null(),
            1,
            (n0 * n1) as c_int,
            threaded.as_mut_ptr(),
            null(),
            1,
            (n0 * n1) as c_int,
            FFTW_FORWARD,
            FFTW_ESTIMATE,
        );
        let printed = fftw_sprint_plan(p);
        let text = CStr::from_ptr(printed).to_str().unwrap().to_owned();
        libc::free(printed as *mut c_void);
        assert!(text.contains("threads=3"), "{text}");
        fftw_threads_set_callback(Some(my_loop), null_mut());
        fftw_execute(p);
        fftw_threads_set_callback(None, null_mut());
        assert!(
            LOOP_CALLS.load(std::sync::atomic::Ordering::SeqCst) > 0,
            "the caller's loop ran the jobs"
        );
        fftw_destroy_plan(p);
        fftw_plan_with_nthreads(1);
        let p = fftw_plan_many_dft(
            2,
            n.as_ptr(),
            8,
            a.as_mut_ptr(),
            null(),
            1,
            (n0 * n1) as c_int,
            single.as_mut_ptr(),
            null(),
            1,
            (n0 * n1) as c_int,
            FFTW_FORWARD,
            FFTW_ESTIMATE,
        );
        fftw_execute(p);
        fftw_destroy_plan(p);
    }
    assert_eq!(single, threaded);

    // One large multi-dimensional r2c and c2r: threads inside the transform (gather, rows,
    // axis passes, scatter) give the one-thread result.
    let (n0, n1, n2) = (48usize, 40usize, 36usize); // enough points for ESTIMATE to use threads
    let n = [n0 as c_int, n1 as c_int, n2 as c_int];
    let h = n2 / 2 + 1;
    let mut x = random_real(n0 * n1 * n2, 6);
    let mut spectra = Vec::new();
    let mut signals = Vec::new();
    for threads in [1, 2] {
        fftw_plan_with_nthreads(threads);
        let mut spec = vec![[0.0; 2]; n0 * n1 * h];
        let mut back = vec![0.0; n0 * n1 * n2];
        unsafe {
            let p = fftw_plan_dft_r2c(
                3,
                n.as_ptr(),
                x.as_mut_ptr(),
                spec.as_mut_ptr(),
                FFTW_ESTIMATE,
            );
            let q = fftw_plan_dft_c2r(
                3,
                n.as_ptr(),
                spec.as_mut_ptr(),
                back.as_mut_ptr(),
                FFTW_ESTIMATE | FFTW_PRESERVE_INPUT,
            );
            let printed = fftw_sprint_plan(p);
            let text = CStr::from_ptr(printed).to_str().unwrap().to_owned();
            libc::free(printed as *mut c_void);
            assert!(text.contains(&format!("threads={threads}")), "{text}");
            fftw_execute(p);
            fftw_execute(q);
            fftw_destroy_plan(p);
            fftw_destroy_plan(q);
        }
        spectra.push(spec);
        signals.push(back);
    }
    assert_eq!(spectra[0], spectra[1]);
    assert_eq!(signals[0], signals[1]);
    for (b, a) in signals[0].iter().zip(&x) {
        assert!((b / (n0 * n1 * n2) as f64 - a).abs() < 1e-13);
    }
    fftw_cleanup_threads();
}

#[test]
fn concurrent_planning_and_execution() {
    let _s = planning();
    let handles: Vec<_> = (0..8)
        .map(|t| {
            std::thread::spawn(move || {
                for i in 0..20 {
                    let n = 16 + 7 * ((t * 20 + i) % 13);
                    let mut a = random_complex(n, (t * 100 + i) as u64);
                    let mut b = vec![[0.0; 2]; n];
                    unsafe {
                        let p = fftw_plan_dft_1d(
                            n as c_int,
                            a.as_mut_ptr(),
                            b.as_mut_ptr(),
                            FFTW_FORWARD,
                            FFTW_ESTIMATE,
                        );
                        fftw_execute(p);
                        fftw_destroy_plan(p);
                    }
                    assert!(err_c(&b, &direct_dft(&a, &[n], -1.0)) < 1e-12);
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    // One plan executed from several threads on different arrays (new-array execute).
    let n = 128;
    let mut a = random_complex(n, 1);
    let mut b = vec![[0.0; 2]; n];
    let p = unsafe {
        fftw_plan_dft_1d(
            n as c_int,
            a.as_mut_ptr(),
            b.as_mut_ptr(),
            FFTW_BACKWARD,
            FFTW_ESTIMATE,
        )
    } as usize;
    std::thread::scope(|s| {
        for t in 0..4 {
            s.spawn(move || {
                let mut x = random_complex(n, 50 + t);
                let mut y = vec![[0.0; 2]; n];
                unsafe { fftw_execute_dft(p as *const _, x.as_mut_ptr(), y.as_mut_ptr()) };
                assert!(err_c(&y, &direct_dft(&x, &[n], 1.0)) < 1e-12);
            });
        }
    });
    unsafe { fftw_destroy_plan(p as *mut _) };
}

#[test]
fn plan_inspection_memory_and_version() {
    let _s = planning();
    let n = 1024;
    unsafe {
        let a = fftw_alloc_complex(n);
        let b = fftw_alloc_complex(n);
        assert_eq!(fftw_alignment_of(a as *mut f64), 0);
        assert_eq!(fftw_alignment_of((a as *mut f64).add(1)), 8);
        for i in 0..n {
            *a.add(i) = [i as f64, 1.0];
        }
        let p = fftw_plan_dft_1d(n as c_int, a, b, FFTW_FORWARD, FFTW_ESTIMATE);
        let s = fftw_sprint_plan(p);
        let text = CStr::from_ptr(s).to_str().unwrap().to_owned();
        libc::free(s as *mut c_void);
        assert!(
            text.contains("dft-forward") && text.contains("1024"),
            "{text}"
        );
        let (mut add, mut mul, mut fma) = (0.0, 0.0, -1.0);
        fftw_flops(p, &mut add, &mut mul, &mut fma);
        assert!(add > 0.0 && mul > 0.0 && fma == 0.0);
        assert!(fftw_estimate_cost(p) > 0.0);
        assert_eq!(
            fftw_cost(p),
            0.0,
            "an estimated plan has no measured cost, as in FFTW"
        );
        fftw_destroy_plan(p);
        fftw_free(a as *mut c_void);
        fftw_free(b as *mut c_void);
        let r = fftwf_alloc_real(0);
        assert!(!r.is_null());
        fftwf_free(r as *mut c_void);
        assert!(
            fftw_alloc_real(usize::MAX / 2).is_null(),
            "overflowing size"
        );
        let v = CStr::from_ptr(fftw_version.as_ptr() as *const c_char)
            .to_str()
            .unwrap();
        assert!(v.starts_with("fftw-3.3.10") && v.contains("fftx"), "{v}");
        assert!(
            fftw_version.len() <= 17,
            "no longer than FFTW -sse2 builds' string (copy relocations)"
        );
    }
}
