//! Our CUDA kernels (`kernels/*.cu`): compiled at run time by NVRTC for the device's
//! architecture (no nvcc at build time), each module once per process, and launched with a
//! grid-stride layout. Every kernel has a Rust twin in `exec::twins` that tests compare it with.

use super::{check, gpu, GpuError, GpuResult};
use cudarc::driver::sys as cu;
use once_cell::sync::Lazy;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::ffi::{c_void, CString};

/// The kernel sources.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// r2r pre/post-processing around a c2c FFT (twins: `twins::r2r_pre`, `twins::r2r_post`).
    R2r,
    /// Strided copies between any layout and a packed one (twin: `twins::strided_copy`).
    Layout,
}

impl Source {
    fn text(self) -> &'static str {
        match self {
            Source::R2r => include_str!("../../../kernels/r2r.cu"),
            Source::Layout => include_str!("../../../kernels/layout.cu"),
        }
    }
}

/// Loaded modules and their functions, as addresses (valid for the process's life: modules
/// are never unloaded while the primary context lives).
static MODULES: Lazy<Mutex<HashMap<Source, Result<usize, String>>>> = Lazy::new(Default::default);
static FUNCTIONS: Lazy<Mutex<HashMap<(Source, String), usize>>> = Lazy::new(Default::default);

fn module(src: Source) -> GpuResult<cu::CUmodule> {
    let mut m = MODULES.lock();
    let entry = m.entry(src).or_insert_with(|| compile(src).map(|m| m as usize).map_err(|e| e.0));
    entry.clone().map(|a| a as cu::CUmodule).map_err(GpuError)
}

fn compile(src: Source) -> GpuResult<cu::CUmodule> {
    let g = gpu().ok_or_else(|| GpuError("no GPU".into()))?;
    g.bind()?;
    // SAFETY: a presence check only tries to dlopen the library.
    if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        return Err(GpuError("no NVRTC library (libnvrtc.so): our kernels cannot be compiled".into()));
    }
    let arch: &'static str = Box::leak(format!("compute_{}{}", g.capability.0, g.capability.1).into_boxed_str());
    let opts = cudarc::nvrtc::CompileOptions { arch: Some(arch), ..Default::default() };
    let t = std::time::Instant::now();
    let ptx = std::panic::catch_unwind(|| cudarc::nvrtc::compile_ptx_with_opts(src.text(), opts))
        .map_err(|_| GpuError("NVRTC failed to load".into()))?
        .map_err(|e| GpuError(format!("NVRTC: {e:?}")))?;
    let text = CString::new(ptx.to_src()).map_err(|e| GpuError(e.to_string()))?;
    let mut module = std::ptr::null_mut();
    // SAFETY: a NUL-terminated PTX image.
    check(unsafe { cu::cuModuleLoadData(&mut module, text.as_ptr() as *const c_void) }, "cuModuleLoadData")?;
    crate::log_info!("gpu: compiled kernels {src:?} for {arch} in {:.0} ms", t.elapsed().as_secs_f64() * 1e3);
    Ok(module)
}

/// A kernel of a source, loaded on first use.
pub fn function(src: Source, name: &str) -> GpuResult<cu::CUfunction> {
    if let Some(&f) = FUNCTIONS.lock().get(&(src, name.to_string())) {
        return Ok(f as cu::CUfunction);
    }
    let m = module(src)?;
    let c = CString::new(name).map_err(|e| GpuError(e.to_string()))?;
    let mut f = std::ptr::null_mut();
    // SAFETY: a loaded module and a NUL-terminated name.
    check(unsafe { cu::cuModuleGetFunction(&mut f, m, c.as_ptr()) }, "cuModuleGetFunction")?;
    FUNCTIONS.lock().insert((src, name.to_string()), f as usize);
    Ok(f)
}

/// Launches a grid-stride kernel over `total` work items on `stream`.
///
/// # Safety
/// `params` must point at values of the kernel's parameter types, in order.
pub unsafe fn launch(f: cu::CUfunction, total: u64, stream: cu::CUstream, params: &mut [*mut c_void]) -> GpuResult<()> {
    let g = gpu().ok_or_else(|| GpuError("no GPU".into()))?;
    let block = 256u32;
    let max_grid = (g.multiprocessors.max(1) as u64) * 16;
    let grid = total.div_ceil(block as u64).clamp(1, max_grid) as u32;
    check(
        cu::cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, stream, params.as_mut_ptr(), std::ptr::null_mut()),
        "cuLaunchKernel",
    )
}

/// How many modules are loaded (for the resource counts).
pub fn loaded_modules() -> usize {
    MODULES.lock().values().filter(|m| m.is_ok()).count()
}
