//! The CUDA executor: runs transform steps on an NVIDIA GPU through cuFFT and our own kernels.
//!
//! Everything CUDA is loaded at run time (cudarc's dynamic loading): on a machine without a
//! driver, without cuFFT or without a GPU, [`gpu`] is `None` and every plan runs on the CPU.
//! cudarc panics when a library or symbol is missing, so every first touch happens inside
//! `catch_unwind`.
//!
//! Pieces: this module (the device, its context, errors, what a pointer points at, pinned host
//! memory), [`cufft`] (plans), [`staging`] (the ring of pinned blocks host arrays travel
//! through), [`transform`] (a transform step: packing, chunks, streams).

pub mod cufft;
pub mod fault;
pub mod kernels;
pub mod program;
pub mod staging;
pub mod transform;

use cudarc::driver::sys as cu;
use once_cell::sync::Lazy;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::ffi::CStr;
use std::panic::{catch_unwind, AssertUnwindSafe};

pub use crate::error::{Error, ErrorKind, Result};

/// Checks a driver call's result.
pub fn check(r: cu::CUresult, what: &str) -> Result<()> {
    if r == cu::CUresult::CUDA_SUCCESS {
        return Ok(());
    }
    let mut s: *const std::os::raw::c_char = std::ptr::null();
    // SAFETY: cuGetErrorString writes a pointer to a static string or leaves it NULL.
    let text = unsafe {
        cu::cuGetErrorString(r, &mut s);
        if s.is_null() {
            format!("{r:?}")
        } else {
            CStr::from_ptr(s).to_string_lossy().into_owned()
        }
    };
    let kind = if r == cu::CUresult::CUDA_ERROR_OUT_OF_MEMORY {
        ErrorKind::OutOfDeviceMemory
    } else {
        ErrorKind::Cuda
    };
    Err(Error::new(kind, format!("{what}: {text}")))
}

/// Device bytes one execute may take (`FFTX_GPU_MEMORY`, or set by tests): beyond it a step
/// reports "out of memory" just as the driver would, and the plan falls back to the CPU.
static DEVICE_BUDGET: Lazy<std::sync::atomic::AtomicUsize> = Lazy::new(|| {
    let env = std::env::var("FFTX_GPU_MEMORY")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok());
    std::sync::atomic::AtomicUsize::new(env.unwrap_or(usize::MAX))
});

pub fn device_budget() -> usize {
    DEVICE_BUDGET.load(std::sync::atomic::Ordering::Relaxed)
}

/// Device bytes one plan may count on: the budget, and at most nine tenths of the card (the
/// context, cuFFT's work areas and other plans take the rest). A transform that needs more is
/// lowered out of card.
pub fn usable_device_bytes(g: &Gpu) -> usize {
    device_budget().min(g.total_memory / 10 * 9)
}

/// Sets the device byte budget (None: no limit beyond the card's).
pub fn set_device_budget(bytes: Option<usize>) {
    DEVICE_BUDGET.store(
        bytes.unwrap_or(usize::MAX),
        std::sync::atomic::Ordering::Relaxed,
    );
}

/// The GPU fftx runs on: one device and its primary context.
pub struct Gpu {
    pub ordinal: i32,
    pub name: String,
    pub ctx: cu::CUcontext,
    pub total_memory: usize,
    pub multiprocessors: i32,
    /// Compute capability (major, minor): NVRTC compiles our kernels for it.
    pub capability: (i32, i32),
    pub pool: cu::CUmemoryPool,
    /// A small allocation made when the GPU was opened: it stays valid until the device is
    /// reset (by `cudaDeviceReset` in the program, say), which is how a reset is noticed.
    sentinel: cu::CUdeviceptr,
    /// The device was reset: every handle fftx holds on it is gone.
    lost: std::sync::atomic::AtomicBool,
}

// SAFETY: a CUDA context handle may be used from any thread once made current there.
unsafe impl Send for Gpu {}
unsafe impl Sync for Gpu {}

impl Gpu {
    /// Makes the context current on the calling thread (every thread that calls CUDA must).
    pub fn bind(&self) -> Result<()> {
        // SAFETY: the context is retained for the life of the process.
        check(unsafe { cu::cuCtxSetCurrent(self.ctx) }, "cuCtxSetCurrent")
    }

    /// Makes the context current on this thread (as [`Gpu::bind`]) and fails once the device
    /// has been reset. The sentinel query needs the context current: on a thread that never
    /// bound it (a caller's new thread executing a plan) it fails, and read as a reset it
    /// turned the GPU off for the whole process. Every use of fftx's device resources (cuFFT
    /// plans, streams, modules, buffers) after a reset would be undefined (cuFFT crashes), so
    /// from then on the GPU counts as gone: [`gpu`] is None, plans compute on the CPU, and
    /// stale handles are never touched again (not even freed).
    pub fn check_alive(&self) -> Result<()> {
        use std::sync::atomic::Ordering;
        if !self.lost.load(Ordering::Acquire) {
            self.bind()?;
            let (mut base, mut size) = (0, 0);
            // SAFETY: a query about an address; it only fails, never faults, on a stale one.
            let r = unsafe { cu::cuMemGetAddressRange_v2(&mut base, &mut size, self.sentinel) };
            if r == cu::CUresult::CUDA_SUCCESS && base == self.sentinel {
                return Ok(());
            }
            if !self.lost.swap(true, Ordering::AcqRel) {
                crate::log_warn!("gpu: device {} was reset; its resources are gone and everything runs on the CPU from now on", self.ordinal);
            }
        }
        Err(Error::new(ErrorKind::DeviceLost, "the device was reset"))
    }
}

static GPU: Lazy<std::result::Result<Gpu, String>> =
    Lazy::new(|| match catch_unwind(AssertUnwindSafe(open)) {
        Ok(Ok(g)) => {
            crate::log_info!(
                "gpu: device {} ({}), {} MiB, {} SMs",
                g.ordinal,
                g.name,
                g.total_memory >> 20,
                g.multiprocessors
            );
            Ok(g)
        }
        Ok(Err(e)) => {
            crate::log_info!("gpu: none usable ({e}); everything runs on the CPU");
            Err(e)
        }
        Err(_) => {
            crate::log_info!("gpu: loading CUDA failed; everything runs on the CPU");
            Err("loading CUDA failed".into())
        }
    });

/// The GPU, when one is usable (not after a device reset: [`Gpu::check_alive`]).
pub fn gpu() -> Option<&'static Gpu> {
    GPU.as_ref()
        .ok()
        .filter(|g| !g.lost.load(std::sync::atomic::Ordering::Acquire))
}

/// Could a caller's array be device memory? Only if the program itself loaded the CUDA driver
/// (its device pointers come from it) or fftx has opened the GPU already. Otherwise nothing
/// needs CUDA started just to ask, which costs 200-300 ms.
pub fn device_pointers_possible() -> bool {
    Lazy::get(&GPU).is_some() || driver_loaded_by_program()
}

/// Has fftx opened (or tried to open) the GPU in this process?
pub fn gpu_opened() -> bool {
    Lazy::get(&GPU).is_some()
}

fn driver_loaded_by_program() -> bool {
    // SAFETY: RTLD_NOLOAD only looks the library up among those already loaded; the handle
    // it returns (a reference) is released at once.
    unsafe {
        let h = libc::dlopen(c"libcuda.so.1".as_ptr(), libc::RTLD_NOW | libc::RTLD_NOLOAD);
        if h.is_null() {
            return false;
        }
        libc::dlclose(h);
        true
    }
}

/// Why there is no GPU (for logs), or None when there is one.
pub fn why_no_gpu() -> Option<String> {
    match GPU.as_ref() {
        Err(e) => Some(e.clone()),
        Ok(_) if gpu().is_none() => Some("the device was reset".into()),
        Ok(_) => None,
    }
}

fn open() -> std::result::Result<Gpu, String> {
    if fault::arm_from_env() {
        return Err("CUDA missing (injected: FFTX_FAULT=no-cuda)".into());
    }
    // SAFETY: presence checks only try to dlopen the libraries.
    unsafe {
        if !cu::is_culib_present() {
            return Err("no CUDA driver library (libcuda.so)".into());
        }
        if !cudarc::cufft::sys::is_culib_present() {
            return Err("no cuFFT library (libcufft.so)".into());
        }
    }
    let e = |e: Error| e.message;
    // SAFETY: plain driver API calls with valid out-pointers.
    unsafe {
        check(cu::cuInit(0), "cuInit").map_err(e)?;
        let mut count = 0;
        check(cu::cuDeviceGetCount(&mut count), "cuDeviceGetCount").map_err(e)?;
        if count == 0 {
            return Err("no CUDA device".into());
        }
        let ordinal = match std::env::var("FFTX_DEVICE") {
            Ok(v) if !v.trim().is_empty() => v
                .trim()
                .parse::<i32>()
                .ok()
                .filter(|&d| d >= 0 && d < count)
                .ok_or_else(|| format!("FFTX_DEVICE={v} is not a device of 0..{count}"))?,
            _ => 0,
        };
        let mut dev = 0;
        check(cu::cuDeviceGet(&mut dev, ordinal), "cuDeviceGet").map_err(e)?;
        let mut ctx = std::ptr::null_mut();
        check(
            cu::cuDevicePrimaryCtxRetain(&mut ctx, dev),
            "cuDevicePrimaryCtxRetain",
        )
        .map_err(e)?;
        check(cu::cuCtxSetCurrent(ctx), "cuCtxSetCurrent").map_err(e)?;
        let mut name = [0 as std::os::raw::c_char; 256];
        check(
            cu::cuDeviceGetName(name.as_mut_ptr(), 256, dev),
            "cuDeviceGetName",
        )
        .map_err(e)?;
        let mut total = 0usize;
        check(cu::cuDeviceTotalMem_v2(&mut total, dev), "cuDeviceTotalMem").map_err(e)?;
        let mut sms = 0;
        check(
            cu::cuDeviceGetAttribute(
                &mut sms,
                cu::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                dev,
            ),
            "cuDeviceGetAttribute",
        )
        .map_err(e)?;
        let attr = |a| {
            let mut v = 0;
            cu::cuDeviceGetAttribute(&mut v, a, dev);
            v
        };
        let capability = (
            attr(cu::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
            attr(cu::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
        );
        // Stream-ordered allocations come from the device's pool, which keeps what it has
        // (no release at each synchronize): executes reuse their buffers at no cost.
        let mut pool = std::ptr::null_mut();
        check(
            cu::cuDeviceGetDefaultMemPool(&mut pool, dev),
            "cuDeviceGetDefaultMemPool",
        )
        .map_err(e)?;
        let mut threshold: u64 = u64::MAX;
        check(
            cu::cuMemPoolSetAttribute(
                pool,
                cu::CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                &mut threshold as *mut u64 as *mut _,
            ),
            "cuMemPoolSetAttribute",
        )
        .map_err(e)?;
        // Touch cuFFT now, so a broken installation shows here and not in a plan.
        let mut version = 0;
        let r = cudarc::cufft::sys::cufftGetVersion(&mut version);
        if r != cudarc::cufft::sys::cufftResult::CUFFT_SUCCESS {
            return Err(format!("cufftGetVersion: {r:?}"));
        }
        let mut sentinel = 0;
        check(cu::cuMemAlloc_v2(&mut sentinel, 256), "cuMemAlloc").map_err(e)?;
        Ok(Gpu {
            ordinal,
            name: CStr::from_ptr(name.as_ptr()).to_string_lossy().into_owned(),
            ctx,
            total_memory: total,
            multiprocessors: sms,
            capability,
            pool,
            sentinel,
            lost: std::sync::atomic::AtomicBool::new(false),
        })
    }
}

/// `fftw_cleanup`: gives the pool's cached device memory and the staging blocks back.
pub fn cleanup() {
    if let Some(g) = gpu() {
        if g.bind().is_ok() {
            // SAFETY: trimming an idle pool; blocks in use are kept by the driver.
            unsafe {
                cu::cuCtxSynchronize();
                cu::cuMemPoolTrimTo(g.pool, 0);
            }
        }
        staging::release_idle();
    }
}

/// Where an array lives, as far as the GPU is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Memory {
    /// Ordinary host memory: it travels through pinned staging blocks.
    Pageable,
    /// Page-locked host memory covering the whole array: DMA runs from it directly.
    Pinned,
    /// Device memory (or managed memory): no copies at all.
    Device,
}

/// Classifies the `bytes` bytes at `ptr` (the whole extent an array's layout addresses).
pub fn memory_of(g: &Gpu, ptr: usize, bytes: usize) -> Memory {
    if g.bind().is_err() || ptr == 0 {
        return Memory::Pageable;
    }
    let attr = |a: cu::CUpointer_attribute, out: *mut std::ffi::c_void| -> bool {
        // SAFETY: out points at storage of the attribute's type.
        unsafe {
            cu::cuPointerGetAttribute(out, a, ptr as cu::CUdeviceptr) == cu::CUresult::CUDA_SUCCESS
        }
    };
    let mut managed: u32 = 0;
    if attr(
        cu::CUpointer_attribute::CU_POINTER_ATTRIBUTE_IS_MANAGED,
        &mut managed as *mut u32 as *mut _,
    ) && managed != 0
    {
        return Memory::Device;
    }
    let mut kind: u32 = 0;
    if !attr(
        cu::CUpointer_attribute::CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
        &mut kind as *mut u32 as *mut _,
    ) {
        return Memory::Pageable;
    }
    if kind == cu::CUmemorytype::CU_MEMORYTYPE_DEVICE as u32 {
        return Memory::Device;
    }
    // Pinned: the registered range must hold the whole array.
    let (mut start, mut size): (cu::CUdeviceptr, usize) = (0, 0);
    if attr(
        cu::CUpointer_attribute::CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
        &mut start as *mut _ as *mut _,
    ) && attr(
        cu::CUpointer_attribute::CU_POINTER_ATTRIBUTE_RANGE_SIZE,
        &mut size as *mut _ as *mut _,
    ) && (start as usize) <= ptr
        && ptr + bytes <= start as usize + size
    {
        return Memory::Pinned;
    }
    if let Some((&base, &len)) = PINNED.lock().range(..=ptr).next_back() {
        if ptr + bytes <= base + len {
            return Memory::Pinned;
        }
    }
    Memory::Pageable
}

/// A copy of host bytes in pinned, device or ordinary memory (the planner's scratch arrays for
/// timing the GPU on the kind of memory the caller has).
pub struct Mirror {
    pub ptr: usize,
    kind: Memory,
    _host: Vec<u8>,
}

impl Mirror {
    pub fn new(bytes: &[u8], kind: Memory) -> Option<Mirror> {
        let g = gpu()?;
        g.bind().ok()?;
        let len = bytes.len().max(1);
        // SAFETY: allocations of len bytes, filled from `bytes`.
        unsafe {
            match kind {
                Memory::Pageable => {
                    let v = bytes.to_vec();
                    Some(Mirror {
                        ptr: v.as_ptr() as usize,
                        kind,
                        _host: v,
                    })
                }
                Memory::Pinned => {
                    let mut p = std::ptr::null_mut();
                    check(
                        cu::cuMemHostAlloc(&mut p, len, cu::CU_MEMHOSTALLOC_PORTABLE),
                        "cuMemHostAlloc",
                    )
                    .ok()?;
                    std::ptr::copy_nonoverlapping(bytes.as_ptr(), p as *mut u8, bytes.len());
                    Some(Mirror {
                        ptr: p as usize,
                        kind,
                        _host: Vec::new(),
                    })
                }
                Memory::Device => {
                    let mut d = 0;
                    check(cu::cuMemAlloc_v2(&mut d, len), "cuMemAlloc").ok()?;
                    let m = Mirror {
                        ptr: d as usize,
                        kind,
                        _host: Vec::new(),
                    };
                    check(
                        cu::cuMemcpyHtoD_v2(d, bytes.as_ptr() as *const _, bytes.len()),
                        "cuMemcpyHtoD",
                    )
                    .ok()?;
                    Some(m)
                }
            }
        }
    }
}

impl Drop for Mirror {
    fn drop(&mut self) {
        if let Some(g) = gpu() {
            let _ = g.bind();
            // SAFETY: allocated in Mirror::new, freed once.
            unsafe {
                match self.kind {
                    Memory::Pageable => {}
                    Memory::Pinned => {
                        cu::cuMemFreeHost(self.ptr as *mut _);
                    }
                    Memory::Device => {
                        cu::cuMemFree_v2(self.ptr as cu::CUdeviceptr);
                    }
                }
            }
        }
    }
}

/// Blocks `fftw_malloc` handed out as pinned memory: address -> size.
static PINNED: Lazy<Mutex<std::collections::BTreeMap<usize, usize>>> = Lazy::new(Default::default);

/// Smallest `fftw_malloc` block made pinned: below it pinning costs more than it saves.
pub const PINNED_MALLOC_MIN: usize = 1 << 20;

/// Pinned host memory for `fftw_malloc`, when the GPU path may be used; None otherwise.
pub fn malloc_pinned(bytes: usize) -> Option<*mut libc::c_void> {
    if bytes < PINNED_MALLOC_MIN
        || crate::backend::backend_setting() == crate::backend::BackendSetting::Cpu
    {
        return None;
    }
    let g = gpu()?;
    g.bind().ok()?;
    let mut p = std::ptr::null_mut();
    // SAFETY: cuMemHostAlloc writes the block's address; PORTABLE: usable from every context.
    let r = unsafe { cu::cuMemHostAlloc(&mut p, bytes, cu::CU_MEMHOSTALLOC_PORTABLE) };
    if r != cu::CUresult::CUDA_SUCCESS || p.is_null() {
        crate::log_info!(
            "fftw_malloc: no pinned memory for {bytes} bytes ({r:?}); using pageable memory"
        );
        return None;
    }
    PINNED.lock().insert(p as usize, bytes);
    Some(p)
}

/// Frees `p` if `fftw_malloc` made it pinned; false when it is not ours.
///
/// # Safety
/// `p` must not be used after it is freed.
pub unsafe fn free_pinned(p: *mut libc::c_void) -> bool {
    if PINNED.lock().remove(&(p as usize)).is_none() {
        return false;
    }
    if let Some(g) = gpu() {
        let _ = g.bind();
        // SAFETY: p came from cuMemHostAlloc and is freed once (removed from the registry).
        unsafe { cu::cuMemFreeHost(p) };
    }
    true
}

/// cuFFT handles and other per-thread-free resources are created under this lock when a
/// library documents them as not thread-safe to create.
pub static CREATE_LOCK: Mutex<()> = Mutex::new(());

/// Counts of resources alive, for the leak test (10,000 create/execute/destroy cycles).
pub fn live_resources() -> HashMap<&'static str, usize> {
    let mut m = HashMap::new();
    m.insert("cufft_plans", cufft::live_plans());
    m.insert("staging_blocks", staging::live_blocks());
    m.insert("pinned_mallocs", PINNED.lock().len());
    m.insert("kernel_modules", kernels::loaded_modules());
    m.insert("generated_sources", kernels::generated_count());
    m
}
