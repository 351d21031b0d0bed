//! The GPU executor against the CPU executor, through the FFTW API: streamed programs over
//! pinned and pageable arrays, strided and split layouts, ranks past cuFFT's three, device
//! arrays, the planner's choices, out-of-memory fallback and resource reuse.
//!
//! Without a GPU these tests have nothing to run and say so, unless FFTX_REQUIRE_GPU=1 (the
//! device script sets it), which makes a missing GPU a failure. The full differential suite
//! also runs on the GPU there, with FFTX_BACKEND=gpu.

mod common;

use fftx::backend::{force_backend, BackendSetting};
use fftx::exec::cuda;
use fftx::problem::{Kind, Precision, Problem};
use fftx::*;
use rand::{Rng, SeedableRng};
use std::sync::{Arc, Mutex};

static STATE: Mutex<()> = Mutex::new(());

fn state() -> std::sync::MutexGuard<'static, ()> {
    STATE.lock().unwrap_or_else(|e| e.into_inner())
}

fn have_gpu() -> bool {
    if cuda::default_device().is_some() {
        return true;
    }
    assert!(
        std::env::var("FFTX_REQUIRE_GPU").as_deref() != Ok("1"),
        "FFTX_REQUIRE_GPU=1 but no GPU: {:?}",
        cuda::why_no_gpu()
    );
    eprintln!("no GPU ({:?}): nothing to compare", cuda::why_no_gpu());
    false
}

fn random(n: usize, seed: u64) -> Vec<f64> {
    let mut r = rand::rngs::SmallRng::seed_from_u64(seed);
    (0..n).map(|_| r.gen_range(-1.0..1.0)).collect()
}

fn rel_l2(a: &[f64], b: &[f64]) -> f64 {
    let num: f64 = a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum();
    let den: f64 = b.iter().map(|y| y * y).sum();
    (num / den.max(1e-300)).sqrt()
}

/// Runs `make` (a planner call on the given arrays) with a forced backend, executes, and returns
/// the output and the plan's printout.
unsafe fn run_f64(
    backend: BackendSetting,
    input: &[f64],
    out_len: usize,
    in_place: bool,
    make: &dyn Fn(*mut f64, *mut f64) -> fftw_plan,
) -> (Vec<f64>, String) {
    force_backend(Some(backend));
    let len = input.len().max(out_len);
    let a = fftw_malloc(len * 8) as *mut f64;
    let b = if in_place {
        a
    } else {
        fftw_malloc(out_len * 8) as *mut f64
    };
    let p = make(a, b);
    assert!(!p.is_null(), "plan failed");
    std::ptr::copy_nonoverlapping(input.as_ptr(), a, input.len());
    fftw_execute(p);
    let out = std::slice::from_raw_parts(b, out_len).to_vec();
    let text = plan_text(p);
    fftw_destroy_plan(p);
    fftw_free(a as *mut _);
    if !in_place {
        fftw_free(b as *mut _);
    }
    force_backend(None);
    (out, text)
}

unsafe fn plan_text(p: fftw_plan) -> String {
    let s = fftw_sprint_plan(p);
    let t = std::ffi::CStr::from_ptr(s).to_string_lossy().into_owned();
    libc::free(s as *mut _);
    t
}

/// The same problem on both executors agrees, and the GPU plan says it runs on the GPU.
unsafe fn agree(
    name: &str,
    input: &[f64],
    out_len: usize,
    in_place: bool,
    make: &dyn Fn(*mut f64, *mut f64) -> fftw_plan,
    log2n: f64,
) {
    let (cpu, ct) = run_f64(BackendSetting::Cpu, input, out_len, in_place, make);
    let (gpu, gt) = run_f64(BackendSetting::Gpu, input, out_len, in_place, make);
    assert!(ct.contains("(cpu"), "{name}: {ct}");
    assert!(gt.contains("(gpu"), "{name}: the GPU was not used: {gt}");
    let e = rel_l2(&gpu, &cpu);
    eprintln!("{name}: rel. L2 {e:.2e}");
    assert!(e <= 1e-12 * log2n.max(1.0), "{name}: rel. L2 {e:.3e}");
}

#[test]
fn streamed_batches_pinned_and_pageable() {
    let _s = state();
    if !have_gpu() {
        return;
    }
    unsafe {
        // 1500 transforms of 4096 complex doubles: 96 MiB, six tiles.
        let (n, howmany) = (4096usize, 1500usize);
        let x = random(2 * n * howmany, 1);
        let make = many_1d_plan(n, howmany, (1, n), FFTW_FORWARD);
        agree("batch pinned", &x, 2 * n * howmany, false, &make, 12.0);
        agree(
            "batch pinned in-place",
            &x,
            2 * n * howmany,
            true,
            &make,
            12.0,
        );
        // Pageable arrays (Vec): through the staging blocks.
        for backend in [BackendSetting::Cpu, BackendSetting::Gpu] {
            force_backend(Some(backend));
        }
        let mut outs = Vec::new();
        for backend in [BackendSetting::Cpu, BackendSetting::Gpu] {
            force_backend(Some(backend));
            let mut a = x.clone();
            let mut b = vec![0.0f64; x.len()];
            let p = make(a.as_mut_ptr(), b.as_mut_ptr());
            fftw_execute(p);
            fftw_destroy_plan(p);
            outs.push(b);
        }
        force_backend(None);
        let e = rel_l2(&outs[1], &outs[0]);
        assert!(e <= 12e-12, "pageable: {e:.3e}");
    }
}

/// Pageable arrays from several threads at once: each run takes a crew of copy threads of its
/// own (`host_copies::Crew`), kept for the next runs, and runs of both precisions share the
/// crews. Four threads, each executing its own plan (f64 and f32 alternating) five times on
/// `malloc` arrays, agree with the CPU plans' results every time.
#[test]
fn concurrent_pageable_executes_keep_their_copies_apart() {
    let _s = state();
    if !have_gpu() {
        return;
    }
    // 512 transforms of 4096 points: 32 MiB in f64, several staging blocks each way.
    let (n, howmany) = (4096usize, 512usize);
    let len = 2 * n * howmany;
    let nn = [n as i32];
    // The same FFTW_ESTIMATE batch plan in either precision, as an address (threads share it).
    macro_rules! batch_plan {
        ($planner:ident, $t:ty) => {
            move |a: *mut $t, b: *mut $t| unsafe {
                let (n, howmany, none) = (n as i32, howmany as i32, std::ptr::null());
                let (a, b) = (a as *mut _, b as *mut _);
                let (sign, flags) = (FFTW_FORWARD, FFTW_ESTIMATE);
                let p = $planner(
                    1,
                    nn.as_ptr(),
                    howmany,
                    a,
                    none,
                    1,
                    n,
                    b,
                    none,
                    1,
                    n,
                    sign,
                    flags,
                );
                p as usize
            }
        };
    }
    let plan64 = batch_plan!(fftw_plan_many_dft, f64);
    let plan32 = batch_plan!(fftwf_plan_many_dft, f32);
    // Transform `x` by thread t's plan (f64 for even t, f32 for odd), planned on its arrays;
    // the printed plan contains `marker`.
    let transform = move |t: usize, x: &[f64], marker: &str| -> Vec<f64> {
        macro_rules! run {
            ($plan:ident, $t:ty, $execute:ident, $destroy:ident, $print:ident) => {{
                let mut a: Vec<$t> = x.iter().map(|&v| v as $t).collect();
                let mut b: Vec<$t> = vec![0.0; len];
                let p = $plan(a.as_mut_ptr(), b.as_mut_ptr()) as *mut _;
                unsafe {
                    let text = $print(p);
                    let printed = std::ffi::CStr::from_ptr(text)
                        .to_string_lossy()
                        .into_owned();
                    libc::free(text as *mut _);
                    assert!(printed.contains(marker), "{printed}");
                    $execute(p);
                    $destroy(p);
                }
                b.iter().map(|&v| v as f64).collect()
            }};
        }
        if t.is_multiple_of(2) {
            run!(
                plan64,
                f64,
                fftw_execute,
                fftw_destroy_plan,
                fftw_sprint_plan
            )
        } else {
            run!(
                plan32,
                f32,
                fftwf_execute,
                fftwf_destroy_plan,
                fftwf_sprint_plan
            )
        }
    };
    force_backend(Some(BackendSetting::Cpu));
    let expected: Vec<(Vec<f64>, Vec<f64>)> = (0..4)
        .map(|t| {
            let x = random(len, 40 + t as u64);
            let y = transform(t, &x, "");
            (x, y)
        })
        .collect();
    force_backend(Some(BackendSetting::Gpu));
    let threads: Vec<_> = expected
        .into_iter()
        .enumerate()
        .map(|(t, (x, want))| {
            std::thread::spawn(move || {
                (0..5)
                    .map(|_| rel_l2(&transform(t, &x, "(gpu"), &want))
                    .fold(0.0f64, f64::max)
            })
        })
        .collect();
    let worst: Vec<f64> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    force_backend(None);
    eprintln!("concurrent pageable executes, worst rel. L2 per thread: {worst:?}");
    for (t, e) in worst.iter().enumerate() {
        let tol = if t % 2 == 0 { 12e-12 } else { 12e-6 };
        assert!(*e <= tol, "thread {t}: rel. L2 {e:.3e}");
    }
}

#[test]
fn interleaved_batches_in_place_pinned_and_pageable() {
    let _s = state();
    if !have_gpu() {
        return;
    }
    unsafe {
        // 1024-point columns of 3000 interleaved batches (stride 3000, batches 1 apart), in
        // place: 47 MiB, three tiles whose elements interleave in memory.
        let (n, howmany) = (1024usize, 3000usize);
        let x = random(2 * n * howmany, 3);
        let make = many_1d_plan(n, howmany, (howmany, 1), FFTW_BACKWARD);
        agree(
            "interleaved pinned in-place",
            &x,
            x.len(),
            true,
            &make,
            10.0,
        );
        // cuFFT and rustfft round differently: an output equal to the CPU executor's bit for
        // bit means the execute ran on the CPU after all (it once did: the arrays counted as
        // tangled at execute time, and the planned GPU program was never used).
        let (gpu, _) = run_f64(BackendSetting::Gpu, &x, x.len(), true, &make);
        let (cpu, _) = run_f64(BackendSetting::Cpu, &x, x.len(), true, &make);
        assert!(gpu != cpu, "pinned: the execute did not run on the GPU");
        // The GPU's columns against a direct DFT (batches 0 and the last).
        for c in [0, howmany - 1] {
            let at = |v: &[f64], i: usize| (v[2 * (i * howmany + c)], v[2 * (i * howmany + c) + 1]);
            let (mut num, mut den) = (0.0, 0.0);
            for k in 0..n {
                let (mut re, mut im) = (0.0, 0.0);
                for j in 0..n {
                    let (xr, xi) = at(&x, j);
                    let a = 2.0 * std::f64::consts::PI * ((j * k) % n) as f64 / n as f64;
                    re += xr * a.cos() - xi * a.sin();
                    im += xr * a.sin() + xi * a.cos();
                }
                let (gr, gi) = at(&gpu, k);
                num += (gr - re).powi(2) + (gi - im).powi(2);
                den += re * re + im * im;
            }
            let e = (num / den).sqrt();
            assert!(
                e <= 1e-13,
                "interleaved column {c} against a direct DFT: {e:.3e}"
            );
        }
        // Pageable arrays (Vec), through the staging blocks.
        let mut outs = Vec::new();
        for backend in [BackendSetting::Cpu, BackendSetting::Gpu] {
            force_backend(Some(backend));
            let mut a = x.clone();
            let p = make(a.as_mut_ptr(), a.as_mut_ptr());
            let text = plan_text(p);
            let on = if backend == BackendSetting::Gpu {
                "(gpu"
            } else {
                "(cpu"
            };
            assert!(text.contains(on), "pageable: {text}");
            fftw_execute(p);
            fftw_destroy_plan(p);
            outs.push(a);
        }
        force_backend(None);
        assert!(
            outs[1] != outs[0],
            "pageable: the execute did not run on the GPU"
        );
        let e = rel_l2(&outs[1], &outs[0]);
        eprintln!("interleaved pageable in-place: rel. L2 {e:.2e}");
        assert!(e <= 10e-12, "interleaved pageable in-place: {e:.3e}");
    }
}

#[test]
fn strided_split_and_high_rank() {
    let _s = state();
    if !have_gpu() {
        return;
    }
    unsafe {
        // Transposed output, padded input rows (strided: gather and scatter blocks).
        let (n0, n1, hm) = (48isize, 40isize, 7isize);
        let x = random((2 * n0 * (n1 + 3) * hm) as usize, 2);
        let make = |a: *mut f64, b: *mut f64| {
            let dims = [
                fftw_iodim64 {
                    n: n0,
                    is: n1 + 3,
                    os: 1,
                },
                fftw_iodim64 {
                    n: n1,
                    is: 1,
                    os: n0,
                },
            ];
            let lp = [fftw_iodim64 {
                n: hm,
                is: n0 * (n1 + 3),
                os: n0 * n1,
            }];
            fftw_plan_guru64_dft(
                2,
                dims.as_ptr(),
                1,
                lp.as_ptr(),
                a as *mut _,
                b as *mut _,
                FFTW_BACKWARD,
                FFTW_ESTIMATE,
            )
        };
        agree(
            "strided 2-D",
            &x,
            (2 * n0 * n1 * hm) as usize,
            false,
            &make,
            11.0,
        );

        // Split arrays: real and imaginary parts in separate halves.
        let n = 3000isize;
        let x = random((2 * n) as usize, 3);
        let make = |a: *mut f64, b: *mut f64| {
            let dims = [fftw_iodim64 { n, is: 1, os: 1 }];
            fftw_plan_guru64_split_dft(
                1,
                dims.as_ptr(),
                0,
                std::ptr::null(),
                a,
                a.add(n as usize),
                b,
                b.add(n as usize),
                FFTW_ESTIMATE,
            )
        };
        agree("split 1-D", &x, (2 * n) as usize, false, &make, 12.0);

        // Rank 4 c2c, r2c and c2r: three dims in one cuFFT plan, the fourth as a strided pass.
        let sh = [6i32, 10, 12, 14];
        let total: usize = sh.iter().map(|&v| v as usize).product();
        let half = total / 14 * 8;
        let x = random(2 * total, 4);
        let make = |a: *mut f64, b: *mut f64| {
            fftw_plan_dft(
                4,
                sh.as_ptr(),
                a as *mut _,
                b as *mut _,
                FFTW_FORWARD,
                FFTW_ESTIMATE,
            )
        };
        agree("rank-4 c2c", &x, 2 * total, false, &make, 13.0);
        let xr = random(total, 5);
        let make = |a: *mut f64, b: *mut f64| {
            fftw_plan_dft_r2c(4, sh.as_ptr(), a, b as *mut _, FFTW_ESTIMATE)
        };
        agree("rank-4 r2c", &xr, 2 * half, false, &make, 13.0);
        // c2r of a Hermitian spectrum: the r2c of real data.
        let (spec, _) = run_f64(BackendSetting::Cpu, &xr, 2 * half, false, &make);
        let make = |a: *mut f64, b: *mut f64| {
            fftw_plan_dft_c2r(4, sh.as_ptr(), a as *mut _, b, FFTW_ESTIMATE)
        };
        agree("rank-4 c2r", &spec, total, false, &make, 13.0);
        let make3 = |a: *mut f64, b: *mut f64| {
            fftw_plan_dft_c2r_3d(10, 12, 14, a as *mut _, b, FFTW_ESTIMATE)
        };
        let (spec3, _) = run_f64(
            BackendSetting::Cpu,
            &random(10 * 12 * 14, 6),
            2 * 10 * 12 * 8,
            false,
            &|a: *mut f64, b: *mut f64| {
                fftw_plan_dft_r2c_3d(10, 12, 14, a, b as *mut _, FFTW_ESTIMATE)
            },
        );
        agree("3-D c2r", &spec3, 10 * 12 * 14, false, &make3, 11.0);
    }
}

#[test]
fn device_arrays_run_in_place_on_the_gpu() {
    let _s = state();
    if !have_gpu() {
        return;
    }
    unsafe {
        let (n, hm) = (1024usize, 64usize);
        let x = random(2 * n * hm, 7);
        let bytes =
            |v: &[f64]| std::slice::from_raw_parts(v.as_ptr() as *const u8, v.len() * 8).to_vec();
        let din = cuda::Mirror::new(&bytes(&x), cuda::Memory::Device).unwrap();
        let dout = cuda::Mirror::new(&vec![0u8; x.len() * 8], cuda::Memory::Device).unwrap();
        let nn = [n as i32];
        let p = fftw_plan_many_dft(
            1,
            nn.as_ptr(),
            hm as i32,
            din.ptr as *mut _,
            std::ptr::null(),
            1,
            n as i32,
            dout.ptr as *mut _,
            std::ptr::null(),
            1,
            n as i32,
            FFTW_FORWARD,
            FFTW_MEASURE,
        );
        assert!(!p.is_null());
        assert!(
            plan_text(p).contains("(gpu"),
            "device arrays must plan for the GPU"
        );
        fftw_execute(p);
        let mut got = vec![0f64; x.len()];
        cudarc::driver::sys::cuMemcpyDtoH_v2(
            got.as_mut_ptr() as *mut _,
            dout.ptr as u64,
            x.len() * 8,
        );
        // The CPU on host copies of the same data.
        let mut a = x.clone();
        let mut b = vec![0f64; x.len()];
        force_backend(Some(BackendSetting::Cpu));
        let q = fftw_plan_many_dft(
            1,
            nn.as_ptr(),
            hm as i32,
            a.as_mut_ptr() as *mut _,
            std::ptr::null(),
            1,
            n as i32,
            b.as_mut_ptr() as *mut _,
            std::ptr::null(),
            1,
            n as i32,
            FFTW_FORWARD,
            FFTW_ESTIMATE,
        );
        force_backend(None);
        fftw_execute(q);
        assert!(rel_l2(&got, &b) < 1e-12 * 10.0);
        // New-array execute of the CPU plan on device arrays runs on the GPU too.
        cudarc::driver::sys::cuMemsetD8_v2(dout.ptr as u64, 0, x.len() * 8);
        fftw_execute_dft(q, din.ptr as *mut _, dout.ptr as *mut _);
        cudarc::driver::sys::cuMemcpyDtoH_v2(
            got.as_mut_ptr() as *mut _,
            dout.ptr as u64,
            x.len() * 8,
        );
        assert!(rel_l2(&got, &b) < 1e-12 * 10.0);
        fftw_destroy_plan(p);
        fftw_destroy_plan(q);
    }
}

#[test]
fn planner_keeps_small_transforms_on_the_cpu() {
    let _s = state();
    if !have_gpu() {
        return;
    }
    unsafe {
        force_backend(Some(BackendSetting::Auto));
        let a = fftwf_malloc(1024 * 8) as *mut fftwf_complex;
        for flags in [FFTW_ESTIMATE, FFTW_MEASURE] {
            let p = fftwf_plan_dft_1d(1024, a, a, FFTW_FORWARD, flags);
            let s = std::ffi::CStr::from_ptr(fftwf_sprint_plan(p))
                .to_string_lossy()
                .into_owned();
            assert!(s.contains("(cpu"), "n=1024 should stay on the CPU: {s}");
            fftwf_destroy_plan(p);
        }
        fftwf_free(a as *mut _);
        // A large pinned batch goes to the GPU under ESTIMATE.
        let (n, hm) = (4096i32, 2048i32);
        let a = fftwf_malloc((n * hm) as usize * 8) as *mut fftwf_complex;
        let b = fftwf_malloc((n * hm) as usize * 8) as *mut fftwf_complex;
        let p = fftwf_plan_many_dft(
            1,
            &n,
            hm,
            a,
            std::ptr::null(),
            1,
            n,
            b,
            std::ptr::null(),
            1,
            n,
            FFTW_FORWARD,
            FFTW_ESTIMATE,
        );
        let s = std::ffi::CStr::from_ptr(fftwf_sprint_plan(p))
            .to_string_lossy()
            .into_owned();
        assert!(
            s.contains("(gpu"),
            "a 64 MiB pinned batch should go to the GPU: {s}"
        );
        fftwf_destroy_plan(p);
        fftwf_free(a as *mut _);
        fftwf_free(b as *mut _);
        force_backend(None);
    }
}

#[test]
fn what_cannot_run_even_out_of_card_falls_back_to_the_cpu() {
    let _s = state();
    if !have_gpu() {
        return;
    }
    unsafe {
        let n = 1 << 16;
        let x = random(2 * n, 8);
        let nn = [n as i32];
        let make = |a: *mut f64, b: *mut f64| {
            fftw_plan_dft(
                1,
                nn.as_ptr(),
                a as *mut _,
                b as *mut _,
                FFTW_FORWARD,
                FFTW_ESTIMATE,
            )
        };
        let (cpu, _) = run_f64(BackendSetting::Cpu, &x, 2 * n, false, &make);
        cuda::set_device_budget(Some(4096));
        let (gpu, text) = run_f64(BackendSetting::Gpu, &x, 2 * n, false, &make);
        cuda::set_device_budget(None);
        assert!(
            text.contains("(cpu"),
            "4 KiB cannot hold the tiles of 2^16 = 256 x 256 either: the CPU plans it: {text}"
        );
        assert!(rel_l2(&gpu, &cpu) == 0.0);
    }
}

/// A transform whose data exceed the device bytes a plan may use (here `FFTX_GPU_MEMORY`'s
/// budget) runs on the GPU as the out-of-card Program, through the FFTW API: c2c 1-D (four-step)
/// out of place and in place (then a transpose round), 2-D by rows then columns, r2c 3-D by
/// slabs then pencils; the same results as the CPU executor's.
/// An FFTW_ESTIMATE c2c plan of sizes `ns` and direction `sign`, as `run_f64` makes it.
fn c2c_plan(ns: &'static [i32], sign: i32) -> impl Fn(*mut f64, *mut f64) -> fftw_plan {
    move |a, b| unsafe {
        fftw_plan_dft(
            ns.len() as i32,
            ns.as_ptr(),
            a as *mut _,
            b as *mut _,
            sign,
            FFTW_ESTIMATE,
        )
    }
}

/// An FFTW_ESTIMATE plan of `howmany` 1-D c2c of `n` points, elements `stride` and batches
/// `dist` apart (complex elements; the same on both sides), as `run_f64` makes it.
fn many_1d_plan(
    n: usize,
    howmany: usize,
    (stride, dist): (usize, usize),
    sign: i32,
) -> impl Fn(*mut f64, *mut f64) -> fftw_plan {
    let nn = [n as i32];
    move |a, b| unsafe {
        fftw_plan_many_dft(
            1,
            nn.as_ptr(),
            howmany as i32,
            a as *mut _,
            std::ptr::null(),
            stride as i32,
            dist as i32,
            b as *mut _,
            std::ptr::null(),
            stride as i32,
            dist as i32,
            sign,
            FFTW_ESTIMATE,
        )
    }
}

/// An FFTW_ESTIMATE r2c plan of n0 x n1 x n2, as `run_f64` makes it.
fn r2c_3d_plan([n0, n1, n2]: [usize; 3]) -> impl Fn(*mut f64, *mut f64) -> fftw_plan {
    move |a, b| unsafe {
        fftw_plan_dft_r2c_3d(
            n0 as i32,
            n1 as i32,
            n2 as i32,
            a,
            b as *mut _,
            FFTW_ESTIMATE,
        )
    }
}

/// The GPU plan of `make` (under a device `budget`, if given) computes what the CPU's does
/// within `tol`, and its printed plan contains `marker`.
#[allow(clippy::too_many_arguments)]
unsafe fn gpu_plan_agrees(
    name: &str,
    x: &[f64],
    out_len: usize,
    in_place: bool,
    make: &dyn Fn(*mut f64, *mut f64) -> fftw_plan,
    budget: Option<usize>,
    marker: &str,
    tol: f64,
) {
    let (cpu, _) = run_f64(BackendSetting::Cpu, x, out_len, in_place, make);
    cuda::set_device_budget(budget);
    let (gpu, text) = run_f64(BackendSetting::Gpu, x, out_len, in_place, make);
    cuda::set_device_budget(None);
    assert!(text.contains(marker), "{name}: no {marker:?} in {text}");
    let e = rel_l2(&gpu, &cpu);
    eprintln!("{name}: {marker}, rel. L2 against the CPU {e:.2e}");
    assert!(e < tol, "{name}: {e:.3e}\n{text}");
}

#[test]
fn transforms_bigger_than_the_budget_run_out_of_card() {
    let _s = state();
    if !have_gpu() {
        return;
    }
    let cases: [(&str, &'static [i32], usize, bool); 3] = [
        ("c2c 2^16 out of place", &[1 << 16], 64 << 10, false),
        ("c2c 2^16 in place", &[1 << 16], 64 << 10, true),
        ("c2c 128 x 96", &[128, 96], 48 << 10, false),
    ];
    unsafe {
        for (name, ns, budget, in_place) in cases {
            let n: usize = ns.iter().map(|&d| d as usize).product();
            let make = c2c_plan(ns, FFTW_FORWARD);
            let tol = 1e-14 * (n as f64).log2();
            let x = random(2 * n, 21);
            gpu_plan_agrees(
                name,
                &x,
                2 * n,
                in_place,
                &make,
                Some(budget),
                "out-of-card",
                tol,
            );
        }
        let n = [16, 24, 20];
        let (x, out_len) = (random(16 * 24 * 20, 22), 2 * 16 * 24 * 11);
        let make = r2c_3d_plan(n);
        let name = "r2c 16 x 24 x 20";
        gpu_plan_agrees(
            name,
            &x,
            out_len,
            false,
            &make,
            Some(24 << 10),
            "out-of-card",
            1e-13,
        );
    }
}

/// With `FFTX_DEVICES` selecting several cards, a large FFTW plan on pinned host arrays spreads
/// over them (`Backend::Gpus`: slabs and pencils, or the distributed six-step in 1-D) and
/// computes what the CPU does; the printed plan says so.
#[test]
fn fftw_plans_spread_over_the_selected_devices() {
    let _s = state();
    if !have_gpu() {
        return;
    }
    if cuda::device_count() < 2 {
        eprintln!("one device: nothing to spread over");
        return;
    }
    let cases: [(&str, &'static [i32], bool); 3] = [
        ("c2c 128 x 96 x 80", &[128, 96, 80], false),
        ("c2c 96 x 128 x 80 in place", &[96, 128, 80], true),
        ("c2c 2^21", &[1 << 21], false),
    ];
    // SAFETY: the tests of this file run one at a time (`state`); none reads the environment
    // concurrently.
    unsafe { std::env::set_var("FFTX_DEVICES", "all") };
    unsafe {
        for (name, ns, in_place) in cases {
            let n: usize = ns.iter().map(|&d| d as usize).product();
            let make = c2c_plan(ns, FFTW_BACKWARD);
            let tol = 1e-14 * (n as f64).log2();
            let x = random(2 * n, 31);
            gpu_plan_agrees(name, &x, 2 * n, in_place, &make, None, "gpus [", tol);
        }
        let n = [160, 128, 96];
        let (x, out_len) = (random(160 * 128 * 96, 32), 2 * 160 * 128 * 49);
        let make = r2c_3d_plan(n);
        gpu_plan_agrees(
            "r2c 160 x 128 x 96",
            &x,
            out_len,
            false,
            &make,
            None,
            "gpus [",
            1e-13,
        );
    }
    unsafe { std::env::remove_var("FFTX_DEVICES") };
}

/// A plan executed from a thread that never used CUDA runs on the GPU there: the execute makes
/// the context current before it asks whether the device is alive. It once read the missing
/// context as a device reset and turned the GPU off for the whole process.
#[test]
fn executes_from_a_new_thread_stay_on_the_gpu() {
    let _s = state();
    if !have_gpu() {
        return;
    }
    unsafe {
        let n = 1 << 12;
        let x = random(2 * n, 12);
        let make = |a: *mut f64, b: *mut f64| {
            fftw_plan_dft_1d(
                n as i32,
                a as *mut _,
                b as *mut _,
                FFTW_FORWARD,
                FFTW_ESTIMATE,
            )
        };
        let (cpu, _) = run_f64(BackendSetting::Cpu, &x, 2 * n, false, &make);
        force_backend(Some(BackendSetting::Gpu));
        let a = fftw_malloc(2 * n * 8) as *mut f64;
        let b = fftw_malloc(2 * n * 8) as *mut f64;
        let p = make(a, b);
        force_backend(None);
        assert!(plan_text(p).contains("(gpu"), "{}", plan_text(p));
        std::ptr::copy_nonoverlapping(x.as_ptr(), a, 2 * n);
        let plan = p as usize;
        std::thread::spawn(move || fftw_execute(plan as fftw_plan))
            .join()
            .unwrap();
        assert!(
            cuda::default_device().is_some(),
            "an execute on a new thread turned the GPU off: {:?}",
            cuda::why_no_gpu()
        );
        let gpu = std::slice::from_raw_parts(b, 2 * n).to_vec();
        assert!(rel_l2(&gpu, &cpu) < 1e-12 * 12.0);
        fftw_destroy_plan(p);
        fftw_free(a as *mut _);
        fftw_free(b as *mut _);
    }
}

#[test]
fn no_growth_over_ten_thousand_cycles() {
    let _s = state();
    if !have_gpu() {
        return;
    }
    unsafe {
        force_backend(Some(BackendSetting::Gpu));
        let n = [256i32];
        let a = fftw_malloc(256 * 4 * 16) as *mut fftw_complex;
        let b = fftw_malloc(256 * 4 * 16) as *mut fftw_complex;
        let x = random(2 * 256 * 4, 9);
        let cycle = || {
            let p = fftw_plan_many_dft(
                1,
                n.as_ptr(),
                4,
                a,
                std::ptr::null(),
                1,
                256,
                b,
                std::ptr::null(),
                1,
                256,
                FFTW_FORWARD,
                FFTW_ESTIMATE,
            );
            std::ptr::copy_nonoverlapping(x.as_ptr(), a as *mut f64, x.len());
            fftw_execute(p);
            fftw_destroy_plan(p);
        };
        for _ in 0..100 {
            cycle();
        }
        let free_mem = || {
            let (mut f, mut t) = (0usize, 0usize);
            cudarc::driver::sys::cuMemGetInfo_v2(&mut f, &mut t);
            f
        };
        let before = (cuda::live_resources(), free_mem());
        for _ in 0..10_000 {
            cycle();
        }
        let after = (cuda::live_resources(), free_mem());
        force_backend(None);
        fftw_free(a as *mut _);
        fftw_free(b as *mut _);
        assert_eq!(before.0, after.0, "CUDA resources grew");
        assert!(
            after.1 + (64 << 20) >= before.1,
            "device memory shrank by {} MiB",
            (before.1 - after.1) >> 20
        );
    }
}

#[test]
fn r2r_all_kinds_on_the_gpu() {
    let _s = state();
    if !have_gpu() {
        return;
    }
    unsafe {
        // Every kind, one per axis of 2-D problems with a batch, and 1-D odd and even sizes.
        let kinds = [
            FFTW_R2HC,
            FFTW_HC2R,
            FFTW_DHT,
            FFTW_REDFT00,
            FFTW_REDFT10,
            FFTW_REDFT01,
            FFTW_REDFT11,
            FFTW_RODFT00,
            FFTW_RODFT10,
            FFTW_RODFT01,
            FFTW_RODFT11,
        ];
        for (i, &k0) in kinds.iter().enumerate() {
            let k1 = kinds[(i + 4) % kinds.len()];
            let (n0, n1, hm) = (17i32, 24i32, 3i32);
            let total = (n0 * n1 * hm) as usize;
            let x = random(total, 100 + i as u64);
            let make = |a: *mut f64, b: *mut f64| {
                let n = [n0, n1];
                let k = [k0, k1];
                fftw_plan_many_r2r(
                    2,
                    n.as_ptr(),
                    hm,
                    a,
                    std::ptr::null(),
                    1,
                    n0 * n1,
                    b,
                    std::ptr::null(),
                    1,
                    n0 * n1,
                    k.as_ptr(),
                    FFTW_ESTIMATE,
                )
            };
            agree(
                &format!("r2r kinds {k0},{k1}"),
                &x,
                total,
                false,
                &make,
                10.0,
            );
            for n in [1000i32, 1001] {
                if k0 == FFTW_REDFT00 && n < 2 {
                    continue;
                }
                let x = random(n as usize, 200 + i as u64);
                let make = |a: *mut f64, b: *mut f64| fftw_plan_r2r_1d(n, a, b, k0, FFTW_ESTIMATE);
                agree(
                    &format!("r2r kind {k0} n={n}"),
                    &x,
                    n as usize,
                    false,
                    &make,
                    10.0,
                );
            }
        }
    }
}

/// Device memory holding `v`.
fn device_copy_of(v: &[f64]) -> cuda::Mirror {
    let bytes = unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, v.len() * 8) };
    cuda::Mirror::new(bytes, cuda::Memory::Device).expect("device memory")
}

fn host_copy_of(d: &cuda::Mirror, len: usize) -> Vec<f64> {
    let mut v = vec![0f64; len];
    unsafe {
        cudarc::driver::sys::cuMemcpyDtoH_v2(v.as_mut_ptr() as *mut _, d.ptr as u64, len * 8)
    };
    v
}

#[test]
fn strided_and_split_device_arrays() {
    let _s = state();
    if !have_gpu() {
        return;
    }
    unsafe {
        // In-place r2c with FFTW's padded rows, on the device (the layout kernel packs it).
        let (n0, n1) = (30i32, 50i32);
        let padded = (n0 * 2 * (n1 / 2 + 1)) as usize;
        let x = random(padded, 11);
        let make =
            |a: *mut f64, _b: *mut f64| fftw_plan_dft_r2c_2d(n0, n1, a, a as *mut _, FFTW_ESTIMATE);
        let (cpu, _) = run_f64(BackendSetting::Cpu, &x, padded, true, &make);
        let d = device_copy_of(&x);
        let p = fftw_plan_dft_r2c_2d(n0, n1, d.ptr as *mut f64, d.ptr as *mut _, FFTW_ESTIMATE);
        assert!(plan_text(p).contains("(gpu"));
        fftw_execute(p);
        fftw_destroy_plan(p);
        let got = host_copy_of(&d, padded);
        assert!(
            rel_l2(&got, &cpu) < 1e-12 * 11.0,
            "device in-place r2c: {:e}",
            rel_l2(&got, &cpu)
        );

        // Split arrays with a transposed output, on the device.
        let n = 64isize;
        let x = random((4 * n * n) as usize, 12);
        let make = |a: *mut f64, b: *mut f64| {
            let dims = [
                fftw_iodim64 { n, is: n, os: 1 },
                fftw_iodim64 { n, is: 1, os: n },
            ];
            let h = (n * n) as usize;
            fftw_plan_guru64_split_dft(
                2,
                dims.as_ptr(),
                0,
                std::ptr::null(),
                a,
                a.add(h),
                b,
                b.add(h),
                FFTW_ESTIMATE,
            )
        };
        let (cpu, _) = run_f64(
            BackendSetting::Cpu,
            &x[..(2 * n * n) as usize],
            (2 * n * n) as usize,
            false,
            &make,
        );
        let din = device_copy_of(&x[..(2 * n * n) as usize]);
        let dout = device_copy_of(&vec![0.0; (2 * n * n) as usize]);
        let p = make(din.ptr as *mut f64, dout.ptr as *mut f64);
        fftw_execute(p);
        fftw_destroy_plan(p);
        let got = host_copy_of(&dout, (2 * n * n) as usize);
        assert!(
            rel_l2(&got, &cpu) < 1e-12 * 12.0,
            "device split 2-D: {:e}",
            rel_l2(&got, &cpu)
        );
    }
}

/// Every kernel of kernels/*.cu against its Rust twin (exec::twins) on random data.
#[test]
fn kernels_match_their_cpu_twins() {
    use fftx::exec::cuda::kernels::{function, launch, Source};
    use fftx::exec::twins;
    use num_complex::Complex;
    use std::ffi::c_void;
    let _s = state();
    if !have_gpu() {
        return;
    }
    let g = cuda::default_device().unwrap();
    g.bind().unwrap();
    let stream = std::ptr::null_mut();
    unsafe {
        // strided_copy: a transposing, reversing copy with an offset, exact.
        let n = [5i64, 7, 3];
        let src_s = [-21i64, 3, 1];
        let dst_s = [1i64, 5, 35];
        let src: Vec<f64> = random(5 * 7 * 3 + 200, 13);
        let mut want = vec![-1.0f64; 200];
        twins::strided_copy(3, &n, &src, 100, &src_s, &mut want, 10, &dst_s);
        let ds = device_copy_of(&src);
        let dd = device_copy_of(&vec![-1.0; 200]);
        let mut shape = twins::StridedShape::new(&n, &src_s, &dst_s);
        let (mut rank, mut sp, mut so, mut dp, mut dof) =
            (3i32, ds.ptr as u64, 100i64, dd.ptr as u64, 10i64);
        let mut params: [*mut c_void; 6] = [
            &mut rank as *mut _ as _,
            &mut shape as *mut _ as _,
            &mut sp as *mut _ as _,
            &mut so as *mut _ as _,
            &mut dp as *mut _ as _,
            &mut dof as *mut _ as _,
        ];
        launch(
            &g,
            function(&g, Source::Layout, "strided_copy_f64").unwrap(),
            105,
            stream,
            &mut params,
        )
        .unwrap();
        cudarc::driver::sys::cuCtxSynchronize();
        assert_eq!(
            host_copy_of(&dd, 200),
            want,
            "strided_copy_f64 differs from its twin"
        );
        // The f32 variant (f32 device arrays) on the same shape.
        let src32: Vec<f32> = src.iter().map(|&v| v as f32).collect();
        let mut want32 = vec![-1.0f32; 200];
        twins::strided_copy(3, &n, &src32, 100, &src_s, &mut want32, 10, &dst_s);
        let b32 =
            |v: &[f32]| std::slice::from_raw_parts(v.as_ptr() as *const u8, v.len() * 4).to_vec();
        let ds32 = cuda::Mirror::new(&b32(&src32), cuda::Memory::Device).unwrap();
        let dd32 = cuda::Mirror::new(&b32(&[-1.0f32; 200]), cuda::Memory::Device).unwrap();
        let (mut sp, mut dp) = (ds32.ptr as u64, dd32.ptr as u64);
        let mut params: [*mut c_void; 6] = [
            &mut rank as *mut _ as _,
            &mut shape as *mut _ as _,
            &mut sp as *mut _ as _,
            &mut so as *mut _ as _,
            &mut dp as *mut _ as _,
            &mut dof as *mut _ as _,
        ];
        launch(
            &g,
            function(&g, Source::Layout, "strided_copy_f32").unwrap(),
            105,
            stream,
            &mut params,
        )
        .unwrap();
        cudarc::driver::sys::cuCtxSynchronize();
        let mut got32 = vec![0f32; 200];
        cudarc::driver::sys::cuMemcpyDtoH_v2(got32.as_mut_ptr() as *mut _, dd32.ptr as u64, 800);
        assert_eq!(got32, want32, "strided_copy_f32 differs from its twin");

        // r2r_pre / r2r_post for every kind, strided lines.
        let kinds = [
            FFTW_R2HC,
            FFTW_HC2R,
            FFTW_DHT,
            FFTW_REDFT00,
            FFTW_REDFT10,
            FFTW_REDFT01,
            FFTW_REDFT11,
            FFTW_RODFT00,
            FFTW_RODFT10,
            FFTW_RODFT01,
            FFTW_RODFT11,
        ];
        for &k in &kinds {
            let kind = fftx::problem::R2rKind::from_c(k).unwrap();
            let (n, batch) = (37usize, 4usize);
            let big_n = twins::r2r_logical_size(kind, n);
            let mut z = vec![Complex::new(0.0f64, 0.0); batch * big_n];
            // Two groups of two lines (as a middle axis has them): lines 2n apart within a
            // group, groups 7n apart.
            let lines = |offset: isize, stride: isize, dist: isize| twins::Lines {
                offset,
                stride,
                dist,
                group: 2,
                group_dist: 7 * n as isize,
            };
            let x = random(2 * n * batch + 3 * n + 8, 14 + k as u64);
            twins::r2r_pre(kind, n, batch, &x, lines(3, 2, (2 * n) as isize), &mut z);
            let dx = device_copy_of(&x);
            let dz = device_copy_of(&vec![0.0; 2 * batch * big_n]);
            let (mut kk, mut nn, mut bn, mut bb, mut xp, mut off, mut st, mut di, mut zp) = (
                k,
                n as i64,
                big_n as i64,
                batch as i64,
                dx.ptr as u64,
                3i64,
                2i64,
                (2 * n) as i64,
                dz.ptr as u64,
            );
            let (mut group, mut group_dist) = (2i64, 7 * n as i64);
            let mut params: [*mut c_void; 11] = [
                &mut kk as *mut _ as _,
                &mut nn as *mut _ as _,
                &mut bn as *mut _ as _,
                &mut bb as *mut _ as _,
                &mut xp as *mut _ as _,
                &mut off as *mut _ as _,
                &mut st as *mut _ as _,
                &mut di as *mut _ as _,
                &mut group as *mut _ as _,
                &mut group_dist as *mut _ as _,
                &mut zp as *mut _ as _,
            ];
            launch(
                &g,
                function(&g, Source::R2r, "r2r_pre_f64").unwrap(),
                (batch * big_n) as u64,
                stream,
                &mut params,
            )
            .unwrap();
            cudarc::driver::sys::cuCtxSynchronize();
            let gz = host_copy_of(&dz, 2 * batch * big_n);
            let wz: Vec<f64> = z.iter().flat_map(|c| [c.re, c.im]).collect();
            assert!(
                rel_l2(&gz, &wz) < 1e-14,
                "r2r_pre kind {k}: {:e}",
                rel_l2(&gz, &wz)
            );

            let zr = random(2 * batch * big_n, 15 + k as u64);
            let zc: Vec<Complex<f64>> = zr.chunks(2).map(|c| Complex::new(c[0], c[1])).collect();
            let mut y = vec![-7.0f64; 3 * n * batch + 5 * n + 5];
            twins::r2r_post(kind, n, batch, &zc, &mut y, lines(5, 3, (3 * n) as isize));
            let dzr = device_copy_of(&zr);
            let dy = device_copy_of(&vec![-7.0; y.len()]);
            let (mut zp, mut yp, mut off, mut st, mut di) =
                (dzr.ptr as u64, dy.ptr as u64, 5i64, 3i64, (3 * n) as i64);
            let mut params: [*mut c_void; 11] = [
                &mut kk as *mut _ as _,
                &mut nn as *mut _ as _,
                &mut bn as *mut _ as _,
                &mut bb as *mut _ as _,
                &mut zp as *mut _ as _,
                &mut yp as *mut _ as _,
                &mut off as *mut _ as _,
                &mut st as *mut _ as _,
                &mut di as *mut _ as _,
                &mut group as *mut _ as _,
                &mut group_dist as *mut _ as _,
            ];
            launch(
                &g,
                function(&g, Source::R2r, "r2r_post_f64").unwrap(),
                (batch * n) as u64,
                stream,
                &mut params,
            )
            .unwrap();
            cudarc::driver::sys::cuCtxSynchronize();
            let gy = host_copy_of(&dy, y.len());
            assert!(
                rel_l2(&gy, &y) < 1e-14,
                "r2r_post kind {k}: {:e}",
                rel_l2(&gy, &y)
            );
        }
    }
}

// ------------------------------------------------------------------ FFTX plans on the GPU

unsafe extern "C" fn fftx_scaling(
    i: *mut std::ffi::c_void,
    o: *mut std::ffi::c_void,
    data: *mut std::ffi::c_void,
) {
    let t = fftx_pointwise_temp_complex();
    fftx_pointwise_complex(0, t, i as *mut fftx_complex);
    fftx_pointwise_complex(3, t, data as *mut fftx_complex);
    fftx_pointwise_complex(0, o as *mut fftx_complex, t);
}

/// A pruned 3-D convolution (n^3 grid, input box ns^3 at the start, output the last nd^3) as
/// five FFTX subplans; runs it once on the given arrays and destroys everything.
unsafe fn fftx_conv3(
    n: usize,
    ns: usize,
    nd: usize,
    input: *mut f64,
    out: *mut f64,
    g: *mut fftx_complex,
    flags: u32,
) -> String {
    let (nk, ni) = (n / 2 + 1, n as i32);
    let d = |n: usize, s: i32| fftx_iodim {
        n: n as i32,
        is: s,
        os: s,
    };
    let x = |n: usize, iofs: i32, is: i32, os: i32| fftx_iodimx {
        n: n as i32,
        iofs,
        oofs: 0,
        dofs: 0,
        is,
        os,
        ds: 1,
    };
    let p_d = [d(n, 1), d(n, ni), d(n, ni * ni)];
    // As Fig. 6: dims fastest first, the halved one listed last.
    let f_d = [d(n, 1), d(n, ni), d(nk, ni * ni)];
    let i_dx = [
        x(ns, 0, 1, 1),
        x(ns, 0, ns as i32, ni),
        x(ns, 0, (ns * ns) as i32, ni * ni),
    ];
    let o0 = (n - nd) as i32;
    let o_dx = [
        x(nd, o0, 1, 1),
        x(nd, o0, ni, nd as i32),
        x(nd, o0, ni * ni, (nd * nd) as i32),
    ];
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
    let b_d = d(1, 1);
    let b_dx = x(1, 0, 1, 1);
    let sub = flags | FFTX_SUBPLAN;
    let t1 = fftx_create_zero_temp_real(3, p_d.as_ptr());
    let t2 = fftx_create_temp_complex(3, f_d.as_ptr());
    let t3 = fftx_create_temp_complex(3, f_d.as_ptr());
    let t4 = fftx_create_temp_real(3, p_d.as_ptr());
    let plans = [
        fftx_plan_guru_copy_real(3, i_dx.as_ptr(), input, t1, sub),
        fftx_plan_guru_dft_r2c(3, p_d.as_ptr(), 0, &b_d, t1, t2, sub),
        fftx_plan_guru_pointwise_c2c(
            3,
            f_dx.as_ptr(),
            0,
            &b_dx,
            t2,
            t3,
            g,
            Some(fftx_scaling),
            sub,
        ),
        fftx_plan_guru_dft_c2r(3, p_d.as_ptr(), 0, &b_d, t3, t4, sub),
        fftx_plan_guru_copy_real(3, o_dx.as_ptr(), t4, out, sub),
    ];
    assert!(plans.iter().all(|p| !p.is_null()));
    let p = fftx_plan_compose(5, plans.as_ptr(), flags);
    assert!(
        !p.is_null(),
        "{:?}",
        std::ffi::CStr::from_ptr(fftx_last_error())
    );
    fftx_execute(p);
    let s = fftx_sprint_plan(p);
    let text = std::ffi::CStr::from_ptr(s).to_string_lossy().into_owned();
    libc::free(s as *mut _);
    fftx_destroy_plan(p);
    plans.iter().for_each(|&q| fftx_destroy_plan(q));
    fftx_destroy_temp_real(t1);
    fftx_destroy_temp_complex(t2);
    fftx_destroy_temp_complex(t3);
    fftx_destroy_temp_real(t4);
    text
}

/// `fftx_conv3` on host arrays (copies of `input` and `g`) with `backend` forced: the output
/// and the printed plan.
fn conv3_on(
    backend: BackendSetting,
    (n, ns, nd): (usize, usize, usize),
    input: &[f64],
    g: &[f64],
    flags: u32,
) -> (Vec<f64>, String) {
    force_backend(Some(backend));
    let mut out = vec![0.0; nd * nd * nd];
    let (mut inp, mut gg) = (input.to_vec(), g.to_vec());
    // SAFETY: the arrays are as large as fftx_conv3 addresses.
    let text = unsafe {
        fftx_conv3(
            n,
            ns,
            nd,
            inp.as_mut_ptr(),
            out.as_mut_ptr(),
            gg.as_mut_ptr() as *mut fftx_complex,
            flags,
        )
    };
    force_backend(None);
    (out, text)
}

/// Whether the placed Program printed in `text` addresses every buffer on the device and moves
/// nothing between host and device (the caller's device arrays are used where they are).
fn used_where_they_are(text: &str) -> bool {
    let buffers: Vec<&str> = text
        .lines()
        .filter(|l| l.trim_start().starts_with("(buffer "))
        .collect();
    !buffers.is_empty()
        && buffers.iter().all(|l| l.trim_end().ends_with(" device0)"))
        && !text.contains("(transfer ")
}

/// FFTX chains on the GPU (every way of fusing, host and device arrays, a length the fused
/// kernels take and one they do not) against the CPU executor, and nothing left behind.
#[test]
fn fftx_chains_on_the_gpu_match_the_cpu_executor() {
    let _s = state();
    if !have_gpu() {
        return;
    }
    for &(n, ns, nd) in &[(24usize, 10usize, 9usize), (34, 17, 17), (37, 12, 20)] {
        let (nk, n3) = (n / 2 + 1, n * n * n);
        let input = random(ns * ns * ns, n as u64);
        let g = random(2 * n * n * nk, n as u64 + 1);
        let run = |backend: BackendSetting, fusion: &str, flags: u32| -> (Vec<f64>, String) {
            // SAFETY: tests run one at a time (state()); the variable is read at plan time.
            unsafe { std::env::set_var("FFTX_GPU_FUSION", fusion) };
            conv3_on(backend, (n, ns, nd), &input, &g, flags)
        };
        let (want, _) = run(BackendSetting::Cpu, "auto", FFTX_ESTIMATE);
        let tol = 1e-14 * (n3 as f64).log2();
        let before = cuda::live_resources()["cufft_plans"];
        for (fusion, flags) in [
            ("fused", FFTX_ESTIMATE),
            ("kernel", FFTX_ESTIMATE),
            ("auto", FFTX_MEASURE),
        ] {
            let (got, text) = run(BackendSetting::Gpu, fusion, flags);
            let e = rel_l2(&got, &want);
            assert!(e < tol, "n={n} fusion={fusion}: rel L2 {e:e}\n{text}");
            assert!(
                text.contains("(gpu passes ["),
                "n={n} fusion={fusion}: not on the GPU\n{text}"
            );
            eprintln!("n={n} fusion={fusion}: rel L2 {e:.2e}");
        }
        // Device arrays: the plan must run on the GPU and leave the arrays there.
        unsafe { std::env::set_var("FFTX_GPU_FUSION", "auto") };
        let (di, dg, dout) = (
            device_copy_of(&input),
            device_copy_of(&g),
            device_copy_of(&vec![0.0; nd * nd * nd]),
        );
        let text = unsafe {
            fftx_conv3(
                n,
                ns,
                nd,
                di.ptr as *mut f64,
                dout.ptr as *mut f64,
                dg.ptr as *mut fftx_complex,
                FFTX_ESTIMATE,
            )
        };
        let got = host_copy_of(&dout, nd * nd * nd);
        assert!(
            used_where_they_are(&text),
            "device arrays are used where they are\n{text}"
        );
        let e = rel_l2(&got, &want);
        assert!(e < tol, "n={n} device arrays: rel L2 {e:e}");
        assert_eq!(
            cuda::live_resources()["cufft_plans"],
            before,
            "cuFFT plans left behind"
        );
    }
    unsafe { std::env::remove_var("FFTX_GPU_FUSION") };
}

/// The exported wisdom text (double precision).
fn wisdom_text() -> String {
    // SAFETY: the string is ours until freed.
    unsafe {
        let p = fftw_export_wisdom_to_string();
        let text = std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned();
        fftw_free(p as *mut std::ffi::c_void);
        text
    }
}

/// An FFTX chain's fusion, timed under FFTX_MEASURE, is recorded in wisdom as FFTW plans'
/// choices are; after export, forget and import, a plan (FFTX_ESTIMATE too, as FFTW's
/// measured wisdom serves its estimates) runs that fusion without timing, and computes the same.
#[test]
fn fftx_fusion_choice_is_kept_in_wisdom() {
    let _s = state();
    if !have_gpu() {
        return;
    }
    let (n, ns, nd) = (34usize, 17usize, 17usize);
    let input = random(ns * ns * ns, 7);
    let g = random(2 * n * n * (n / 2 + 1), 8);
    let run = |flags: u32| conv3_on(BackendSetting::Gpu, (n, ns, nd), &input, &g, flags);
    // SAFETY: tests run one at a time (state()).
    unsafe { std::env::remove_var("FFTX_GPU_FUSION") };
    fftw_forget_wisdom();
    let (measured, text) = run(FFTX_MEASURE);
    assert!(text.contains(" measured "), "timed under MEASURE\n{text}");
    let fusion = ["fused", "callback", "kernel"]
        .into_iter()
        .find(|f| text.contains(&format!("fusion={f} measured")))
        .unwrap_or_else(|| panic!("no fusion in\n{text}"));
    let wisdom = wisdom_text();
    let line = wisdom
        .lines()
        .find(|l| l.contains("\"fftx-chain 34x34x34 #"))
        .unwrap_or_else(|| panic!("no chain in wisdom\n{wisdom}"));
    assert!(
        line.trim_end().ends_with(&format!(" gpu {fusion})")),
        "{line}"
    );
    fftw_forget_wisdom();
    assert!(!wisdom_text().contains("fftx-chain"));
    let c = std::ffi::CString::new(wisdom).unwrap();
    assert_eq!(unsafe { fftw_import_wisdom_from_string(c.as_ptr()) }, 1);
    for flags in [FFTX_MEASURE, FFTX_ESTIMATE] {
        let (got, text) = run(flags);
        assert!(
            text.contains(&format!("fusion={fusion} from wisdom")),
            "flags {flags}: {fusion} from wisdom, not timed again\n{text}"
        );
        let e = rel_l2(&got, &measured);
        assert!(
            e < 1e-13,
            "flags {flags}: rel L2 {e:e} against the measured plan"
        );
    }
    fftw_forget_wisdom();
}

unsafe extern "C" fn fftxf_scaling(
    i: *mut std::ffi::c_void,
    o: *mut std::ffi::c_void,
    data: *mut std::ffi::c_void,
) {
    let t = fftxf_pointwise_temp_complex();
    fftxf_pointwise_complex(0, t, i as *mut fftxf_complex);
    fftxf_pointwise_complex(3, t, data as *mut fftxf_complex);
    fftxf_pointwise_complex(0, o as *mut fftxf_complex, t);
}

/// `fftx_conv3` through the single-precision interface (float arrays and temporaries).
unsafe fn fftxf_conv3(
    (n, ns, nd): (usize, usize, usize),
    input: *mut f32,
    out: *mut f32,
    g: *mut fftxf_complex,
    flags: u32,
) -> String {
    let (nk, ni) = (n / 2 + 1, n as i32);
    let d = |n: usize, s: i32| fftx_iodim {
        n: n as i32,
        is: s,
        os: s,
    };
    let x = |n: usize, iofs: i32, is: i32, os: i32, ds: i32| fftx_iodimx {
        n: n as i32,
        iofs,
        oofs: 0,
        dofs: 0,
        is,
        os,
        ds,
    };
    let (n2, s2) = (ni * ni, (ns * ns) as i32);
    let p_d = [d(n, 1), d(n, ni), d(n, n2)];
    let f_d = [d(n, 1), d(n, ni), d(nk, n2)];
    let i_dx = [
        x(ns, 0, 1, 1, 1),
        x(ns, 0, ns as i32, ni, 1),
        x(ns, 0, s2, n2, 1),
    ];
    let (o0, d1, d2) = ((n - nd) as i32, nd as i32, (nd * nd) as i32);
    let o_dx = [
        x(nd, o0, 1, 1, 1),
        x(nd, o0, ni, d1, 1),
        x(nd, o0, n2, d2, 1),
    ];
    let f_dx = [x(n, 0, 1, 1, 1), x(n, 0, ni, ni, ni), x(nk, 0, n2, n2, n2)];
    let (b_d, b_dx) = (d(1, 1), x(1, 0, 1, 1, 1));
    let sub = flags | FFTX_SUBPLAN;
    let t1 = fftxf_create_zero_temp_real(3, p_d.as_ptr());
    let t2 = fftxf_create_temp_complex(3, f_d.as_ptr());
    let t3 = fftxf_create_temp_complex(3, f_d.as_ptr());
    let t4 = fftxf_create_temp_real(3, p_d.as_ptr());
    let f = Some(fftxf_scaling as unsafe extern "C" fn(_, _, _));
    let plans = [
        fftxf_plan_guru_copy_real(3, i_dx.as_ptr(), input, t1, sub),
        fftxf_plan_guru_dft_r2c(3, p_d.as_ptr(), 0, &b_d, t1, t2, sub),
        fftxf_plan_guru_pointwise_c2c(3, f_dx.as_ptr(), 0, &b_dx, t2, t3, g, f, sub),
        fftxf_plan_guru_dft_c2r(3, p_d.as_ptr(), 0, &b_d, t3, t4, sub),
        fftxf_plan_guru_copy_real(3, o_dx.as_ptr(), t4, out, sub),
    ];
    assert!(plans.iter().all(|p| !p.is_null()));
    let p = fftxf_plan_compose(5, plans.as_ptr(), flags);
    let error = std::ffi::CStr::from_ptr(fftxf_last_error());
    assert!(!p.is_null(), "{error:?}");
    fftxf_execute(p);
    let s = fftxf_sprint_plan(p);
    let text = std::ffi::CStr::from_ptr(s).to_string_lossy().into_owned();
    libc::free(s as *mut _);
    fftxf_destroy_plan(p);
    plans.iter().for_each(|&q| fftxf_destroy_plan(q));
    fftxf_destroy_temp_real(t1);
    fftxf_destroy_temp_complex(t2);
    fftxf_destroy_temp_complex(t3);
    fftxf_destroy_temp_real(t4);
    text
}

fn narrow(v: &[f64]) -> Vec<f32> {
    v.iter().map(|&x| x as f32).collect()
}

/// Device memory holding the floats `v`.
fn device_copy_of_f32(v: &[f32]) -> cuda::Mirror {
    let bytes = unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, v.len() * 4) };
    cuda::Mirror::new(bytes, cuda::Memory::Device).expect("device memory")
}

/// The single-precision twin of `fftx_chains_on_the_gpu_match_the_cpu_executor`: fftxf_ chains
/// on the GPU (float kernels, single-precision cuFFT plans) against the f32 CPU executor and
/// the f64 result, every way of fusing, host and device arrays.
#[test]
fn fftxf_chains_on_the_gpu_match_the_cpu_executor() {
    let _s = state();
    if !have_gpu() {
        return;
    }
    for &(n, ns, nd) in &[(24usize, 10usize, 9usize), (34, 17, 17), (37, 12, 20)] {
        let (nk, n3) = (n / 2 + 1, n * n * n);
        let input = narrow(&random(ns * ns * ns, n as u64));
        let g = narrow(&random(2 * n * n * nk, n as u64 + 1));
        let run = |backend: BackendSetting, fusion: &str, flags: u32| -> (Vec<f64>, String) {
            force_backend(Some(backend));
            // SAFETY: tests run one at a time (state()); the variable is read at plan time.
            unsafe { std::env::set_var("FFTX_GPU_FUSION", fusion) };
            let (mut out, mut inp, mut gg) = (vec![0f32; nd * nd * nd], input.clone(), g.clone());
            let text = unsafe {
                let gp = gg.as_mut_ptr() as *mut fftxf_complex;
                fftxf_conv3((n, ns, nd), inp.as_mut_ptr(), out.as_mut_ptr(), gp, flags)
            };
            force_backend(None);
            (out.iter().map(|&x| x as f64).collect(), text)
        };
        let (want, _) = run(BackendSetting::Cpu, "auto", FFTX_ESTIMATE);
        // The f64 plan on the same (float) values: the f32 CPU result is within f32 accuracy.
        let mut out64 = vec![0.0; nd * nd * nd];
        let (mut in64, mut g64): (Vec<f64>, Vec<f64>) = (
            input.iter().map(|&x| x as f64).collect(),
            g.iter().map(|&x| x as f64).collect(),
        );
        force_backend(Some(BackendSetting::Cpu));
        unsafe {
            let gp = g64.as_mut_ptr() as *mut fftx_complex;
            fftx_conv3(
                n,
                ns,
                nd,
                in64.as_mut_ptr(),
                out64.as_mut_ptr(),
                gp,
                FFTX_ESTIMATE,
            );
        }
        force_backend(None);
        let tol = 1e-5 * (n3 as f64).log2();
        assert!(rel_l2(&want, &out64) < tol, "n={n}: the f32 CPU result");
        let before = cuda::live_resources()["cufft_plans"];
        for (fusion, flags) in [
            ("fused", FFTX_ESTIMATE),
            ("kernel", FFTX_ESTIMATE),
            ("callback", FFTX_ESTIMATE),
            ("auto", FFTX_MEASURE),
            // Unfused: the copies and the pointwise as generated elementwise kernels, the
            // transforms as FFTW plans on the GPU.
            ("auto", FFTX_ESTIMATE | FFTX_NO_OPTIMIZE),
        ] {
            let (got, text) = run(BackendSetting::Gpu, fusion, flags);
            let e = rel_l2(&got, &out64);
            assert!(e < tol, "n={n} fusion={fusion}: rel L2 {e:e}\n{text}");
            let chain = flags & FFTX_NO_OPTIMIZE == 0 && fusion != "callback";
            assert!(
                text.contains("(gpu passes [") || !chain,
                "n={n} fusion={fusion}: not on the GPU\n{text}"
            );
            eprintln!("f32 n={n} fusion={fusion}: rel L2 {e:.2e}");
        }
        unsafe { std::env::set_var("FFTX_GPU_FUSION", "auto") };
        let (di, dg, dout) = (
            device_copy_of_f32(&input),
            device_copy_of_f32(&g),
            device_copy_of_f32(&vec![0f32; nd * nd * nd]),
        );
        let text = unsafe {
            let (i, o) = (di.ptr as *mut f32, dout.ptr as *mut f32);
            fftxf_conv3(
                (n, ns, nd),
                i,
                o,
                dg.ptr as *mut fftxf_complex,
                FFTX_ESTIMATE,
            )
        };
        assert!(
            used_where_they_are(&text),
            "device arrays are used where they are\n{text}"
        );
        let mut got = vec![0f32; nd * nd * nd];
        unsafe {
            cudarc::driver::sys::cuMemcpyDtoH_v2(
                got.as_mut_ptr() as *mut _,
                dout.ptr as u64,
                got.len() * 4,
            )
        };
        let got: Vec<f64> = got.iter().map(|&x| x as f64).collect();
        let e = rel_l2(&got, &out64);
        assert!(e < tol, "n={n} f32 device arrays: rel L2 {e:e}");
        assert_eq!(
            cuda::live_resources()["cufft_plans"],
            before,
            "cuFFT plans left behind"
        );
    }
    unsafe { std::env::remove_var("FFTX_GPU_FUSION") };
}

/// `fftxf_` transforms under `FFTX_TENSOR_CORES=split` (issue 17): a 1-D c2c of 16^3 points,
/// batched, runs on the split-half tensor-core kernels (the printed plan says so) at f32
/// accuracy against the system FFTW in f64; a length they do not take (1000) runs on cuFFT.
#[test]
fn fftxf_transforms_take_the_split_half_kernels_when_asked() {
    let _s = state();
    if !have_gpu() {
        return;
    }
    for (n, batch, split) in [(4096usize, 64usize, true), (1000, 16, false)] {
        let mut x = narrow(&random(2 * n * batch, n as u64 + 7));
        let want = common::fftw_c2c_f64(&x, n, batch, FFTX_FORWARD);
        let d = [fftx_iodim {
            n: n as i32,
            is: 1,
            os: 1,
        }];
        let h = [fftx_iodim {
            n: batch as i32,
            is: n as i32,
            os: n as i32,
        }];
        force_backend(Some(BackendSetting::Gpu));
        // SAFETY: tests run one at a time (state()); the variable is read at plan time.
        unsafe { std::env::set_var("FFTX_TENSOR_CORES", "split") };
        let mut out = vec![0f32; 2 * n * batch];
        let text = unsafe {
            let p = fftxf_plan_guru_dft(
                1,
                d.as_ptr(),
                1,
                h.as_ptr(),
                x.as_mut_ptr() as _,
                out.as_mut_ptr() as _,
                FFTX_FORWARD,
                FFTX_ESTIMATE,
            );
            assert!(!p.is_null());
            fftxf_execute(p);
            let s = fftxf_sprint_plan(p);
            let text = std::ffi::CStr::from_ptr(s).to_string_lossy().into_owned();
            libc::free(s as *mut _);
            fftxf_destroy_plan(p);
            text
        };
        unsafe { std::env::remove_var("FFTX_TENSOR_CORES") };
        force_backend(None);
        let e = common::rel_l2_f32(&out, &want);
        eprintln!("fftxf n={n} x {batch} split={split}: rel L2 {e:.2e}\n{text}");
        assert!(e < 1e-6, "n={n}: rel L2 {e:e}\n{text}");
        assert_eq!(
            text.contains("split-half"),
            split,
            "n={n}: the tensor-core kernels {}\n{text}",
            if split { "not taken" } else { "taken" }
        );
    }
}

/// An out-of-card plan in place whose GPU run fails before it writes the caller's array (out
/// of device memory at execute, the first launch failing) is recomputed by the CPU: the
/// array holds the transform, not a loss report. (Before, any failure of an out-of-card
/// program in place was reported as a loss.)
#[test]
fn an_out_of_card_failure_before_the_array_is_written_is_recomputed() {
    use cuda::fault::{arm, clear, Fault};
    let _s = state();
    if !have_gpu() {
        return;
    }
    unsafe {
        let n = 1usize << 16;
        let x = random(2 * n, 31);
        let make = c2c_plan(&[1 << 16], FFTW_FORWARD);
        let (want, _) = run_f64(BackendSetting::Cpu, &x, 2 * n, true, &make);
        for fault in [Fault::OomExecute, Fault::Launch(0)] {
            force_backend(Some(BackendSetting::Gpu));
            cuda::set_device_budget(Some(64 << 10));
            let a = fftw_malloc(2 * n * 8) as *mut f64;
            let p = make(a, a);
            let text = plan_text(p);
            assert!(text.contains("out-of-card"), "{text}");
            std::ptr::copy_nonoverlapping(x.as_ptr(), a, 2 * n);
            arm(fault);
            fftw_execute(p);
            clear();
            cuda::set_device_budget(None);
            force_backend(None);
            let got = std::slice::from_raw_parts(a, 2 * n).to_vec();
            fftw_destroy_plan(p);
            fftw_free(a as *mut _);
            let e = rel_l2(&got, &want);
            eprintln!("out of card in place, {fault:?}: rel. L2 against the CPU {e:.2e}");
            assert!(e < 1e-14 * 16.0, "{fault:?}: {e:.3e}");
        }
    }
}

/// Injected GPU faults (the real failure paths, triggered on purpose): out of device memory at
/// plan time and at execute time, a kernel/cuFFT launch failing in the middle of a streamed
/// program (out of place and in place, pinned and pageable arrays), and an FFTX chain whose
/// launch fails. Every result must still be the CPU executor's; an in-place array must never be
/// left half transformed.
#[test]
fn injected_faults_never_lose_the_callers_data() {
    use cuda::fault::{arm, clear, Fault};
    let _s = state();
    if !have_gpu() {
        return;
    }
    unsafe {
        // 1500 transforms of 4096 complex doubles: 96 MiB, six tiles.
        let (n, howmany) = (4096usize, 1500usize);
        let x = random(2 * n * howmany, 21);
        let make = many_1d_plan(n, howmany, (1, n), FFTW_FORWARD);
        let (want, _) = run_f64(BackendSetting::Cpu, &x, 2 * n * howmany, false, &make);
        let check = |what: &str, got: &[f64]| {
            let e = rel_l2(got, &want);
            eprintln!("{what}: rel. L2 {e:.2e}");
            assert!(e <= 12e-12, "{what}: rel. L2 {e:.3e}");
        };
        clear();
        arm(Fault::OomPlan);
        let (got, text) = run_f64(BackendSetting::Gpu, &x, 2 * n * howmany, false, &make);
        assert!(
            text.contains("(cpu"),
            "out of memory at plan time: the CPU plans it\n{text}"
        );
        check("oom at plan time", &got);
        for in_place in [false, true] {
            for fault in [
                Fault::OomExecute,
                Fault::Launch(0),
                Fault::Launch(2),
                Fault::Launch(4),
            ] {
                // Pinned (fftw_malloc) arrays.
                force_backend(Some(BackendSetting::Gpu));
                let len = 2 * n * howmany;
                let a = fftw_malloc(len * 8) as *mut f64;
                let b = if in_place {
                    a
                } else {
                    fftw_malloc(len * 8) as *mut f64
                };
                let p = make(a, b);
                assert!(plan_text(p).contains("(gpu"));
                std::ptr::copy_nonoverlapping(x.as_ptr(), a, len);
                arm(fault);
                fftw_execute(p);
                clear();
                check(
                    &format!("pinned {fault:?} in place {in_place}"),
                    std::slice::from_raw_parts(b, len),
                );
                fftw_destroy_plan(p);
                fftw_free(a as *mut _);
                if !in_place {
                    fftw_free(b as *mut _);
                }
                // Pageable arrays, through the staging blocks.
                let mut a = x.clone();
                let mut b = vec![0.0; len];
                let out = if in_place {
                    a.as_mut_ptr()
                } else {
                    b.as_mut_ptr()
                };
                let p = make(a.as_mut_ptr(), out);
                arm(fault);
                fftw_execute(p);
                clear();
                fftw_destroy_plan(p);
                force_backend(None);
                check(
                    &format!("pageable {fault:?} in place {in_place}"),
                    if in_place { &a } else { &b },
                );
            }
        }
        // An FFTX chain on host arrays whose first launch fails: computed on the CPU.
        let (nc, ns, nd) = (24usize, 10usize, 9usize);
        let nk = nc / 2 + 1;
        let input = random(ns * ns * ns, 22);
        let g = random(2 * nc * nc * nk, 23);
        let conv = |backend| {
            force_backend(Some(backend));
            let (mut inp, mut gg, mut out) = (input.clone(), g.clone(), vec![0.0; nd * nd * nd]);
            let text = fftx_conv3(
                nc,
                ns,
                nd,
                inp.as_mut_ptr(),
                out.as_mut_ptr(),
                gg.as_mut_ptr() as *mut fftx_complex,
                FFTX_ESTIMATE,
            );
            force_backend(None);
            (out, text)
        };
        let (want, _) = conv(BackendSetting::Cpu);
        arm(Fault::Launch(0));
        let (got, text) = conv(BackendSetting::Gpu);
        clear();
        assert!(
            text.contains("(gpu"),
            "the chain was planned for the GPU\n{text}"
        );
        let e = rel_l2(&got, &want);
        assert!(e < 1e-13, "FFTX chain after a failed launch: rel. L2 {e:e}");
    }
}

/// A real device reset between two executes of a GPU plan on host arrays: the second execute
/// (and every later one) is computed on the CPU. Ignored by default: the reset destroys every
/// device resource of the process, so it runs alone (`--ignored`, tools/device-run.sh).
#[test]
#[ignore]
fn device_reset_between_executes() {
    use cuda::fault::{arm, clear, Fault};
    let _s = state();
    if !have_gpu() {
        return;
    }
    unsafe {
        let (n, howmany) = (4096usize, 600usize);
        let x = random(2 * n * howmany, 24);
        let make = many_1d_plan(n, howmany, (1, n), FFTW_FORWARD);
        let (want, _) = run_f64(BackendSetting::Cpu, &x, 2 * n * howmany, false, &make);
        force_backend(Some(BackendSetting::Gpu));
        let mut a = x.clone();
        let mut b = vec![0.0; a.len()];
        let p = make(a.as_mut_ptr(), b.as_mut_ptr());
        assert!(plan_text(p).contains("(gpu"));
        fftw_execute(p);
        assert!(rel_l2(&b, &want) <= 12e-12, "before the reset");
        for round in 0..2 {
            if round == 0 {
                arm(Fault::Reset);
            }
            b.iter_mut().for_each(|v| *v = 0.0);
            a.copy_from_slice(&x);
            fftw_execute(p);
            let e = rel_l2(&b, &want);
            eprintln!("after the reset, execute {round}: rel. L2 {e:.2e}");
            assert!(
                e <= 12e-12,
                "after the reset, execute {round}: rel. L2 {e:.3e}"
            );
        }
        clear();
        fftw_destroy_plan(p);
        force_backend(None);
    }
}

/// Out-of-card programs (passes::out_of_card) run by the CUDA program executor against the CPU
/// program executor on the same program: a four-step 1-D split, 2-D slabs, 3-D in place, a
/// 1-D split in place (its transpose round) and resident data, both precisions.
#[test]
fn out_of_card_programs_match_the_cpu_program() {
    let _g = state();
    if !have_gpu() {
        return;
    }
    let cases: [(&[isize], usize, bool); 7] = [
        (&[1 << 16], 64 << 10, false),
        (&[128, 96], 48 << 10, false),
        (&[16, 24, 20], 24 << 10, true),
        (&[1 << 16], 64 << 10, true),
        // Data that fit the budget once: resident (passes::resident), gathered on the way out.
        (&[1 << 16], 5 << 18, false),
        (&[1 << 16], 5 << 18, true),
        (&[32, 32, 32], 5 << 17, true),
    ];
    for &(ns, budget, in_place) in &cases {
        program_case::<f64>(ns, budget, in_place, 1e-12);
        program_case::<f32>(ns, budget, in_place, 1e-5);
    }
}

/// Lowers a forward DFT of shape `ns` within `budget` bytes, runs it on the CPU and on the GPU,
/// and checks the relative L2 difference against `tol`·log2 n.
fn program_case<T: fftx::real::Real>(ns: &[isize], budget: usize, in_place: bool, tol: f64) {
    use fftx::exec::cpu::layout::ArrayPtr;
    use fftx::exec::cpu::program::CpuProgram;
    use fftx::exec::cuda::program::CudaProgram;
    use fftx::passes::out_of_card::{lower, Budget, HostArrays};
    use fftx::problem::{IoDim, Kind, Problem};
    let total: isize = ns.iter().product();
    let mut s = 2;
    let mut dims: Vec<IoDim> = ns
        .iter()
        .rev()
        .map(|&n| {
            let d = IoDim::new(n, s, s);
            s *= n;
            d
        })
        .collect();
    dims.reverse();
    let problem = Problem {
        kind: Kind::Dft { sign: -1 },
        dims,
        loops: vec![],
        precision: T::PRECISION,
        in_place,
    };
    let budget = Budget {
        device: 0,
        bytes: budget,
    };
    let lowered = |host| lower(&problem, budget, host).unwrap();
    let x: Vec<T> = random(2 * total as usize, 7)
        .into_iter()
        .map(T::cast)
        .collect();
    let ptr = |v: &mut Vec<T>| {
        let p = v.as_mut_ptr() as usize;
        ArrayPtr::Complex {
            re: p,
            im: p + std::mem::size_of::<T>(),
        }
    };
    // Pageable arrays (Vec): transfers staged through pinned blocks. Pinned arrays
    // (fftw_malloc, at least 1 MiB so that it pins): transfers as DMA alone.
    let run = |prog: &fftx::program::Program, on_gpu: bool, pinned: bool| -> Vec<f64> {
        let bytes = (x.len() * std::mem::size_of::<T>()).max(1 << 20);
        let (mut a, mut b) = (x.clone(), vec![T::zero(); x.len()]);
        let (pa, pb) = (fftw_malloc(bytes) as *mut T, fftw_malloc(bytes) as *mut T);
        let slice = |p: *mut T| unsafe { std::slice::from_raw_parts_mut(p, x.len()) };
        let (i, o) = if pinned {
            slice(pa).copy_from_slice(&x);
            slice(pb).fill(T::zero());
            let p = |q: *mut T| ArrayPtr::Complex {
                re: q as usize,
                im: q as usize + std::mem::size_of::<T>(),
            };
            (p(pa), if in_place { p(pa) } else { p(pb) })
        } else {
            let i = ptr(&mut a);
            (i, if in_place { i } else { ptr(&mut b) })
        };
        unsafe {
            if on_gpu {
                let exec = CudaProgram::<T>::new(prog, &[cuda::default_device().unwrap()])
                    .unwrap_or_else(|e| panic!("{e:?}\n{}", prog.describe()));
                assert_eq!(
                    exec.runs_direct(i, o),
                    pinned,
                    "{ns:?}: DMA alone exactly on pinned arrays"
                );
                exec.run(i, o).unwrap();
            } else {
                CpuProgram::<T>::new(prog, 1).unwrap().run(i, o).unwrap();
            }
        }
        let out: Vec<T> = match (pinned, in_place) {
            (true, true) => slice(pa).to_vec(),
            (true, false) => slice(pb).to_vec(),
            (false, true) => a,
            (false, false) => b,
        };
        unsafe {
            fftw_free(pa as *mut _);
            fftw_free(pb as *mut _);
        }
        out.iter().map(|t| t.to_f64().unwrap()).collect()
    };
    let want = run(&lowered(HostArrays::Pageable), false, false);
    let bound = tol * (total as f64).log2();
    // Each program from either kind of array (a new-array execute may bring the other kind).
    for host in [HostArrays::Pageable, HostArrays::Pinned] {
        let prog = lowered(host);
        for pinned in [false, true] {
            let e = rel_l2(&run(&prog, true, pinned), &want);
            eprintln!(
                "{ns:?} in place {in_place} {host:?} program, pinned {pinned} f{}: rel. L2 {e:.2e}",
                8 * std::mem::size_of::<T>()
            );
            assert!(
                e <= bound,
                "{ns:?} in place {in_place} {host:?} program, pinned {pinned}: rel. L2 {e:.3e} > {bound:.1e}\n{}",
                prog.describe()
            );
        }
    }
}

/// The device map of `parts` virtual devices over `cards`, round robin (one card: `parts`
/// partitions of it).
fn device_map(cards: &[Arc<cuda::Device>], parts: usize) -> Vec<Arc<cuda::Device>> {
    (0..parts).map(|p| cards[p % cards.len()].clone()).collect()
}

/// The distributed program of `problem` over `parts` virtual devices.
fn distributed(problem: &Problem, parts: usize) -> fftx::program::Program {
    use fftx::passes::distribute;
    let devices: Vec<usize> = (0..parts).collect();
    let prog = if problem.dims.len() == 1 {
        distribute::one_dimension(problem, &devices)
    } else {
        distribute::slabs(problem, &devices)
    };
    prog.unwrap_or_else(|e| panic!("lowering {problem:?} over {parts} devices: {e:?}"))
}

/// Scalars of the input and output arrays of a packed problem of shape `ns`.
fn array_scalars(ns: &[isize], kind: &Kind) -> (usize, usize) {
    let total: isize = ns.iter().product();
    let last = *ns.last().unwrap();
    let half = 2 * (total / last) * (last / 2 + 1);
    let (i, o) = match kind {
        Kind::R2c => (total, half),
        Kind::C2r => (half, total),
        _ => (2 * total, 2 * total),
    };
    (i as usize, o as usize)
}

fn array_ptr<T>(v: &mut [T]) -> fftx::exec::cpu::layout::ArrayPtr {
    let p = v.as_mut_ptr() as usize;
    fftx::exec::cpu::layout::ArrayPtr::Complex {
        re: p,
        im: p + std::mem::size_of::<T>(),
    }
}

/// Runs the distributed program of `ns`/`kind` over `map` (its entries the virtual devices) on
/// the GPUs and on the CPU program executor, same program and input; Err with everything
/// needed to reproduce when they differ by more than `tol`·log2 n (relative L2) or the GPU
/// run fails.
fn distributed_case<T: fftx::real::Real>(
    ns: &[isize],
    kind: Kind,
    map: &[Arc<cuda::Device>],
    peer: bool,
    pencils: bool,
    tol: f64,
) -> Result<f64, String> {
    use fftx::exec::cpu::program::CpuProgram;
    use fftx::exec::cuda::program::CudaProgram;
    let problem = Problem::packed(ns, kind.clone(), T::PRECISION);
    let prog = if pencils {
        let devices: Vec<usize> = (0..map.len()).collect();
        fftx::passes::distribute::pencils(&problem, &devices)
            .unwrap_or_else(|e| panic!("pencils of {problem:?} over {devices:?}: {e:?}"))
    } else {
        distributed(&problem, map.len())
    };
    let ordinals: Vec<i32> = map.iter().map(|d| d.ordinal).collect();
    let what = format!(
        "{ns:?} {} f{} over {} virtual device(s) by {} on cards {ordinals:?} ({})",
        kind.name(),
        8 * std::mem::size_of::<T>(),
        map.len(),
        if pencils { "pencils" } else { "slabs" },
        if peer {
            "peer access where possible"
        } else {
            "copies between cards staged through the host"
        }
    );
    let (n_in, n_out) = array_scalars(ns, &kind);
    let mut x: Vec<T> = random(n_in, 11).into_iter().map(T::cast).collect();
    if kind == Kind::C2r {
        // A Hermitian half spectrum: the r2c of real data (on the CPU).
        let r2c = distributed(&Problem::packed(ns, Kind::R2c, T::PRECISION), 1);
        let (n_real, _) = array_scalars(ns, &Kind::R2c);
        let mut real: Vec<T> = random(n_real, 12).into_iter().map(T::cast).collect();
        unsafe {
            CpuProgram::<T>::new(&r2c, 1)
                .unwrap()
                .run(array_ptr(&mut real), array_ptr(&mut x))
                .unwrap();
        }
    }
    let run = |on_gpu: bool| -> Result<Vec<f64>, String> {
        let (mut a, mut b) = (x.clone(), vec![T::zero(); n_out]);
        unsafe {
            if on_gpu {
                let exec = if peer {
                    CudaProgram::<T>::new(&prog, map)
                } else {
                    CudaProgram::<T>::without_peer_access(&prog, map)
                }
                .map_err(|e| format!("{what}: making the GPU program: {e:?}"))?;
                exec.run(array_ptr(&mut a), array_ptr(&mut b))
                    .map_err(|e| format!("{what}: running the GPU program: {e:?}"))?;
            } else {
                CpuProgram::<T>::new(&prog, 1)
                    .unwrap()
                    .run(array_ptr(&mut a), array_ptr(&mut b))
                    .unwrap();
            }
        }
        Ok(b.iter().map(|t| t.to_f64().unwrap()).collect())
    };
    let want = run(false)?;
    let got = run(true).map_err(|e| format!("{e}\n{}", prog.describe()))?;
    let e = rel_l2(&got, &want);
    let total: isize = ns.iter().product();
    let bound = tol * (total as f64).log2().max(1.0);
    if e <= bound && e.is_finite() {
        eprintln!("{what}: rel. L2 {e:.2e}");
        return Ok(e);
    }
    let worst = got
        .iter()
        .zip(&want)
        .enumerate()
        .max_by(|a, b| (a.1 .0 - a.1 .1).abs().total_cmp(&(b.1 .0 - b.1 .1).abs()))
        .map(|(i, (g, w))| format!("scalar {i}: gpu {g:e}, cpu {w:e}"))
        .unwrap_or_default();
    Err(format!(
        "{what}: rel. L2 {e:.3e} > {bound:.1e} (worst {worst})\n{}",
        prog.describe()
    ))
}

/// Every distributed case over 1 to 4 virtual devices (and `extra` counts) mapped onto `cards`
/// round robin, both precisions, the 3-D ones by slabs and by pencils; panics listing every
/// failure.
fn distributed_cases(cards: &[Arc<cuda::Device>], extra: &[usize], peer: bool) {
    let cases: [(&[isize], Kind); 11] = [
        (&[240], Kind::Dft { sign: -1 }),
        (&[24, 20], Kind::Dft { sign: 1 }),
        // Fewer planes than devices: empty shares.
        (&[3, 10], Kind::Dft { sign: -1 }),
        (&[6, 8, 10], Kind::Dft { sign: -1 }),
        (&[12, 10], Kind::R2c),
        (&[6, 4, 10], Kind::R2c),
        (&[12, 10], Kind::C2r),
        (&[6, 4, 10], Kind::C2r),
        // Slab exchanges whose parts are rows of 32 KiB and more: the copy engine's
        // (cuMemcpy2DAsync) between devices, chunk by chunk.
        (&[16, 64, 512], Kind::Dft { sign: 1 }),
        (&[16, 64, 1024], Kind::R2c),
        (&[16, 64, 1024], Kind::C2r),
    ];
    let mut counts: Vec<usize> = (1..=4).chain(extra.iter().copied()).collect();
    counts.sort();
    counts.dedup();
    let mut failures = Vec::new();
    for parts in counts {
        let map = device_map(cards, parts);
        for (ns, kind) in &cases {
            // Rank 3: by slabs and by pencils (passes::distribute::pencils).
            for pencils in [false, true]
                .into_iter()
                .take(if ns.len() == 3 { 2 } else { 1 })
            {
                for r in [
                    distributed_case::<f64>(ns, kind.clone(), &map, peer, pencils, 1e-12),
                    distributed_case::<f32>(ns, kind.clone(), &map, peer, pencils, 1e-5),
                ] {
                    if let Err(e) = r {
                        eprintln!("FAILED: {e}");
                        failures.push(e);
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} distributed case(s) differ from the CPU executor:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Distributed programs (passes::distribute) over P = 1 to 4 virtual devices that are all
/// partitions of the default card: the CUDA program executor against the CPU one on the same
/// program, c2c (1-D four-step, 2-D, 3-D), r2c and c2r, both precisions.
#[test]
fn distributed_programs_on_partitions_of_one_card_match_the_cpu() {
    let _g = state();
    if !have_gpu() {
        return;
    }
    let card = cuda::default_device().unwrap();
    eprintln!("partitions of device {} ({})", card.ordinal, card.name);
    distributed_cases(&[card], &[], true);
}

/// The same over every visible card (virtual devices round robin over them, P = 1 to 4, the
/// card count and twice it), with peer access where the cards have it and again with every
/// copy between cards staged through pinned host memory. With one card it runs the partition
/// case.
#[test]
fn distributed_programs_over_several_cards_match_the_cpu() {
    let _g = state();
    if !have_gpu() {
        return;
    }
    let cards: Vec<Arc<cuda::Device>> =
        (0..cuda::device_count()).filter_map(cuda::device).collect();
    assert!(!cards.is_empty(), "a GPU but no device opens");
    eprintln!(
        "{} card(s): {:?}",
        cards.len(),
        cards
            .iter()
            .map(|c| format!("{} {}", c.ordinal, c.name))
            .collect::<Vec<_>>()
    );
    for a in &cards {
        for b in cards.iter().filter(|b| b.ordinal != a.ordinal) {
            eprintln!(
                "peer access {} -> {}: {}",
                a.ordinal,
                b.ordinal,
                a.reaches(b)
            );
        }
    }
    let n = cards.len();
    distributed_cases(&cards, &[n, 2 * n], true);
    if n > 1 {
        distributed_cases(&cards, &[n, 2 * n], false);
    }
}

/// A device map shorter than the program's placements is refused with a typed error (no GPU
/// is needed to refuse an empty map), and so is one short by a device on a GPU.
#[test]
fn a_device_map_too_short_is_refused() {
    use fftx::error::ErrorKind;
    use fftx::exec::cuda::program::CudaProgram;
    let _g = state();
    let prog = distributed(
        &Problem::packed(&[12, 10], Kind::Dft { sign: -1 }, Precision::F64),
        3,
    );
    let refused = |r: Result<CudaProgram<f64>, fftx::error::Error>, len: usize| {
        let e = match r {
            Ok(_) => panic!("a map of {len} device(s) for a program over 3 was accepted"),
            Err(e) => e,
        };
        assert_eq!(e.kind, ErrorKind::BadInput, "{e:?}");
        assert!(
            e.message.contains("3 device(s)") && e.message.contains(&format!("has {len}")),
            "{}",
            e.message
        );
    };
    refused(CudaProgram::<f64>::new(&prog, &[]), 0);
    if !have_gpu() {
        return;
    }
    let card = cuda::default_device().unwrap();
    refused(
        CudaProgram::<f64>::new(&prog, &device_map(std::slice::from_ref(&card), 2)),
        2,
    );
    // The full map is accepted.
    CudaProgram::<f64>::new(&prog, &device_map(&[card], 3))
        .unwrap_or_else(|e| panic!("a map of 3 for a program over 3: {e:?}"));
}

/// Runs `prog` (input and output arrays of `scalars` each) on `map` and on the CPU program
/// executor, same random input; the relative L2 difference, Err (with the program) above `tol`.
fn gpu_vs_cpu<T: fftx::real::Real>(
    prog: &fftx::program::Program,
    scalars: (usize, usize),
    map: &[Arc<cuda::Device>],
    peer: bool,
    tol: f64,
    what: &str,
) -> Result<f64, String> {
    use fftx::exec::cpu::program::CpuProgram;
    use fftx::exec::cuda::program::CudaProgram;
    let x: Vec<T> = random(scalars.0, 21).into_iter().map(T::cast).collect();
    let run = |on_gpu: bool| -> Result<Vec<f64>, String> {
        let (mut a, mut b) = (x.clone(), vec![T::zero(); scalars.1]);
        unsafe {
            if on_gpu {
                let exec = if peer {
                    CudaProgram::<T>::new(prog, map)
                } else {
                    CudaProgram::<T>::without_peer_access(prog, map)
                }
                .map_err(|e| format!("{what}: making the GPU program: {e:?}"))?;
                exec.run(array_ptr(&mut a), array_ptr(&mut b))
                    .map_err(|e| format!("{what}: running the GPU program: {e:?}"))?;
            } else {
                CpuProgram::<T>::new(prog, 1)
                    .unwrap()
                    .run(array_ptr(&mut a), array_ptr(&mut b))
                    .unwrap();
            }
        }
        Ok(b.iter().map(|t| t.to_f64().unwrap()).collect())
    };
    let want = run(false)?;
    let got = run(true).map_err(|e| format!("{e}\n{}", prog.describe()))?;
    let e = rel_l2(&got, &want);
    if e <= tol && e.is_finite() {
        eprintln!("{what}: rel. L2 {e:.2e}");
        return Ok(e);
    }
    Err(format!(
        "{what}: rel. L2 {e:.3e} > {tol:.1e}\n{}",
        prog.describe()
    ))
}

/// A program of one FMM stage on device 0 (leaf of `leaf` points): its source and destination
/// loaded from the input (the destination too: L2L, L2T and post accumulate into it), the
/// destination to the output.
fn fmm_stage_program(
    op: fftx::program::FmmOp,
    (level, boxes, first): (u32, usize, usize),
    leaf: usize,
    sign: i32,
) -> (fftx::program::Program, (usize, usize)) {
    use fftx::problem::IoDim;
    use fftx::program::{At, FmmGeom, FmmStep, Placement, Program, Step, INPUT, OUTPUT};
    let geom = FmmGeom {
        n: 5 * leaf * 16,
        p: 5,
        leaf,
        terms: 7,
        base: 2,
        sign,
    };
    let at = |buf, offset| At { buf, offset };
    let mut f = FmmStep {
        op,
        geom,
        src: at(2, 0),
        dst: at(3, 0),
        boxes,
        level,
        first,
        stream: 0,
    };
    let ((sl, sh), (dl, dh)) = f.extents();
    f.src.offset = -sl;
    f.dst.offset = -dl;
    let (ns, nd) = ((sh - sl) as usize, (dh - dl) as usize);
    let mut prog = Program::new();
    prog.temp(ns, Placement::Device(0));
    prog.temp(nd, Placement::Device(0));
    let copy = |from: At, to: At, n: usize| Step::Transfer {
        from,
        to,
        dims: vec![IoDim::new(n as isize / 2, 2, 2)],
        complex: true,
        stream: 0,
    };
    prog.steps.push(copy(at(INPUT, 0), at(2, 0), ns));
    prog.steps.push(copy(at(INPUT, ns as isize), at(3, 0), nd));
    prog.steps.push(Step::Fmm(f));
    prog.steps.push(copy(at(3, 0), at(OUTPUT, 0), nd));
    (prog, (ns + nd, nd))
}

/// Each FMM-FFT stage's kernel (exec/cuda/fmm.rs) against its CPU twin (exec/cpu/fmm.rs), both
/// precisions, both signs: S2M, S2T, M2M, the cousins' and the base ring's M2L, L2L, L2T, post;
/// leaves of 12 and 16 points (S2T's kernel for leaves of a multiple of 8 takes 8 targets a
/// thread).
#[test]
fn fmm_kernels_match_their_cpu_twins() {
    use fftx::program::FmmOp;
    let _g = state();
    if !have_gpu() {
        return;
    }
    let map = [cuda::default_device().unwrap()];
    let cases = [
        (FmmOp::S2m, 4, 4, 0),
        (FmmOp::S2t, 4, 4, 0),
        (FmmOp::M2m, 3, 2, 0),
        (FmmOp::M2l, 3, 4, 2),
        (FmmOp::M2l, 2, 2, 1),
        (FmmOp::L2l, 2, 2, 0),
        (FmmOp::L2t, 4, 4, 0),
        (FmmOp::Post, 4, 4, 0),
    ];
    let mut failures = Vec::new();
    for (op, level, boxes, first) in cases {
        for (sign, leaf) in [(-1, 12), (1, 12), (-1, 16), (1, 16)] {
            let (prog, sizes) = fmm_stage_program(op, (level, boxes, first), leaf, sign);
            let what = format!("{} level {level} leaf {leaf} sign {sign}", op.name());
            for r in [
                gpu_vs_cpu::<f64>(&prog, sizes, &map, true, 1e-13, &format!("{what} f64")),
                gpu_vs_cpu::<f32>(&prog, sizes, &map, true, 1e-6, &format!("{what} f32")),
            ] {
                failures.extend(r.err());
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The FMM-FFT (one all-to-all) and six-step (three) programs of passes::fmm over `map`, both
/// precisions and signs, against the CPU executor; the failures.
fn fmm_program_cases(map: &[Arc<cuda::Device>], peer: bool) -> Vec<String> {
    use fftx::passes::fmm::{fmm_fft, fmm_fft_with, six_step, FmmParams};
    let devices: Vec<usize> = (0..map.len()).collect();
    let mut failures = Vec::new();
    // Explicit parameters: two distributed levels above the base.
    let base = map.len().trailing_zeros().max(2);
    let p = map.len().max(8);
    for sign in [-1, 1] {
        for (n, explicit) in [
            ((p * 16) << (base + 2), true),
            (3 << 14, false),
            (1 << 16, false),
        ] {
            let log = (n as f64).log2();
            let ordinals: Vec<i32> = map.iter().map(|d| d.ordinal).collect();
            for precision in [Precision::F64, Precision::F32] {
                let problem = Problem::packed(&[n as isize], Kind::Dft { sign }, precision);
                let params = FmmParams {
                    p,
                    leaf: 16,
                    terms: FmmParams::terms_for(precision),
                    base,
                };
                let fmm = if explicit {
                    fmm_fft_with(&problem, &devices, params)
                } else {
                    fmm_fft(&problem, &devices)
                };
                for (name, prog) in [("fmm-fft", fmm), ("six-step", six_step(&problem, &devices))] {
                    let what = format!("{name} {n} {precision:?} sign {sign} on {ordinals:?}");
                    let prog = match prog {
                        Ok(p) => p,
                        Err(e) => {
                            failures.push(format!("{what}: lowering: {e:?}"));
                            continue;
                        }
                    };
                    let r = if precision == Precision::F64 {
                        gpu_vs_cpu::<f64>(&prog, (2 * n, 2 * n), map, peer, 1e-14 * log, &what)
                    } else {
                        gpu_vs_cpu::<f32>(&prog, (2 * n, 2 * n), map, peer, 1e-6 * log, &what)
                    };
                    failures.extend(r.err());
                }
            }
        }
    }
    failures
}

/// passes::fmm's programs over 1, 2 and 4 partitions of the default card ([0], [0, 0],
/// [0, 0, 0, 0]): collectives as copies on one card, the FMM kernels, cuFFT.
#[test]
fn fmm_programs_on_partitions_of_one_card_match_the_cpu() {
    let _g = state();
    if !have_gpu() {
        return;
    }
    let card = cuda::default_device().unwrap();
    let mut failures = Vec::new();
    for parts in [1, 2, 4] {
        failures.extend(fmm_program_cases(
            &device_map(std::slice::from_ref(&card), parts),
            true,
        ));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The same over every visible card when there are two or more ([0, 1], ...: peer copies where
/// the cards have peer access, then staged through the host), and twice the cards.
#[test]
fn fmm_programs_over_several_cards_match_the_cpu() {
    let _g = state();
    if !have_gpu() {
        return;
    }
    let cards: Vec<Arc<cuda::Device>> =
        (0..cuda::device_count()).filter_map(cuda::device).collect();
    let n = cards.len();
    if n < 2 {
        eprintln!("one card: the partition test covers it");
        return;
    }
    let count = if n.is_power_of_two() {
        n
    } else {
        n.next_power_of_two() / 2
    };
    let mut failures = Vec::new();
    for parts in [count, 2 * count] {
        for peer in [true, false] {
            failures.extend(fmm_program_cases(&device_map(&cards, parts), peer));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// f32 data of the split-half tests.
fn random_f32(len: usize, seed: u64) -> Vec<f32> {
    narrow(&random(len, seed))
}

/// The split-half twin (`exec::cpu::split_half`) of packed interleaved transforms.
fn split_half_twin(x: &[f32], n: usize, sign: i32) -> Vec<f32> {
    use num_complex::Complex;
    let mut v: Vec<Complex<f32>> = x
        .chunks_exact(2)
        .map(|c| Complex::new(c[0], c[1]))
        .collect();
    fftx::exec::cpu::split_half::transform(&mut v, n, sign, true);
    v.iter().flat_map(|c| [c.re, c.im]).collect()
}

/// Relative L2 distance of `a` from `b`, both f32.
fn rel_f32(a: &[f32], b: &[f32]) -> f64 {
    let wide: Vec<f64> = b.iter().map(|&y| y as f64).collect();
    common::rel_l2_f32(a, &wide)
}

/// The issue's fp32 accuracy for n points, 1e-6 at 2^20 (cuFFT f32 and the standalone kernel:
/// 2e-7 - 4e-7 for 2^12 - 2^24 on an H100; no less than 3e-7 for short transforms, where the
/// tensor cores' accumulation weighs more than log2 n says).
fn split_half_tolerance(n: usize) -> f64 {
    (5e-8 * (n as f64).log2()).max(3e-7)
}

/// The batched c2c f32 problem of `howmany` transforms of n points, element stride `is` and
/// distance `idist` in complex elements (output packed unless in place).
fn c2c_f32(
    n: usize,
    howmany: usize,
    (is, idist): (usize, usize),
    sign: i32,
    in_place: bool,
) -> Problem {
    use fftx::problem::IoDim;
    let (os, odist) = if in_place { (is, idist) } else { (1, n) };
    Problem {
        kind: Kind::Dft { sign },
        dims: vec![IoDim::new(n as isize, 2 * is as isize, 2 * os as isize)],
        loops: vec![IoDim::new(
            howmany as isize,
            2 * idist as isize,
            2 * odist as isize,
        )],
        precision: Precision::F32,
        in_place,
    }
}

/// Issue 17's split-half kernel (`exec::cuda::split_half`) against its CPU twin within 1e-6
/// relative (the tensor cores' accumulation order and CUDA's `sincospif` are all that differ)
/// and against FFTW in double precision (fp32 accuracy: 5e-8 log2 N, at least 3e-7): on
/// device arrays in and out of place (16 points x 13, a batch that leaves columns of a warp
/// past the end; up to 16^6, where the twin is too slow on the CPU and FFTW alone checks), on
/// strided pageable host arrays through the staging of `GpuTransform::split_half`, and through
/// `fftwf_` plans under `FFTX_TENSOR_CORES=split` (printed as `gpu-split-half`; a length the
/// path cannot take keeps cuFFT).
#[test]
fn split_half_kernel_matches_its_twin_and_fftw() {
    use fftx::exec::cpu::layout::ArrayPtr;
    use fftx::exec::cuda::transform::GpuTransform;
    let _s = state();
    if !have_gpu() {
        return;
    }
    let g = cuda::default_device().unwrap();
    if g.capability.0 < 8 {
        eprintln!(
            "compute capability {:?}: no mma.sync.m16n8k16 on binary16",
            g.capability
        );
        return;
    }
    let at = |p: usize| ArrayPtr::Complex { re: p, im: p + 4 };
    let mut failures = Vec::new();
    // 16^K, then 16^K r (a radix-r tail after the radix-16 passes): 2^13 .. 2^26.
    for (log_n, howmany) in [
        (4usize, 13usize),
        (8, 1000),
        (12, 257),
        (16, 16),
        (20, 2),
        (24, 1),
        (13, 33),
        (17, 3),
        (19, 2),
        (21, 1),
        (22, 1),
        (23, 1),
        (25, 1),
        (26, 1),
    ] {
        let n = 1 << log_n;
        let shape = fftx::exec::cpu::split_half::Shape::of(n as u64)
            .unwrap()
            .name();
        let name = shape.as_str();
        for (sign, in_place) in [(-1, false), (1, true)] {
            let x = random_f32(2 * n * howmany, 100 + log_n as u64);
            let p = c2c_f32(n, howmany, (1, n), sign, in_place);
            let dev = cuda::default_device().expect("a GPU");
            let t = GpuTransform::<f32>::split_half(&p, &dev).expect("split-half plan");
            assert!(t
                .describe()
                .contains(&format!("split-half tensor cores, {name}")));
            let din = device_copy_of_f32(&x);
            let dout = device_copy_of_f32(&vec![0f32; x.len()]);
            let out = if in_place { din.ptr } else { dout.ptr };
            unsafe { t.execute(at(din.ptr), at(out)) }.expect("split-half execute");
            let mut got = vec![0f32; x.len()];
            unsafe {
                cudarc::driver::sys::cuMemcpyDtoH_v2(
                    got.as_mut_ptr() as *mut _,
                    out as u64,
                    x.len() * 4,
                )
            };
            let e = common::rel_l2_f32(&got, &common::fftw_c2c_f64(&x, n, howmany, sign));
            let d = (n <= 1 << 20).then(|| rel_f32(&got, &split_half_twin(&x, n, sign)));
            eprintln!("split-half {name} x {howmany} sign {sign} in_place {in_place}: vs FFTW {e:.2e}, vs twin {d:?}");
            if e > split_half_tolerance(n) || d.is_some_and(|d| d > 1e-6) {
                failures.push(format!(
                    "{name} x {howmany} sign {sign} in place {in_place}: {e:.3e} {d:?}"
                ));
            }
        }
    }
    // Strided host arrays (pageable), streamed through device buffers by the program the
    // planner lowers them to: transforms interleaved, 3 complex apart.
    let (n, howmany) = (4096usize, 3usize);
    let x = random_f32(2 * n * howmany, 7);
    let mut strided = vec![0f32; x.len()];
    for t in 0..howmany {
        for j in 0..n {
            let (a, b) = (2 * (j * howmany + t), 2 * (t * n + j));
            strided[a..a + 2].copy_from_slice(&x[b..b + 2]);
        }
    }
    let p = c2c_f32(n, howmany, (howmany, 1), -1, false);
    let budget = fftx::passes::Budget {
        device: 0,
        bytes: 1 << 30,
    };
    let lowered = fftx::passes::stream::lower(&p, budget).expect("streamed");
    let t = cuda::run::CudaRun::<f32>::new(
        &lowered.program,
        &lowered.tiles,
        fftx::program::Backend::GpuSplitHalf,
    )
    .expect("split-half program");
    assert!(
        t.kernel_lines().iter().any(|l| l.contains("split-half")),
        "{:?}",
        t.kernel_lines()
    );
    let mut got = vec![0f32; x.len()];
    unsafe {
        t.execute(
            at(strided.as_ptr() as usize),
            at(got.as_mut_ptr() as usize),
            false,
        )
    }
    .map_err(|f| f.error)
    .expect("host execute");
    let d = rel_f32(&got, &split_half_twin(&x, n, -1));
    eprintln!("split-half strided host arrays: vs twin {d:.2e}");
    if d > 1e-6 {
        failures.push(format!("strided host arrays: {d:.3e}"));
    }
    // The other groupings of the stages into passes (the default plans ran above).
    for (log_n, split, howmany) in [
        (20u32, &[2u32, 3][..], 3usize),
        (24, &[3, 3][..], 1),
        (22, &[2, 3][..], 1),
    ] {
        for (sign, in_place) in [(-1, true), (1, false)] {
            let n = 1usize << log_n;
            let x = random_f32(2 * n * howmany, 300 + log_n as u64);
            let got = split_half_passes_on_device(&x, n, howmany, split, sign, in_place);
            let e = common::rel_l2_f32(&got, &common::fftw_c2c_f64(&x, n, howmany, sign));
            let d = (n <= 1 << 20).then(|| rel_f32(&got, &split_half_twin(&x, n, sign)));
            eprintln!("split-half 2^{log_n} x {howmany} passes {split:?} sign {sign} in_place {in_place}: vs FFTW {e:.2e}, vs twin {d:?}");
            if e > split_half_tolerance(n) || d.is_some_and(|d| d > 1e-6) {
                failures.push(format!(
                    "2^{log_n} passes {split:?} sign {sign} in place {in_place}: {e:.3e} {d:?}"
                ));
            }
        }
    }
    failures.extend(split_half_plans());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `exec::cuda::split_half::SplitHalf` with its stages grouped as `split` on packed device
/// arrays holding `x` (`howmany` transforms of n points), in place or not: the output.
fn split_half_passes_on_device(
    x: &[f32],
    n: usize,
    howmany: usize,
    split: &[u32],
    sign: i32,
    in_place: bool,
) -> Vec<f32> {
    use fftx::exec::cuda::split_half::SplitHalf;
    let g = cuda::default_device().unwrap();
    let p = c2c_f32(n, howmany, (1, n), sign, in_place);
    let s = SplitHalf::with_passes(&g, &p, split).expect("split-half passes");
    let din = device_copy_of_f32(x);
    let dout = device_copy_of_f32(&vec![0f32; x.len()]);
    let work = device_copy_of_f32(&vec![0f32; s.work_bytes(howmany).max(8) / 4]);
    let out = if in_place { din.ptr } else { dout.ptr };
    let mut got = vec![0f32; x.len()];
    unsafe {
        s.run(
            din.ptr as u64,
            out as u64,
            work.ptr as u64,
            howmany,
            std::ptr::null_mut(),
        )
        .expect("split-half run");
        cudarc::driver::sys::cuCtxSynchronize();
        cudarc::driver::sys::cuMemcpyDtoH_v2(got.as_mut_ptr() as *mut _, out as u64, x.len() * 4);
    }
    got
}

/// `fftwf_` plans under `FFTX_TENSOR_CORES=split` on the GPU: the failures.
fn split_half_plans() -> Vec<String> {
    use common::{run_fftwf_many, Alloc, Many1d};
    let mut failures = Vec::new();
    force_backend(Some(BackendSetting::Gpu));
    unsafe { std::env::set_var("FFTX_TENSOR_CORES", "split") };
    let cases = [
        (4096, 64, false, Alloc::FftwMalloc, FFTW_ESTIMATE, true),
        (65536, 8, true, Alloc::Device, FFTW_ESTIMATE, true),
        (256, 4096, false, Alloc::Device, FFTW_MEASURE, false),
        (2048, 16, false, Alloc::FftwMalloc, FFTW_ESTIMATE, false),
        (1 << 21, 2, false, Alloc::Device, FFTW_ESTIMATE, true),
    ];
    for (n, howmany, in_place, alloc, flags, must_split) in cases {
        let x = random_f32(2 * n * howmany, n as u64);
        let l = Many1d::packed(n, howmany, in_place);
        let (got, text) = unsafe { run_fftwf_many(&l, &x, -1, flags, alloc) };
        let split =
            text.contains("(gpu-split-half ") && text.contains("gpu split-half tensor cores");
        let e = common::rel_l2_f32(&got, &common::fftw_c2c_f64(&x, n, howmany, -1));
        eprintln!("fftwf_ plan {n} x {howmany} {alloc:?}: split-half {split}, vs FFTW {e:.2e}");
        let eligible = fftx::exec::cpu::split_half::Shape::of(n as u64).is_ok();
        if !text.contains("(gpu") || (must_split && !split) || (!eligible && split) {
            failures.push(format!("plan {n} x {howmany}: {text}"));
        }
        if e > split_half_tolerance(n) {
            failures.push(format!("plan {n} x {howmany}: rel. L2 {e:.3e}"));
        }
    }
    unsafe { std::env::remove_var("FFTX_TENSOR_CORES") };
    force_backend(None);
    failures
}

/// Times `fftwf_` plans on device arrays (`FFTW_ESTIMATE`, the GPU imposed) with and without
/// `FFTX_TENSOR_CORES=split`, c2c f32 of N = 2^12 .. 2^26 (`SPLIT_SIZES`, log2 N), batches of
/// 2^24 elements (one transform beyond); errors against FFTW f64. Prints a markdown table, also
/// written to $OUT/split-half.md when OUT is set (`tools/device-split.sh`).
#[test]
#[ignore]
fn split_half_plan_timing() {
    let _s = state();
    if !have_gpu() {
        return;
    }
    let g = cuda::default_device().unwrap();
    let mut table = format!(
        "{} (compute {}.{})\n\n| N | batch | split-half ms | cuFFT ms | cuFFT/split-half speed | split-half err | cuFFT err | plan says |\n|---|---|---|---|---|---|---|---|\n",
        g.name, g.capability.0, g.capability.1
    );
    force_backend(Some(BackendSetting::Gpu));
    for log_n in common::env_list("SPLIT_SIZES", "12 16 20 21 22 23 24 25 26") {
        let log_n: u32 = log_n.parse().expect("SPLIT_SIZES: log2 N");
        let n = 1usize << log_n;
        let howmany = ((1usize << 24) / n).max(1);
        let x = random_f32(2 * n * howmany, log_n as u64);
        let reference = common::fftw_c2c_f64(&x, n, howmany, -1);
        let mut row = Vec::new();
        for setting in ["split", "off"] {
            unsafe { std::env::set_var("FFTX_TENSOR_CORES", setting) };
            let (ms, got, text) = time_device_plan(n, howmany, &x);
            let e = common::rel_l2_f32(&got, &reference);
            let says = if text.contains("gpu split-half") {
                "split-half"
            } else {
                "cufft"
            };
            row.push((ms, e, says));
        }
        let ((ts, es, ss), (tc, ec, _)) = (row[0], row[1]);
        let line = format!(
            "| 2^{log_n} | {howmany} | {ts:.3} | {tc:.3} | {:.2} | {es:.2e} | {ec:.2e} | {ss} |\n",
            tc / ts
        );
        eprint!("{line}");
        table += &line;
    }
    unsafe { std::env::remove_var("FFTX_TENSOR_CORES") };
    force_backend(None);
    table += &split_half_pass_timing();
    println!("{table}");
    if let Ok(out) = std::env::var("OUT") {
        let _ = std::fs::write(format!("{out}/split-half.md"), &table);
    }
}

/// The groupings of the radix-16 stages into passes (`SplitHalf::with_passes`, the first of
/// each size the default) on packed device arrays, out of place, batches of 2^24 elements (one
/// transform beyond): median ms of 20 runs (host-timed, synchronized each) and the effective
/// bandwidth (one read and one write of the batch a launch, the tail's included). A markdown
/// table.
fn split_half_pass_timing() -> String {
    use fftx::exec::cuda::split_half::SplitHalf;
    let g = cuda::default_device().unwrap();
    let mut table =
        String::from("\n| N | passes | ms | GB/s a launch | vs FFTW |\n|---|---|---|---|---|\n");
    let plans: [(u32, &[u32]); 11] = [
        (12, &[3]),
        (16, &[2, 2]),
        (20, &[3, 2]),
        (20, &[2, 3]),
        (24, &[2, 2, 2]),
        (24, &[3, 3]),
        (8, &[2]),
        (4, &[1]),
        (22, &[3, 2]),
        (22, &[2, 3]),
        (26, &[2, 2, 2]),
    ];
    for (log_n, split) in plans {
        let n = 1usize << log_n;
        let howmany = ((1usize << 24) / n).max(1);
        let x = random_f32(2 * n * howmany, 50 + log_n as u64);
        let p = c2c_f32(n, howmany, (1, n), -1, false);
        let s = SplitHalf::with_passes(&g, &p, split).expect("split-half passes");
        let launches = split.len() + (log_n % 4 != 0) as usize;
        let din = device_copy_of_f32(&x);
        let dout = device_copy_of_f32(&vec![0f32; x.len()]);
        let work = device_copy_of_f32(&vec![0f32; s.work_bytes(howmany).max(8) / 4]);
        let run = || unsafe {
            s.run(
                din.ptr as u64,
                dout.ptr as u64,
                work.ptr as u64,
                howmany,
                std::ptr::null_mut(),
            )
            .expect("split-half run");
            cudarc::driver::sys::cuCtxSynchronize();
        };
        run();
        let mut ms: Vec<f64> = (0..20)
            .map(|_| {
                let t = std::time::Instant::now();
                run();
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        ms.sort_by(f64::total_cmp);
        let m = ms[ms.len() / 2];
        let mut got = vec![0f32; x.len()];
        unsafe {
            cudarc::driver::sys::cuMemcpyDtoH_v2(
                got.as_mut_ptr() as *mut _,
                dout.ptr as u64,
                x.len() * 4,
            )
        };
        let e = common::rel_l2_f32(&got, &common::fftw_c2c_f64(&x, n, howmany, -1));
        let gbs = (x.len() * 4 * 2 * launches) as f64 / (m * 1e-3) / 1e9;
        let line = format!("| 2^{log_n} | {split:?} | {m:.3} | {gbs:.0} | {e:.2e} |\n");
        eprint!("{line}");
        table += &line;
    }
    table
}

/// An `fftwf_` plan of `howmany` x n points on device arrays holding `x`: the median ms of 20
/// executes (after one), the output, the printed plan.
fn time_device_plan(n: usize, howmany: usize, x: &[f32]) -> (f64, Vec<f32>, String) {
    let din = device_copy_of_f32(x);
    let dout = device_copy_of_f32(&vec![0f32; x.len()]);
    let nn = [n as i32];
    unsafe {
        let p = fftwf_plan_many_dft(
            1,
            nn.as_ptr(),
            howmany as i32,
            din.ptr as *mut _,
            std::ptr::null(),
            1,
            n as i32,
            dout.ptr as *mut _,
            std::ptr::null(),
            1,
            n as i32,
            FFTW_FORWARD,
            FFTW_ESTIMATE,
        );
        assert!(!p.is_null());
        fftwf_execute(p);
        let mut ms: Vec<f64> = (0..20)
            .map(|_| {
                let t = std::time::Instant::now();
                fftwf_execute(p);
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        ms.sort_by(f64::total_cmp);
        let mut got = vec![0f32; x.len()];
        cudarc::driver::sys::cuMemcpyDtoH_v2(
            got.as_mut_ptr() as *mut _,
            dout.ptr as u64,
            x.len() * 4,
        );
        let s = fftwf_sprint_plan(p);
        let text = std::ffi::CStr::from_ptr(s).to_string_lossy().into_owned();
        libc::free(s as *mut _);
        fftwf_destroy_plan(p);
        (ms[ms.len() / 2], got, text)
    }
}

/// `fftxh_` plans on device arrays run kernels built for the arrays' alignment: 4-byte aligned
/// arrays move a complex element as one 32-bit word, 2-byte aligned ones (FFTW's new-array
/// rules let a plan's arrays be) as two 16-bit halves. Both give the same bits, and the CPU
/// twin's result within the half plans' tolerance.
/// The forward `fftxh_` transform of binary16 `x` (complex, of layout `dims` and `loops`) by
/// the CPU twin on host arrays: the reference of the GPU's half-storage tests.
fn half_forward_on_the_cpu(
    x: &[u16],
    dims: Vec<fftx::problem::IoDim>,
    loops: Vec<fftx::problem::IoDim>,
) -> Vec<u16> {
    let (mut a, mut b) = (x.to_vec(), vec![0u16; x.len()]);
    force_backend(Some(BackendSetting::Cpu));
    let twin = fftx::half::HalfPlan::new(
        Kind::Dft { sign: -1 },
        dims,
        loops,
        a.as_mut_ptr() as usize,
        b.as_mut_ptr() as usize,
        FFTW_ESTIMATE,
    );
    force_backend(None);
    unsafe { twin.unwrap().execute() }.unwrap();
    b
}

#[test]
fn half_device_arrays_of_either_alignment() {
    use fftx::half::{f16_from_f32, f32_from_f16, HalfPlan};
    use fftx::problem::IoDim;
    let _s = state();
    if !have_gpu() {
        return;
    }
    let mut r = rand::rngs::SmallRng::seed_from_u64(29);
    // One pass kernel; gather, cuFFT f32 and scatter (17 has no pass kernel); one pass kernel
    // a pencil in dynamic shared memory (two items a thread in its radix-16 stages); digit
    // passes.
    for (n, howmany, way) in [
        (256usize, 48usize, "1 pass kernel"),
        (51, 20, "gather kernel"),
        (3 << 13, 3, "1 pass kernel"),
        (
            3 << 14,
            2,
            "pass kernels (shared-memory Stockham in f32) over the digits",
        ),
    ] {
        let scalars = 2 * n * howmany;
        let x: Vec<u16> = (0..scalars)
            .map(|_| f16_from_f32(r.gen_range(-1.0f32..1.0)))
            .collect();
        let dims = vec![IoDim::new(n as isize, 2, 2)];
        let loops = vec![IoDim::new(howmany as isize, 2 * n as isize, 2 * n as isize)];
        let mut outputs = Vec::new();
        // The arrays at 0 or 1 binary16 scalars past a device allocation's start.
        for shift in [0usize, 1] {
            let mut host = vec![0u16; scalars + 1];
            host[shift..shift + scalars].copy_from_slice(&x);
            let bytes = |v: &[u16]| unsafe {
                std::slice::from_raw_parts(v.as_ptr() as *const u8, v.len() * 2).to_vec()
            };
            let din = cuda::Mirror::new(&bytes(&host), cuda::Memory::Device).unwrap();
            let dout = cuda::Mirror::new(&vec![0u8; host.len() * 2], cuda::Memory::Device).unwrap();
            let (ip, op) = (din.ptr as usize + 2 * shift, dout.ptr as usize + 2 * shift);
            let kind = Kind::Dft { sign: -1 };
            let plan =
                HalfPlan::new(kind, dims.clone(), loops.clone(), ip, op, FFTW_ESTIMATE).unwrap();
            let text = plan.describe();
            assert!(text.contains("\n  gpu ") && text.contains(way), "{text}");
            unsafe { plan.execute() }.unwrap();
            let mut got = vec![0u16; host.len()];
            unsafe {
                cudarc::driver::sys::cuMemcpyDtoH_v2(
                    got.as_mut_ptr() as *mut _,
                    dout.ptr as u64,
                    got.len() * 2,
                )
            };
            outputs.push(got[shift..shift + scalars].to_vec());
        }
        assert!(
            outputs[0] == outputs[1],
            "n = {n}: the word and 16-bit kernels differ"
        );
        let b = half_forward_on_the_cpu(&x, dims, loops);
        let wide = |v: &[u16]| {
            v.iter()
                .map(|&h| f32_from_f16(h) as f64)
                .collect::<Vec<_>>()
        };
        let err = rel_l2(&wide(&outputs[0]), &wide(&b));
        assert!(
            err <= 1e-3 * (n as f64).log2(),
            "n = {n}: {err:e} from the CPU twin"
        );
    }
}

/// The tensor-core kernel (`exec::cuda::tensor_half`) of `fftxh_` plans on device arrays
/// against its CPU twin (`exec::cpu::tensor_half::transform`, the same binary16 roundings):
/// within 1e-4 relative L2 (a wrong index or twiddle gives O(1), the roundings alone 4e-4
/// against the exact DFT); every length it takes, both signs, 7 x 13 transforms (the last
/// block's group partial), the outer loop's distance past the inner loop's span, in and out of
/// place. Arrays not 16-byte aligned (2 or 4 bytes past) take the pass kernel: within issue
/// 17's bound of the twin.
#[test]
fn half_tensor_core_kernel_matches_its_twin() {
    use fftx::exec::cpu::tensor_half::transform;
    use fftx::half::{f16_from_f32, f32_from_f16, HalfPlan};
    use fftx::problem::IoDim;
    use num_complex::Complex;
    let _s = state();
    if !have_gpu() {
        return;
    }
    let mut r = rand::rngs::SmallRng::seed_from_u64(1717);
    let wide = |v: &[u16]| {
        v.iter()
            .map(|&h| f32_from_f16(h) as f64)
            .collect::<Vec<_>>()
    };
    for &rr in fftx::exec::cuda::tensor_half::ENABLED {
        let n = 256 * rr;
        let (inner, outer) = (13usize, 7usize);
        let odist = 2 * n * inner + 8;
        let scalars = odist * outer;
        let dims = vec![IoDim::new(n as isize, 2, 2)];
        let loops = vec![
            IoDim::new(outer as isize, odist as isize, odist as isize),
            IoDim::new(inner as isize, 2 * n as isize, 2 * n as isize),
        ];
        for (sign, in_place, shift) in [
            (-1, false, 0usize),
            (1, true, 0),
            (-1, false, 1),
            (1, true, 2),
        ] {
            let x: Vec<u16> = (0..scalars)
                .map(|_| f16_from_f32(r.gen_range(-1.0f32..1.0)))
                .collect();
            let bytes = |v: &[u16]| unsafe {
                std::slice::from_raw_parts(v.as_ptr() as *const u8, v.len() * 2).to_vec()
            };
            let mut host = vec![0u16; scalars + 2];
            host[shift..shift + scalars].copy_from_slice(&x);
            let din = cuda::Mirror::new(&bytes(&host), cuda::Memory::Device).unwrap();
            let dout = cuda::Mirror::new(&vec![0u8; host.len() * 2], cuda::Memory::Device).unwrap();
            let ip = din.ptr as usize + 2 * shift;
            let (op, out) = if in_place {
                (ip, &din)
            } else {
                (dout.ptr as usize + 2 * shift, &dout)
            };
            let plan = HalfPlan::new(
                Kind::Dft { sign },
                dims.clone(),
                loops.clone(),
                ip,
                op,
                FFTW_ESTIMATE,
            )
            .unwrap();
            let text = plan.describe();
            assert!(text.contains("tensor-core kernel"), "{text}");
            unsafe { plan.execute() }.unwrap();
            let mut got = vec![0u16; host.len()];
            unsafe {
                cudarc::driver::sys::cuMemcpyDtoH_v2(
                    got.as_mut_ptr() as *mut _,
                    out.ptr as u64,
                    got.len() * 2,
                )
            };
            let got = &got[shift..shift + scalars];
            // The twin, transform by transform; the gaps between the outer loop's blocks stay.
            let mut want = x.clone();
            for o in 0..outer {
                for i in 0..inner {
                    let base = o * odist + 2 * n * i;
                    let v: Vec<Complex<f32>> = (0..n)
                        .map(|k| {
                            Complex::new(
                                f32_from_f16(x[base + 2 * k]),
                                f32_from_f16(x[base + 2 * k + 1]),
                            )
                        })
                        .collect();
                    for (k, y) in transform(&v, sign).iter().enumerate() {
                        want[base + 2 * k] = f16_from_f32(y.re);
                        want[base + 2 * k + 1] = f16_from_f32(y.im);
                    }
                }
            }
            if !in_place {
                for o in 0..outer {
                    want[o * odist + 2 * n * inner..(o + 1) * odist].fill(0);
                }
            }
            let err = rel_l2(&wide(got), &wide(&want));
            eprintln!("tensor-core half n {n} sign {sign} in_place {in_place} shift {shift}: {err:.2e} from the twin");
            let bound = if shift == 0 {
                1e-4
            } else {
                1e-3 * (n as f64).log2()
            };
            assert!(
                err <= bound,
                "n {n} sign {sign} in place {in_place} shift {shift}: {err:e} from the twin"
            );
        }
    }
}

/// `fftxh_` executes on device arrays are queued on CUDA's legacy default stream, as cuFFT's
/// calls: a forward and a backward execute queued one after the other without a wait, then a
/// copy, give n times the input. On managed arrays an execute is complete when it returns: the
/// host reads the output at once (2^20 elements: the kernel outlasts the host's reads).
#[test]
fn half_device_executes_queue_in_order_and_managed_ones_complete() {
    use cudarc::driver::sys as cu;
    use fftx::half::{f16_from_f32, f32_from_f16, HalfPlan};
    use fftx::problem::IoDim;
    let _s = state();
    if !have_gpu() {
        return;
    }
    let (n, howmany) = (4096usize, 256usize);
    let scalars = 2 * n * howmany;
    let mut r = rand::rngs::SmallRng::seed_from_u64(31);
    let x: Vec<u16> = (0..scalars)
        .map(|_| f16_from_f32(r.gen_range(-1.0f32..1.0)))
        .collect();
    let wide = |v: &[u16]| {
        v.iter()
            .map(|&h| f32_from_f16(h) as f64)
            .collect::<Vec<_>>()
    };
    let dims = vec![IoDim::new(n as isize, 2, 2)];
    let loops = vec![IoDim::new(howmany as isize, 2 * n as isize, 2 * n as isize)];
    let plan = |sign: i32, i: usize, o: usize| {
        HalfPlan::new(
            Kind::Dft { sign },
            dims.clone(),
            loops.clone(),
            i,
            o,
            FFTW_ESTIMATE,
        )
        .unwrap()
    };
    let bound = 1e-3 * (n as f64).log2();
    let bytes = unsafe { std::slice::from_raw_parts(x.as_ptr() as *const u8, scalars * 2) };

    // Device arrays: x -> y forward, y -> z backward, queued back to back.
    let d: Vec<_> = (0..3)
        .map(|k| {
            let init = if k == 0 {
                bytes.to_vec()
            } else {
                vec![0u8; scalars * 2]
            };
            cuda::Mirror::new(&init, cuda::Memory::Device).unwrap()
        })
        .collect();
    let (forward, backward) = (plan(-1, d[0].ptr, d[1].ptr), plan(1, d[1].ptr, d[2].ptr));
    unsafe {
        forward.execute().unwrap();
        backward.execute().unwrap();
    }
    let mut z = vec![0u16; scalars];
    assert_eq!(
        unsafe { cu::cuMemcpyDtoH_v2(z.as_mut_ptr() as *mut _, d[2].ptr as u64, scalars * 2) },
        cu::CUresult::CUDA_SUCCESS
    );
    let nx: Vec<f64> = wide(&x).iter().map(|v| v * n as f64).collect();
    let err = rel_l2(&wide(&z), &nx);
    assert!(
        err <= 2.0 * bound,
        "forward then backward: {err:e} from n x"
    );

    let b = half_forward_on_the_cpu(&x, dims.clone(), loops.clone());

    // Managed arrays, read by the host as soon as the execute returns.
    let g = cuda::default_device().unwrap();
    g.bind().unwrap();
    let mut m = [0u64; 2];
    for p in &mut m {
        let rc = unsafe { cu::cuMemAllocManaged(p, scalars * 2, 1) };
        assert_eq!(rc, cu::CUresult::CUDA_SUCCESS);
    }
    let (mi, mo) = (m[0] as *mut u16, m[1] as *mut u16);
    unsafe {
        std::ptr::copy_nonoverlapping(x.as_ptr(), mi, scalars);
        std::ptr::write_bytes(mo, 0, scalars);
    }
    let managed = plan(-1, m[0] as usize, m[1] as usize);
    assert!(
        managed.describe().contains("\n  gpu "),
        "{}",
        managed.describe()
    );
    for round in 0..3 {
        unsafe { std::ptr::write_bytes(mo, 0, scalars) };
        unsafe { managed.execute() }.unwrap();
        let got = unsafe { std::slice::from_raw_parts(mo, scalars) };
        let err = rel_l2(&wide(got), &wide(&b));
        assert!(
            err <= bound,
            "managed arrays, round {round}: {err:e} from the CPU twin"
        );
    }
    drop(managed);
    for p in m {
        unsafe { cu::cuMemFree_v2(p) };
    }
}
