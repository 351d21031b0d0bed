//! A plan the cost model keeps on the CPU never starts CUDA (opening the GPU costs 200-300 ms
//! on a machine that has one): planning small problems under every rigor, executing them on
//! their own and on new arrays, leaves the GPU unopened. Its own process, so that no other test
//! opens the GPU first.

use fftx::*;

#[test]
fn small_cpu_plans_never_open_the_gpu() {
    assert!(
        !fftx::exec::cuda::gpu_opened(),
        "nothing has opened the GPU yet"
    );
    let n = 256;
    let mut a = vec![[1.0f64, 0.5]; n];
    let mut b = vec![[0.0f64; 2]; n];
    let mut r = vec![0.25f64; 2 * (n / 2 + 1)];
    unsafe {
        for flags in [FFTW_ESTIMATE, FFTW_MEASURE, FFTW_PATIENT] {
            let p = fftw_plan_dft_1d(
                n as i32,
                a.as_mut_ptr(),
                b.as_mut_ptr(),
                FFTW_FORWARD,
                flags,
            );
            assert!(!p.is_null());
            fftw_execute(p);
            let (mut c, mut d) = (a.clone(), b.clone());
            fftw_execute_dft(p, c.as_mut_ptr(), d.as_mut_ptr());
            fftw_destroy_plan(p);
            let q = fftw_plan_dft_r2c_2d(8, 30, r.as_mut_ptr(), r.as_mut_ptr() as *mut _, flags);
            fftw_destroy_plan(q);
        }
    }
    assert!(
        !fftx::exec::cuda::gpu_opened(),
        "a small CPU plan opened the GPU"
    );
}
