//! Issue 17's split-half path through `fftwf_` plans, without a GPU: `FFTX_TENSOR_CORES=split-twin`
//! runs the kernel's CPU twin (`exec::cpu::split_half`) in eligible plans, so the planner's
//! wiring, the printed plan and the results are tested in CI against the system FFTW in double
//! precision (relative L2 error within 5e-8 log2 N: fp32 accuracy; the binary16 products alone
//! would give 2e-4 - 5e-4). Sizes, kinds and precisions the path cannot take run the ordinary
//! way; `split` without a GPU leaves plans on the CPU. The device kernel itself is compared
//! with the twin in tests/gpu.rs (`split_half_kernel_matches_its_twin_and_fftw`).

mod common;

use common::{fftw_c2c_f64, rel_l2_f32, run_fftwf_many, Alloc, Many1d};
use rand::{Rng, SeedableRng};
use std::sync::Mutex;

/// The tests set `FFTX_TENSOR_CORES` for the whole process: one at a time.
static ENV: Mutex<()> = Mutex::new(());

fn with_tensor_cores<R>(value: &str, f: impl FnOnce() -> R) -> R {
    let _g = ENV.lock().unwrap_or_else(|e| e.into_inner());
    std::env::set_var("FFTX_TENSOR_CORES", value);
    let r = f();
    std::env::remove_var("FFTX_TENSOR_CORES");
    r
}

fn random(len: usize, seed: u64) -> Vec<f32> {
    let mut r = rand::rngs::SmallRng::seed_from_u64(seed);
    (0..len).map(|_| r.gen_range(-1.0f32..1.0)).collect()
}

/// fp32 accuracy for n points.
fn tolerance(n: usize) -> f64 {
    5e-8 * (n as f64).log2()
}

/// Plans and runs the layout under `flags`, checks the printout names the twin, and the
/// result against FFTW f64.
fn twin_case(l: Many1d, sign: i32, flags: u32, seed: u64) {
    let x = random(2 * l.n * l.howmany, seed);
    let (got, text) = unsafe { run_fftwf_many(&l, &x, sign, flags, Alloc::Vec) };
    assert!(
        text.contains("(cpu-split-half ") && text.contains("cpu twin of the split-half"),
        "{l:?}: {text}"
    );
    let shape = fftx::exec::cpu::split_half::Shape::of(l.n as u64)
        .unwrap()
        .name();
    assert!(text.contains(&shape), "{text}");
    let e = rel_l2_f32(&got, &fftw_c2c_f64(&x, l.n, l.howmany, sign));
    eprintln!("{l:?} sign {sign}: rel. L2 {e:.2e}");
    assert!(e <= tolerance(l.n), "{l:?} sign {sign}: {e:.3e}");
}

#[test]
fn fftwf_plans_run_the_twin_under_split_twin() {
    with_tensor_cores("split-twin", || {
        let (est, meas) = (fftx::FFTW_ESTIMATE, fftx::FFTW_MEASURE);
        for (k, howmany) in [(1usize, 13usize), (2, 9), (3, 4), (4, 2), (5, 1)] {
            let n = 1 << (4 * k);
            twin_case(Many1d::packed(n, howmany, false), -1, est, k as u64);
            twin_case(Many1d::packed(n, howmany, true), 1, est, 10 + k as u64);
        }
        // 16^K r: the radix-r tail after the radix-16 stages.
        for (n, howmany) in [(1usize << 13, 3usize), (1 << 14, 1), (1 << 15, 1)] {
            twin_case(Many1d::packed(n, howmany, false), -1, est, n as u64);
            twin_case(Many1d::packed(n, howmany, true), 1, est, 1 + n as u64);
        }
        // Strided: interleaved transforms in, padded rows out; under MEASURE too.
        let n = 4096;
        let l = Many1d {
            n,
            howmany: 3,
            is: 3,
            idist: 1,
            os: 1,
            odist: n + 5,
            in_place: false,
        };
        twin_case(l, -1, est, 21);
        twin_case(Many1d::packed(256, 6, false), -1, meas, 22);
    });
}

/// What the path cannot take (other lengths, r2c, double precision, 2-D) runs as before,
/// correct; so does an unknown setting.
#[test]
fn what_the_split_half_path_cannot_take_runs_the_ordinary_way() {
    with_tensor_cores("split-twin", || unsafe {
        for n in [1024usize, 2048, 48, 8] {
            let x = random(2 * n * 3, n as u64);
            let l = Many1d::packed(n, 3, false);
            let (got, text) = run_fftwf_many(&l, &x, -1, fftx::FFTW_ESTIMATE, Alloc::Vec);
            assert!(!text.contains("split-half"), "n={n}: {text}");
            let e = rel_l2_f32(&got, &fftw_c2c_f64(&x, n, 3, -1));
            assert!(e <= 2e-6 * (n as f64).log2(), "n={n}: {e:.3e}");
        }
        // A 2-D f32 plan and an f64 plan of 16^K points.
        let (n0, n1) = (16i32, 16i32);
        let mut a = vec![fftx::fftwf_complex::default(); 256];
        let mut b = a.clone();
        let p = fftx::fftwf_plan_dft_2d(
            n0,
            n1,
            a.as_mut_ptr(),
            b.as_mut_ptr(),
            -1,
            fftx::FFTW_ESTIMATE,
        );
        assert!(!sprint_f32(p).contains("split-half"));
        fftx::fftwf_destroy_plan(p);
        let mut c = vec![fftx::fftw_complex::default(); 256];
        let mut d = c.clone();
        let q =
            fftx::fftw_plan_dft_1d(256, c.as_mut_ptr(), d.as_mut_ptr(), -1, fftx::FFTW_ESTIMATE);
        let s = fftx::fftw_sprint_plan(q);
        let text = std::ffi::CStr::from_ptr(s).to_string_lossy().into_owned();
        libc::free(s as *mut _);
        assert!(!text.contains("split-half"), "{text}");
        fftx::fftw_destroy_plan(q);
    });
    with_tensor_cores("tensor", || {
        let x = random(2 * 256, 3);
        let (_, text) =
            unsafe { run_fftwf_many(&Many1d::packed(256, 1, false), &x, -1, 0, Alloc::Vec) };
        assert!(!text.contains("split-half"), "{text}");
    });
}

/// `split` acts on plans the planner puts on a GPU: without one, plans stay on the CPU.
#[test]
fn split_without_a_gpu_keeps_cpu_plans() {
    if fftx::exec::cuda::default_device().is_some() {
        eprintln!("a GPU is present: tests/gpu.rs covers `split` there");
        return;
    }
    with_tensor_cores("split", || {
        let n = 4096;
        let x = random(2 * n * 2, 8);
        let l = Many1d::packed(n, 2, false);
        let (got, text) = unsafe { run_fftwf_many(&l, &x, -1, fftx::FFTW_ESTIMATE, Alloc::Vec) };
        assert!(
            text.contains("(cpu ") && !text.contains("split-half"),
            "{text}"
        );
        assert!(rel_l2_f32(&got, &fftw_c2c_f64(&x, n, 2, -1)) <= 2e-6 * 12.0);
    });
}

unsafe fn sprint_f32(p: fftx::fftwf_plan) -> String {
    let s = fftx::fftwf_sprint_plan(p);
    let t = std::ffi::CStr::from_ptr(s).to_string_lossy().into_owned();
    libc::free(s as *mut _);
    t
}
