//! Our CUDA kernels (`kernels/*.cu`): compiled at run time by NVRTC for the device's
//! architecture (no nvcc at build time), each module once per device, and launched with a
//! grid-stride layout. Every kernel has a Rust twin in `exec::twins` that tests compare it with.

use super::{check, opened, Device, Error, ErrorKind, Result};
use cudarc::driver::sys as cu;
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

/// What one device has compiled: loaded modules and their functions, as addresses (valid while
/// the device's primary context lives: modules are never unloaded but by `fftx_shutdown`), and
/// the generated sources. A module belongs to a context, so every device has its own.
#[derive(Default)]
pub struct Cache {
    modules: Mutex<HashMap<Source, Result<usize>>>,
    functions: Mutex<HashMap<(Source, String), usize>>,
    generated: Mutex<GeneratedCache>,
}

fn module(g: &Device, src: Source) -> Result<cu::CUmodule> {
    let mut m = g.kernels.modules.lock();
    let entry = m
        .entry(src)
        .or_insert_with(|| compile(g, src).map(|m| m as usize));
    entry.clone().map(|a| a as cu::CUmodule)
}

fn compile(g: &Device, src: Source) -> Result<cu::CUmodule> {
    g.bind()?;
    // SAFETY: a presence check only tries to dlopen the library.
    if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        return Err(Error::unsupported(
            "no NVRTC library (libnvrtc.so): our kernels cannot be compiled",
        ));
    }
    let arch: &'static str =
        Box::leak(format!("compute_{}{}", g.capability.0, g.capability.1).into_boxed_str());
    let opts = cudarc::nvrtc::CompileOptions {
        arch: Some(arch),
        ..Default::default()
    };
    let t = std::time::Instant::now();
    let ptx = std::panic::catch_unwind(|| cudarc::nvrtc::compile_ptx_with_opts(src.text(), opts))
        .map_err(|_| Error::unsupported("NVRTC failed to load"))?
        .map_err(|e| Error::cuda(format!("NVRTC: {e:?}")))?;
    let text =
        CString::new(ptx.to_src()).map_err(|e| Error::new(ErrorKind::Internal, e.to_string()))?;
    let mut module = std::ptr::null_mut();
    // SAFETY: a NUL-terminated PTX image.
    check(
        unsafe { cu::cuModuleLoadData(&mut module, text.as_ptr() as *const c_void) },
        "cuModuleLoadData",
    )?;
    crate::log::log_info!(
        "gpu: compiled kernels {src:?} for {arch} in {:.0} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    Ok(module)
}

/// A kernel of a source on device `g`, loaded on first use.
pub fn function(g: &Device, src: Source, name: &str) -> Result<cu::CUfunction> {
    if let Some(&f) = g.kernels.functions.lock().get(&(src, name.to_string())) {
        return Ok(f as cu::CUfunction);
    }
    let m = module(g, src)?;
    let c = CString::new(name).map_err(|e| Error::new(ErrorKind::Internal, e.to_string()))?;
    let mut f = std::ptr::null_mut();
    // SAFETY: a loaded module and a NUL-terminated name.
    check(
        unsafe { cu::cuModuleGetFunction(&mut f, m, c.as_ptr()) },
        "cuModuleGetFunction",
    )?;
    g.kernels
        .functions
        .lock()
        .insert((src, name.to_string()), f as usize);
    Ok(f)
}

/// Launches a grid-stride kernel over `total` work items on `stream` (of device `g`).
///
/// # Safety
/// `params` must point at values of the kernel's parameter types, in order.
pub unsafe fn launch(
    g: &Device,
    f: cu::CUfunction,
    total: u64,
    stream: cu::CUstream,
    params: &mut [*mut c_void],
) -> Result<()> {
    super::fault::at_launch()?;
    let block = 256u32;
    let max_grid = (g.multiprocessors.max(1) as u64) * 16;
    let grid = total.div_ceil(block as u64).clamp(1, max_grid) as u32;
    check(
        cu::cuLaunchKernel(
            f,
            grid,
            1,
            1,
            block,
            1,
            1,
            0,
            stream,
            params.as_mut_ptr(),
            std::ptr::null_mut(),
        ),
        "cuLaunchKernel",
    )
}

/// How many modules are loaded, over every device (for the resource counts).
pub fn loaded_modules() -> usize {
    opened()
        .iter()
        .map(|g| {
            g.kernels
                .modules
                .lock()
                .values()
                .filter(|m| m.is_ok())
                .count()
        })
        .sum()
}

/// Generated sources (FFTX pencil passes and elementwise nodes), compiled once per device and
/// source text: loaded modules (PTX) and LTO-IR images (cuFFT callbacks), by (source text,
/// LTO-IR or not).
type GeneratedCache = HashMap<(String, bool), Result<Generated>>;

#[derive(Clone)]
pub enum Generated {
    /// A loaded module (address of its CUmodule).
    Module(usize),
    /// LTO-IR for cuFFT's JIT callbacks.
    Lto(std::sync::Arc<Vec<u8>>),
}

/// Compiles generated CUDA source with NVRTC for device `g`: to PTX and a module loaded there,
/// or (`lto`) to LTO-IR. Cached per device by source; an error is cached too (it would fail
/// the same way again).
pub fn compile_generated(g: &Device, source: &str, lto: bool) -> Result<Generated> {
    let key = (source.to_string(), lto);
    if let Some(r) = g.kernels.generated.lock().get(&key) {
        return r.clone();
    }
    let r = nvrtc(g, source, lto);
    g.kernels.generated.lock().insert(key, r.clone());
    r
}

fn nvrtc(g: &Device, source: &str, lto: bool) -> Result<Generated> {
    use cudarc::nvrtc::sys as nv;
    g.bind()?;
    // SAFETY: a presence check only tries to dlopen the library.
    if !unsafe { nv::is_culib_present() } {
        return Err(Error::unsupported("no NVRTC library (libnvrtc.so)"));
    }
    let t = std::time::Instant::now();
    let src = CString::new(source).map_err(|e| Error::new(ErrorKind::Internal, e.to_string()))?;
    let name = CString::new("fftx_generated.cu").unwrap();
    let arch = CString::new(format!(
        "--gpu-architecture=compute_{}{}",
        g.capability.0, g.capability.1
    ))
    .unwrap();
    let mut opts: Vec<CString> = vec![arch, CString::new("--std=c++17").unwrap()];
    if lto {
        opts.push(CString::new("-dlto").unwrap());
        opts.push(CString::new("--relocatable-device-code=true").unwrap());
    }
    let opt_ptrs: Vec<*const std::os::raw::c_char> = opts.iter().map(|o| o.as_ptr()).collect();
    let ok = |r: nv::nvrtcResult, what: &str| {
        if r == nv::nvrtcResult::NVRTC_SUCCESS {
            Ok(())
        } else {
            Err(Error::cuda(format!("{what}: {r:?}")))
        }
    };
    // SAFETY: NVRTC calls on a program made here and destroyed before returning; buffers sized
    // by the matching *Size calls.
    unsafe {
        let mut prog = std::ptr::null_mut();
        ok(
            nv::nvrtcCreateProgram(
                &mut prog,
                src.as_ptr(),
                name.as_ptr(),
                0,
                std::ptr::null(),
                std::ptr::null(),
            ),
            "nvrtcCreateProgram",
        )?;
        let result = (|| {
            let r = nv::nvrtcCompileProgram(prog, opt_ptrs.len() as i32, opt_ptrs.as_ptr());
            if r != nv::nvrtcResult::NVRTC_SUCCESS {
                let mut n = 0usize;
                nv::nvrtcGetProgramLogSize(prog, &mut n);
                let mut log = vec![0u8; n.max(1)];
                nv::nvrtcGetProgramLog(prog, log.as_mut_ptr() as *mut _);
                return Err(Error::cuda(format!(
                    "NVRTC: {r:?}: {}",
                    String::from_utf8_lossy(&log).trim_end_matches('\0')
                )));
            }
            if lto {
                let mut n = 0usize;
                ok(nv::nvrtcGetLTOIRSize(prog, &mut n), "nvrtcGetLTOIRSize")?;
                let mut ir = vec![0u8; n];
                ok(
                    nv::nvrtcGetLTOIR(prog, ir.as_mut_ptr() as *mut _),
                    "nvrtcGetLTOIR",
                )?;
                Ok(Generated::Lto(std::sync::Arc::new(ir)))
            } else {
                let mut n = 0usize;
                ok(nv::nvrtcGetPTXSize(prog, &mut n), "nvrtcGetPTXSize")?;
                let mut ptx = vec![0u8; n];
                ok(
                    nv::nvrtcGetPTX(prog, ptx.as_mut_ptr() as *mut _),
                    "nvrtcGetPTX",
                )?;
                let mut module = std::ptr::null_mut();
                check(
                    cu::cuModuleLoadData(&mut module, ptx.as_ptr() as *const c_void),
                    "cuModuleLoadData",
                )?;
                Ok(Generated::Module(module as usize))
            }
        })();
        nv::nvrtcDestroyProgram(&mut prog);
        crate::log::log_info!(
            "gpu: compiled generated source ({} bytes) to {} in {:.0} ms",
            source.len(),
            if lto { "LTO-IR" } else { "PTX" },
            t.elapsed().as_secs_f64() * 1e3
        );
        result
    }
}

/// A kernel of a generated module.
pub fn generated_function(module: usize, name: &str) -> Result<cu::CUfunction> {
    let c = CString::new(name).map_err(|e| Error::new(ErrorKind::Internal, e.to_string()))?;
    let mut f = std::ptr::null_mut();
    // SAFETY: a loaded module and a NUL-terminated name.
    check(
        unsafe { cu::cuModuleGetFunction(&mut f, module as cu::CUmodule, c.as_ptr()) },
        "cuModuleGetFunction",
    )?;
    Ok(f)
}

/// Unloads the generated modules and drops the LTO-IR images on every device
/// (`fftx_shutdown`): plans made before must not run after it.
pub fn forget_generated() {
    for g in opened() {
        let mut m = g.kernels.generated.lock();
        if !g.is_lost() && g.bind().is_ok() {
            for r in m.values() {
                if let Ok(Generated::Module(h)) = r {
                    // SAFETY: loaded by `nvrtc`, unloaded once (the cache is cleared below).
                    unsafe { cu::cuModuleUnload(*h as cu::CUmodule) };
                }
            }
        }
        m.clear();
    }
}

/// How many generated sources are compiled, over every device (for the resource counts).
pub fn generated_count() -> usize {
    opened()
        .iter()
        .map(|g| {
            g.kernels
                .generated
                .lock()
                .values()
                .filter(|r| r.is_ok())
                .count()
        })
        .sum()
}

/// Launches a generated pass kernel (`cudagen::fused_pass`) on `grid` blocks of `block`
/// threads with `shared` bytes of dynamic shared memory (`cudagen::fused_shared_bytes`): its
/// parameters are the number of transforms and the device table of array addresses it reads
/// them from.
///
/// # Safety
/// As [`launch`]; `table` holds the addresses the kernel was generated for.
pub unsafe fn launch_pass(
    f: cu::CUfunction,
    (grid, block, shared): (u32, u32, u32),
    stream: cu::CUstream,
    mut batch: u64,
    mut table: u64,
) -> Result<()> {
    launch_grid_shared(
        f,
        grid,
        block,
        shared,
        stream,
        &mut [
            &mut batch as *mut u64 as *mut c_void,
            &mut table as *mut u64 as *mut c_void,
        ],
    )
}

/// Launches `f` on `grid` blocks of `block` threads on `stream`.
///
/// # Safety
/// As [`launch`].
pub unsafe fn launch_grid(
    f: cu::CUfunction,
    grid: u32,
    block: u32,
    stream: cu::CUstream,
    params: &mut [*mut c_void],
) -> Result<()> {
    launch_grid_shared(f, grid, block, 0, stream, params)
}

/// Lets the kernel `f` take `bytes` of dynamic shared memory a block (over the static 48 KiB:
/// `CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES`).
///
/// # Safety
/// `f` is a function of a loaded module; `bytes` within the device's opt-in limit.
pub unsafe fn allow_dynamic_shared(f: cu::CUfunction, bytes: usize) -> Result<()> {
    check(
        cu::cuFuncSetAttribute(
            f,
            cu::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            bytes as i32,
        ),
        "cuFuncSetAttribute",
    )
}

/// As [`launch_grid`], with `shared` bytes of dynamic shared memory a block.
///
/// # Safety
/// As [`launch`]; `f` allows `shared` bytes (`CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES`
/// above 48 KiB).
pub unsafe fn launch_grid_shared(
    f: cu::CUfunction,
    grid: u32,
    block: u32,
    shared: u32,
    stream: cu::CUstream,
    params: &mut [*mut c_void],
) -> Result<()> {
    super::fault::at_launch()?;
    check(
        cu::cuLaunchKernel(
            f,
            grid,
            1,
            1,
            block,
            1,
            1,
            shared,
            stream,
            params.as_mut_ptr(),
            std::ptr::null_mut(),
        ),
        "cuLaunchKernel",
    )
}
