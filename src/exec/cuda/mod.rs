//! The CUDA executor: runs transform steps on an NVIDIA GPU through cuFFT and our own kernels.
//!
//! Everything CUDA is loaded at run time (cudarc's dynamic loading): on a machine without a
//! driver, without cuFFT or without a GPU, [`default_device`] is `None` and every plan runs on
//! the CPU.
//! cudarc panics when a library or symbol is missing, so every first touch happens inside
//! `catch_unwind`.
//!
//! Devices are values: [`device`] opens each CUDA ordinal once (an `Arc<Device>` holding its
//! context, memory pool, compiled kernels, staging blocks and peer access) and hands it to
//! whoever asks; [`default_device`] is `FFTX_DEVICE`'s (or 0), [`devices`] the list
//! `FFTX_DEVICES` selects. `FFTX_GPU_MEMORY` is one process-wide budget, checked per card.
//!
//! Pieces: this module (devices, their contexts, errors, what a pointer points at, pinned host
//! memory), [`cufft`] (plans), [`staging`] (the ring of pinned blocks host arrays travel
//! through), [`transform`] (a transform step: packing, chunks, streams; its stages are cuFFT
//! plans, or the tensor-core kernels of [`split_half`]).

pub(crate) mod copy;
pub mod cudagen;
pub mod cufft;
mod direct;
pub mod fault;
mod fmm;
pub mod half;
mod host_copies;
pub mod kernel;
pub mod kernels;
pub mod program;
pub mod run;
mod shared_layout;
pub mod split_half;
pub mod staging;
pub mod tensor_half;
pub mod transform;

use cudarc::driver::sys as cu;
use once_cell::sync::Lazy;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::ffi::CStr;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

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
pub fn usable_device_bytes(g: &Device) -> usize {
    device_budget().min(g.total_memory / 10 * 9)
}

/// Sets the device byte budget (None: no limit beyond the card's).
pub fn set_device_budget(bytes: Option<usize>) {
    DEVICE_BUDGET.store(
        bytes.unwrap_or(usize::MAX),
        std::sync::atomic::Ordering::Relaxed,
    );
}

/// One CUDA device (a card, by ordinal) and everything fftx keeps on it: its primary context,
/// its stream-ordered memory pool, the kernel modules and generated sources compiled for it,
/// its pinned staging blocks and the peers it may read directly. Made once per ordinal by
/// [`device`] and handed around as `Arc<Device>`; nothing assumes there is only one.
pub struct Device {
    pub ordinal: i32,
    /// The driver's handle of the device (`cuDeviceGet`).
    pub handle: cu::CUdevice,
    pub name: String,
    pub ctx: cu::CUcontext,
    pub total_memory: usize,
    pub multiprocessors: i32,
    /// Compute capability (major, minor): NVRTC compiles our kernels for it.
    pub capability: (i32, i32),
    /// The most shared memory a block may take, dynamic shared memory opted in (bytes).
    pub shared_optin: usize,
    pub pool: cu::CUmemoryPool,
    /// A small allocation made when the device was opened: it stays valid until the device is
    /// reset (by `cudaDeviceReset` in the program, say), which is how a reset is noticed.
    sentinel: cu::CUdeviceptr,
    /// The device was reset: every handle fftx holds on it is gone.
    lost: std::sync::atomic::AtomicBool,
    /// Kernel modules and generated sources compiled for this device (modules belong to a
    /// context: another card needs its own).
    pub(crate) kernels: kernels::Cache,
    /// Pinned staging blocks of this device's transfers.
    pub(crate) staging: staging::Pool,
    /// Peer access from this device: ordinal -> whether this device reads that one's memory
    /// directly (`cuDeviceCanAccessPeer`, then `cuCtxEnablePeerAccess` once).
    peers: Mutex<HashMap<i32, bool>>,
}

// SAFETY: a CUDA context handle may be used from any thread once made current there; the
// caches are behind locks.
unsafe impl Send for Device {}
unsafe impl Sync for Device {}

impl Device {
    /// Makes the context current on the calling thread (every thread that calls CUDA must).
    pub fn bind(&self) -> Result<()> {
        // SAFETY: the context is retained for the life of the process.
        check(unsafe { cu::cuCtxSetCurrent(self.ctx) }, "cuCtxSetCurrent")
    }

    /// Runs `f` with this device's context current and then makes the caller's current again:
    /// for work on this device in the middle of another card's step (whose events are made
    /// in the current context).
    pub fn within<R>(&self, f: impl FnOnce() -> Result<R>) -> Result<R> {
        let mut caller = std::ptr::null_mut();
        // SAFETY: writes the calling thread's current context (or null).
        check(
            unsafe { cu::cuCtxGetCurrent(&mut caller) },
            "cuCtxGetCurrent",
        )?;
        self.bind()?;
        let r = f();
        if !caller.is_null() && caller != self.ctx {
            // SAFETY: a context of this process, retained as above.
            check(unsafe { cu::cuCtxSetCurrent(caller) }, "cuCtxSetCurrent")?;
        }
        r
    }

    /// Makes the context current on this thread (as [`Device::bind`]) and fails once the device
    /// has been reset. The sentinel query needs the context current: on a thread that never
    /// bound it (a caller's new thread executing a plan) it fails, and read as a reset it
    /// turned the GPU off for the whole process. Every use of fftx's device resources (cuFFT
    /// plans, streams, modules, buffers) after a reset would be undefined (cuFFT crashes), so
    /// from then on the device counts as gone: [`device`] is None for it, plans compute on the
    /// CPU, and stale handles are never touched again (not even freed).
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
                crate::log::log_warn!("gpu: device {} was reset; its resources are gone and everything runs on the CPU from now on", self.ordinal);
            }
        }
        Err(Error::new(ErrorKind::DeviceLost, "the device was reset"))
    }

    /// Has the device been reset (its handles are gone)?
    pub fn is_lost(&self) -> bool {
        self.lost.load(std::sync::atomic::Ordering::Acquire)
    }

    /// Can kernels and copies on this device read `other`'s memory directly? Asks
    /// `cuDeviceCanAccessPeer` and enables peer access (from this context to `other`'s) the
    /// first time; the answer is kept. A device is its own peer.
    pub fn reaches(&self, other: &Device) -> bool {
        if other.ordinal == self.ordinal {
            return true;
        }
        let mut peers = self.peers.lock();
        if let Some(&ok) = peers.get(&other.ordinal) {
            return ok;
        }
        let ask = || {
            let mut can = 0;
            // SAFETY: plain queries and a context call with valid handles.
            unsafe {
                check(
                    cu::cuDeviceCanAccessPeer(&mut can, self.handle, other.handle),
                    "cuDeviceCanAccessPeer",
                )?;
                if can == 0 {
                    return Err(Error::cuda("cuDeviceCanAccessPeer says no"));
                }
                self.bind()?;
                let r = cu::cuCtxEnablePeerAccess(other.ctx, 0);
                if r != cu::CUresult::CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED {
                    check(r, "cuCtxEnablePeerAccess")?;
                }
            }
            Ok::<bool, Error>(true)
        };
        // Inside catch_unwind as every first touch of a driver entry point (cudarc panics
        // when one is missing).
        let asked = catch_unwind(AssertUnwindSafe(ask))
            .unwrap_or_else(|_| Err(Error::cuda("the driver lacks the peer-access calls")));
        let ok = match asked {
            Ok(ok) => ok,
            Err(e) => {
                crate::log::log_info!(
                    "gpu: no peer access from device {} to {} ({e}); copies between them go through pinned host memory",
                    self.ordinal,
                    other.ordinal
                );
                false
            }
        };
        peers.insert(other.ordinal, ok);
        ok
    }
}

impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Device({} {})", self.ordinal, self.name)
    }
}

/// CUDA loaded and initialized: how many devices there are, or why CUDA is unusable.
static CUDA: Lazy<std::result::Result<usize, String>> =
    Lazy::new(|| match catch_unwind(AssertUnwindSafe(init)) {
        Ok(Ok(n)) => Ok(n),
        Ok(Err(e)) => {
            crate::log::log_info!("gpu: none usable ({e}); everything runs on the CPU");
            Err(e)
        }
        Err(_) => {
            crate::log::log_info!("gpu: loading CUDA failed; everything runs on the CPU");
            Err("loading CUDA failed".into())
        }
    });

/// The devices opened so far, by ordinal (or why one could not be opened).
static DEVICES: Lazy<Mutex<HashMap<usize, Opened>>> = Lazy::new(Default::default);

/// A device opened, or why it could not be.
type Opened = std::result::Result<Arc<Device>, String>;

/// The default device ([`default_device`]), looked up once.
static DEFAULT: Lazy<std::result::Result<Arc<Device>, String>> = Lazy::new(|| {
    let count = CUDA.clone()?;
    let ordinal = default_ordinal(count).inspect_err(|e| {
        crate::log::log_info!("gpu: {e}; everything runs on the CPU");
    })?;
    open_cached(ordinal)
});

fn open_cached(ordinal: usize) -> std::result::Result<Arc<Device>, String> {
    let count = CUDA.clone()?;
    if ordinal >= count {
        return Err(format!("device {ordinal} is not a device of 0..{count}"));
    }
    DEVICES
        .lock()
        .entry(ordinal)
        .or_insert_with(|| match catch_unwind(AssertUnwindSafe(|| open(ordinal))) {
            Ok(Ok(d)) => {
                crate::log::log_info!(
                    "gpu: device {} ({}), {} MiB, {} SMs",
                    d.ordinal,
                    d.name,
                    d.total_memory >> 20,
                    d.multiprocessors
                );
                Ok(Arc::new(d))
            }
            Ok(Err(e)) => {
                crate::log::log_info!("gpu: device {ordinal} unusable ({e})");
                Err(e)
            }
            Err(_) => Err(format!("opening device {ordinal} failed")),
        })
        .clone()
}

/// Device `ordinal`, opened on first use and kept; None when CUDA is unusable, there is no such
/// device, or it was reset ([`Device::check_alive`]).
pub fn device(ordinal: usize) -> Option<Arc<Device>> {
    open_cached(ordinal).ok().filter(|d| !d.is_lost())
}

/// The device fftx runs single-device plans on: `FFTX_DEVICE`, or 0. None when there is no
/// usable GPU (or it was reset).
pub fn default_device() -> Option<Arc<Device>> {
    DEFAULT.as_ref().ok().filter(|d| !d.is_lost()).cloned()
}

/// How many CUDA devices this machine has (0 without a usable CUDA).
pub fn device_count() -> usize {
    CUDA.as_ref().copied().unwrap_or(0)
}

/// The devices distributed work runs on: the selection `FFTX_DEVICES` names (`0,1`, `all`;
/// see [`parse_selection`]), or the default device alone. Devices that cannot be opened are
/// left out (and logged); a selection that does not parse is logged and the default device
/// used.
pub fn devices() -> Vec<Arc<Device>> {
    let count = device_count();
    let chosen = match std::env::var("FFTX_DEVICES") {
        Ok(text) if !text.trim().is_empty() => match parse_selection(&text, count) {
            Ok(list) => list,
            Err(e) => {
                crate::log::log_warn!("{e}; using the default device");
                return default_device().into_iter().collect();
            }
        },
        _ => return default_device().into_iter().collect(),
    };
    chosen.into_iter().filter_map(device).collect()
}

/// Parses a device selection (`FFTX_DEVICES`) among `count` devices: `all`, or ordinals and
/// ranges separated by commas (`0,1`, `0-3`, `2, 0`). Order is kept, repeats are dropped.
pub fn parse_selection(text: &str, count: usize) -> Result<Vec<usize>> {
    let bad = |why: String| {
        Err(Error::bad_input(format!(
            "FFTX_DEVICES={text:?}: {why} (expected `all` or device numbers like `0,1` or `0-3`, of 0..{count})"
        )))
    };
    let t = text.trim();
    if t.eq_ignore_ascii_case("all") {
        if count == 0 {
            return bad("no CUDA device".into());
        }
        return Ok((0..count).collect());
    }
    let mut out = Vec::new();
    for part in t.split(',').map(str::trim) {
        if part.is_empty() {
            return bad("an empty entry".into());
        }
        let num = |s: &str| s.trim().parse::<usize>().map_err(|_| s.trim().to_string());
        let (lo, hi) = match part.split_once('-') {
            Some((a, b)) => match (num(a), num(b)) {
                (Ok(a), Ok(b)) if a <= b => (a, b),
                (Ok(_), Ok(_)) => return bad(format!("the range {part:?} runs backwards")),
                _ => return bad(format!("{part:?} is not a device number or range")),
            },
            None => match num(part) {
                Ok(d) => (d, d),
                Err(_) => return bad(format!("{part:?} is not a device number")),
            },
        };
        if hi >= count {
            return bad(format!("device {hi} does not exist"));
        }
        for d in lo..=hi {
            if !out.contains(&d) {
                out.push(d);
            }
        }
    }
    Ok(out)
}

/// `FFTX_DEVICE`; else, in a process an MPI launcher started, its node-local rank modulo the
/// devices (so the ranks of a node share its GPUs out, one each where there are enough); else 0.
fn default_ordinal(count: usize) -> std::result::Result<usize, String> {
    let chosen = std::env::var("FFTX_DEVICE").ok();
    let local_rank = LOCAL_RANK_VARIABLES
        .iter()
        .find_map(|v| std::env::var(v).ok().map(|r| (*v, r)));
    let ordinal = ordinal_for(
        chosen.as_deref(),
        local_rank.as_ref().map(|(_, r)| r.as_str()),
        count,
    )?;
    if let (None | Some(""), Some((var, rank))) = (chosen.as_deref().map(str::trim), &local_rank) {
        crate::log::log_info!(
            "gpu: node-local rank {rank} ({var}) of {count} device(s): device {ordinal}"
        );
    }
    Ok(ordinal)
}

/// The node-local rank launchers give each process: Open MPI, MPICH and Intel MPI (Hydra),
/// MVAPICH2, Slurm's srun, PMIx.
const LOCAL_RANK_VARIABLES: [&str; 5] = [
    "OMPI_COMM_WORLD_LOCAL_RANK",
    "MPI_LOCALRANKID",
    "MV2_COMM_WORLD_LOCAL_RANK",
    "SLURM_LOCALID",
    "PMIX_LOCAL_RANK",
];

/// The default device from `FFTX_DEVICE`'s text (wins when set) and a node-local rank's, among
/// `count` devices.
fn ordinal_for(
    chosen: Option<&str>,
    local_rank: Option<&str>,
    count: usize,
) -> std::result::Result<usize, String> {
    match (chosen.map(str::trim), local_rank.map(str::trim)) {
        (Some(v), _) if !v.is_empty() => v
            .parse::<usize>()
            .ok()
            .filter(|&d| d < count)
            .ok_or_else(|| format!("FFTX_DEVICE={v} is not a device of 0..{count}")),
        (_, Some(r)) if count > 0 => Ok(r.parse::<usize>().map_or(0, |r| r % count)),
        _ => Ok(0),
    }
}

/// The opened device whose primary context is `ctx` (what a handle made under that context
/// belongs to).
pub fn device_of_context(ctx: cu::CUcontext) -> Option<Arc<Device>> {
    DEVICES
        .lock()
        .values()
        .filter_map(|d| d.as_ref().ok())
        .find(|d| d.ctx == ctx)
        .cloned()
}

/// The devices opened so far (for `fftw_cleanup` and the resource counts).
pub(crate) fn opened() -> Vec<Arc<Device>> {
    match Lazy::get(&DEVICES) {
        Some(m) => m
            .lock()
            .values()
            .filter_map(|d| d.as_ref().ok())
            .cloned()
            .collect(),
        None => Vec::new(),
    }
}

/// Could a caller's array be device memory? Only if the program itself loaded the CUDA driver
/// (its device pointers come from it) or fftx has opened the GPU already. Otherwise nothing
/// needs CUDA started just to ask, which costs 200-300 ms.
pub fn device_pointers_possible() -> bool {
    Lazy::get(&CUDA).is_some() || driver_loaded_by_program()
}

/// Has fftx opened (or tried to open) CUDA in this process?
pub fn gpu_opened() -> bool {
    Lazy::get(&CUDA).is_some()
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

/// Why there is no default device (for logs), or None when there is one.
pub fn why_no_gpu() -> Option<String> {
    match DEFAULT.as_ref() {
        Err(e) => Some(e.clone()),
        Ok(d) if d.is_lost() => Some("the device was reset".into()),
        Ok(_) => None,
    }
}

/// Loads CUDA and cuFFT and counts the devices.
fn init() -> std::result::Result<usize, String> {
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
        if count <= 0 {
            return Err("no CUDA device".into());
        }
        // Touch cuFFT now, so a broken installation shows here and not in a plan.
        let mut version = 0;
        let r = cudarc::cufft::sys::cufftGetVersion(&mut version);
        if r != cudarc::cufft::sys::cufftResult::CUFFT_SUCCESS {
            return Err(format!("cufftGetVersion: {r:?}"));
        }
        Ok(count as usize)
    }
}

/// Opens device `ordinal` (CUDA initialized: [`init`]).
fn open(ordinal: usize) -> std::result::Result<Device, String> {
    let e = |e: Error| e.message;
    let ordinal = ordinal as i32;
    // SAFETY: plain driver API calls with valid out-pointers.
    unsafe {
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
        let shared_optin =
            attr(cu::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
                .max(0) as usize;
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
        let mut sentinel = 0;
        check(cu::cuMemAlloc_v2(&mut sentinel, 256), "cuMemAlloc").map_err(e)?;
        Ok(Device {
            ordinal,
            handle: dev,
            name: CStr::from_ptr(name.as_ptr()).to_string_lossy().into_owned(),
            ctx,
            total_memory: total,
            multiprocessors: sms,
            capability,
            shared_optin,
            pool,
            sentinel,
            lost: std::sync::atomic::AtomicBool::new(false),
            kernels: Default::default(),
            staging: Default::default(),
            peers: Mutex::new(HashMap::new()),
        })
    }
}

/// `fftw_cleanup`: gives every opened device's pooled memory and staging blocks back.
pub fn cleanup() {
    for g in opened().into_iter().filter(|g| !g.is_lost()) {
        if g.bind().is_ok() {
            // SAFETY: trimming an idle pool; blocks in use are kept by the driver.
            unsafe {
                cu::cuCtxSynchronize();
                cu::cuMemPoolTrimTo(g.pool, 0);
            }
        }
        g.staging.release_idle(&g);
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
pub fn memory_of(g: &Device, ptr: usize, bytes: usize) -> Memory {
    if g.bind().is_err() || ptr == 0 {
        return Memory::Pageable;
    }
    let attr = |a: cu::CUpointer_attribute, out: *mut std::ffi::c_void| -> bool {
        // SAFETY: out points at storage of the attribute's type.
        unsafe {
            cu::cuPointerGetAttribute(out, a, ptr as cu::CUdeviceptr) == cu::CUresult::CUDA_SUCCESS
        }
    };
    if is_managed(g, ptr) {
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

/// Is `ptr` managed (unified) memory, which the host may read as soon as a call returns?
pub fn is_managed(g: &Device, ptr: usize) -> bool {
    if ptr == 0 || g.bind().is_err() {
        return false;
    }
    let mut managed: u32 = 0;
    // SAFETY: the attribute is an unsigned int.
    let ok = unsafe {
        cu::cuPointerGetAttribute(
            &mut managed as *mut u32 as *mut _,
            cu::CUpointer_attribute::CU_POINTER_ATTRIBUTE_IS_MANAGED,
            ptr as cu::CUdeviceptr,
        )
    } == cu::CUresult::CUDA_SUCCESS;
    ok && managed != 0
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
        let g = default_device()?;
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
        if let Some(g) = default_device() {
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
    let g = default_device()?;
    g.bind().ok()?;
    let mut p = std::ptr::null_mut();
    // SAFETY: cuMemHostAlloc writes the block's address; PORTABLE: usable from every context.
    let r = unsafe { cu::cuMemHostAlloc(&mut p, bytes, cu::CU_MEMHOSTALLOC_PORTABLE) };
    if r != cu::CUresult::CUDA_SUCCESS || p.is_null() {
        crate::log::log_info!(
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
    if let Some(g) = default_device() {
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

#[cfg(test)]
mod tests {
    use super::{ordinal_for, parse_selection};

    /// FFTW-MPI ranks share a node's GPUs out by their node-local rank, unless FFTX_DEVICE says.
    #[test]
    fn mpi_ranks_take_the_device_of_their_node_local_rank() {
        assert_eq!(ordinal_for(None, Some("3"), 4), Ok(3));
        assert_eq!(ordinal_for(None, Some("5"), 4), Ok(1));
        assert_eq!(ordinal_for(Some(""), Some("2"), 4), Ok(2));
        assert_eq!(ordinal_for(Some("1"), Some("3"), 4), Ok(1));
        assert_eq!(ordinal_for(None, None, 4), Ok(0));
        assert_eq!(ordinal_for(None, Some("x"), 4), Ok(0));
        assert!(ordinal_for(Some("4"), Some("1"), 4).is_err());
    }

    #[test]
    fn selections_parse_lists_ranges_and_all() {
        assert_eq!(parse_selection("0", 1).unwrap(), vec![0]);
        assert_eq!(parse_selection("0,1", 2).unwrap(), vec![0, 1]);
        assert_eq!(parse_selection(" 2, 0 ", 4).unwrap(), vec![2, 0]);
        assert_eq!(parse_selection("1-3", 4).unwrap(), vec![1, 2, 3]);
        assert_eq!(parse_selection("0,0,1-2,1", 3).unwrap(), vec![0, 1, 2]);
        assert_eq!(parse_selection("all", 3).unwrap(), vec![0, 1, 2]);
        assert_eq!(parse_selection("ALL", 1).unwrap(), vec![0]);
    }

    #[test]
    fn bad_selections_are_refused_with_the_reason() {
        let why = |text: &str, count: usize| parse_selection(text, count).unwrap_err().message;
        assert!(
            why("2", 2).contains("device 2 does not exist"),
            "{}",
            why("2", 2)
        );
        assert!(why("0,,1", 2).contains("an empty entry"));
        assert!(why("", 2).contains("an empty entry"));
        assert!(why("gpu0", 2).contains("\"gpu0\" is not a device number"));
        assert!(why("3-1", 4).contains("runs backwards"));
        assert!(why("0-x", 4).contains("not a device number or range"));
        assert!(why("-1", 4).contains("not a device number or range"));
        assert!(why("all", 0).contains("no CUDA device"));
        // Every message names the variable and what it expects.
        let m = why("x", 2);
        assert!(
            m.starts_with("FFTX_DEVICES=\"x\"") && m.contains("`0,1`"),
            "{m}"
        );
        assert_eq!(
            parse_selection("x", 2).unwrap_err().kind,
            crate::error::ErrorKind::BadInput
        );
    }
}
