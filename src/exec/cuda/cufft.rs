//! cuFFT plans: one batched transform over an advanced layout (64-bit sizes), bound to a stream.

use super::{Error, ErrorKind, Result};
use crate::problem::Precision;
use cudarc::cufft::sys as cf;
use std::sync::atomic::{AtomicUsize, Ordering};

static LIVE: AtomicUsize = AtomicUsize::new(0);

pub fn live_plans() -> usize {
    LIVE.load(Ordering::Relaxed)
}

fn check(r: cf::cufftResult, what: &str) -> Result<()> {
    if r == cf::cufftResult::CUFFT_SUCCESS {
        Ok(())
    } else {
        let kind = if r == cf::cufftResult::CUFFT_ALLOC_FAILED {
            ErrorKind::OutOfDeviceMemory
        } else {
            ErrorKind::Cuda
        };
        Err(Error::new(kind, format!("{what}: {r:?}")))
    }
}

/// What a cuFFT plan computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FftType {
    C2c,
    R2c,
    C2r,
}

/// One side of an advanced layout: element `x` of batch `b` is at
/// `b * dist + ((x0 * embed[1] + x1) * embed[2] + x2) * stride` (elements).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub embed: Vec<i64>,
    pub stride: i64,
    pub dist: i64,
}

impl Layout {
    /// Packed row-major arrays of `shape`, one after the other.
    pub fn packed(shape: &[i64]) -> Self {
        Layout {
            embed: shape.to_vec(),
            stride: 1,
            dist: shape.iter().product(),
        }
    }
}

pub struct CufftPlan {
    handle: cf::cufftHandle,
    /// The context current when the plan was made: the device the plan runs on, and where it
    /// is destroyed.
    ctx: usize,
    ty: FftType,
    precision: Precision,
    pub work_bytes: usize,
}

// SAFETY: a cuFFT handle is an integer; executes are serialized by their owner.
unsafe impl Send for CufftPlan {}
unsafe impl Sync for CufftPlan {}

impl CufftPlan {
    /// A plan of `batch` transforms of logical shape `n` (rank 1 to 3).
    pub fn new(
        n: &[i64],
        input: &Layout,
        output: &Layout,
        batch: i64,
        ty: FftType,
        precision: Precision,
    ) -> Result<Self> {
        Self::make(n, Some((input, output)), batch, ty, precision, None)
    }

    /// A plan of `batch` packed 1-D transforms of length `n` whose loads and stores go through
    /// LTO callbacks (`cb`), or plain (None).
    pub fn batched_1d(
        n: i64,
        batch: i64,
        ty: FftType,
        precision: Precision,
        cb: Option<&JitCallbacks>,
    ) -> Result<Self> {
        Self::make(&[n], None, batch, ty, precision, cb)
    }

    fn make(
        n: &[i64],
        layouts: Option<(&Layout, &Layout)>,
        batch: i64,
        ty: FftType,
        precision: Precision,
        cb: Option<&JitCallbacks>,
    ) -> Result<Self> {
        assert!((1..=3).contains(&n.len()), "cuFFT plans have rank 1 to 3");
        let cty = match (ty, precision) {
            (FftType::C2c, Precision::F32) => cf::cufftType::CUFFT_C2C,
            (FftType::R2c, Precision::F32) => cf::cufftType::CUFFT_R2C,
            (FftType::C2r, Precision::F32) => cf::cufftType::CUFFT_C2R,
            (FftType::C2c, Precision::F64) => cf::cufftType::CUFFT_Z2Z,
            (FftType::R2c, Precision::F64) => cf::cufftType::CUFFT_D2Z,
            (FftType::C2r, Precision::F64) => cf::cufftType::CUFFT_Z2D,
        };
        let _lock = super::CREATE_LOCK.lock();
        let mut ctx = std::ptr::null_mut();
        // SAFETY: writes the calling thread's current context (NULL if none).
        super::check(
            unsafe { cudarc::driver::sys::cuCtxGetCurrent(&mut ctx) },
            "cuCtxGetCurrent",
        )?;
        let mut handle = 0;
        // SAFETY: cufftCreate writes a handle.
        check(unsafe { cf::cufftCreate(&mut handle) }, "cufftCreate")?;
        // From here on, dropping `plan` destroys the handle (on errors too).
        let mut plan = CufftPlan {
            handle,
            ctx: ctx as usize,
            ty,
            precision,
            work_bytes: 0,
        };
        LIVE.fetch_add(1, Ordering::Relaxed);
        // cuFFT keeps pointers to the callbacks' names and callerInfo until the plan is made.
        let _attached = match cb {
            Some(cb) => Some(cb.attach(handle)?),
            None => None,
        };
        let mut n = n.to_vec();
        let (mut ie, mut oe, (is, id, os, od)) = match layouts {
            Some((i, o)) => (
                i.embed.clone(),
                o.embed.clone(),
                (i.stride, i.dist, o.stride, o.dist),
            ),
            None => (vec![], vec![], (1, 0, 1, 0)),
        };
        let embed = |e: &mut Vec<i64>| {
            if e.is_empty() {
                std::ptr::null_mut()
            } else {
                e.as_mut_ptr()
            }
        };
        let mut work = 0usize;
        // SAFETY: arrays of rank elements (or NULL: packed layouts), read during the call.
        check(
            unsafe {
                cf::cufftMakePlanMany64(
                    handle,
                    n.len() as i32,
                    n.as_mut_ptr(),
                    embed(&mut ie),
                    is,
                    id,
                    embed(&mut oe),
                    os,
                    od,
                    cty,
                    batch,
                    &mut work,
                )
            },
            "cufftMakePlanMany64",
        )?;
        plan.work_bytes = work;
        Ok(plan)
    }

    pub fn set_stream(&self, stream: cudarc::driver::sys::CUstream) -> Result<()> {
        // SAFETY: a valid handle and stream of the current context.
        check(
            unsafe { cf::cufftSetStream(self.handle, stream as cf::cudaStream_t) },
            "cufftSetStream",
        )
    }

    /// Runs the plan on device memory; `sign` is the c2c exponent sign (-1 forward).
    ///
    /// # Safety
    /// `input` and `output` must hold the plan's layouts on the device.
    pub unsafe fn exec(&self, input: u64, output: u64, sign: i32) -> Result<()> {
        super::fault::at_launch()?;
        let (i, o) = (
            input as *mut std::ffi::c_void,
            output as *mut std::ffi::c_void,
        );
        let r = match (self.ty, self.precision) {
            (FftType::C2c, Precision::F32) => cf::cufftExecC2C(self.handle, i as _, o as _, sign),
            (FftType::R2c, Precision::F32) => cf::cufftExecR2C(self.handle, i as _, o as _),
            (FftType::C2r, Precision::F32) => cf::cufftExecC2R(self.handle, i as _, o as _),
            (FftType::C2c, Precision::F64) => cf::cufftExecZ2Z(self.handle, i as _, o as _, sign),
            (FftType::R2c, Precision::F64) => cf::cufftExecD2Z(self.handle, i as _, o as _),
            (FftType::C2r, Precision::F64) => cf::cufftExecZ2D(self.handle, i as _, o as _),
        };
        check(r, "cufftExec")
    }
}

impl Drop for CufftPlan {
    fn drop(&mut self) {
        // Made with no context current (never, in fftx): the default device's, as it was
        // before devices were values.
        let device = super::device_of_context(self.ctx as cudarc::driver::sys::CUcontext)
            .or_else(super::default_device);
        if let Some(g) = device.filter(|g| !g.is_lost()) {
            let _ = g.bind();
            // SAFETY: the handle was created by cufftCreate and is destroyed once.
            unsafe { cf::cufftDestroy(self.handle) };
        }
        LIVE.fetch_sub(1, Ordering::Relaxed);
    }
}

/// LTO callbacks for a plan: an LTO-IR image holding the load and store functions, and the
/// device address handed to them as `callerInfo`.
pub struct JitCallbacks {
    pub image: std::sync::Arc<Vec<u8>>,
    /// The C++ names of the load and store functions in `image` (either may be absent).
    pub load: Option<String>,
    pub store: Option<String>,
    pub real_in: bool,
    pub real_out: bool,
    pub precision: Precision,
    pub info: u64,
}

type SetJitCallback = unsafe extern "C" fn(
    cf::cufftHandle,
    *const std::os::raw::c_char,
    *const std::ffi::c_void,
    usize,
    i32,
    *mut *mut std::ffi::c_void,
) -> cf::cufftResult;

/// `cufftXtSetJITCallback` (CUDA 12.8+ signature, with the symbol name), loaded by hand: cudarc
/// does not bind cufftXt. None when the installed cuFFT lacks it.
fn set_jit_callback() -> Option<SetJitCallback> {
    static F: once_cell::sync::Lazy<Option<usize>> = once_cell::sync::Lazy::new(|| {
        std::panic::catch_unwind(|| {
            // SAFETY: the symbol has the declared C signature in cufftXt.h of CUDA 12.8 and 13.
            unsafe {
                cf::culib()
                    .get::<SetJitCallback>(b"cufftXtSetJITCallback\0")
                    .ok()
                    .map(|s| *s as usize)
            }
        })
        .ok()
        .flatten()
    });
    // SAFETY: the address of a function of that type (above).
    F.map(|a| unsafe { std::mem::transmute::<usize, SetJitCallback>(a) })
}

/// Whether this cuFFT takes LTO callbacks.
pub fn jit_callbacks_available() -> bool {
    set_jit_callback().is_some()
}

/// What `cufftXtSetJITCallback` was handed and cuFFT reads again when the plan is made: the
/// callbacks' symbol names and their callerInfo slots (one per GPU). Dropped after planning.
struct Attached {
    _names: Vec<std::ffi::CString>,
    /// One slot per callback, at an address that does not move (boxed).
    info: Box<[*mut std::ffi::c_void; 2]>,
}

impl JitCallbacks {
    fn attach(&self, handle: cf::cufftHandle) -> Result<Attached> {
        let f = set_jit_callback()
            .ok_or_else(|| Error::unsupported("this cuFFT has no cufftXtSetJITCallback"))?;
        let d = self.precision == Precision::F64;
        // cufftXtCallbackType: LD_COMPLEX 0, LD_COMPLEX_DOUBLE 1, LD_REAL 2, LD_REAL_DOUBLE 3, ST_ from 4.
        let ld = (if self.real_in { 2 } else { 0 }) + d as i32;
        let st = 4 + (if self.real_out { 2 } else { 0 }) + d as i32;
        let mut kept = Attached {
            _names: Vec::new(),
            info: Box::new([self.info as *mut std::ffi::c_void; 2]),
        };
        let wanted = [(&self.load, ld), (&self.store, st)];
        for (slot, (sym, ty)) in wanted
            .iter()
            .filter_map(|(s, t)| s.as_ref().map(|s| (s, *t)))
            .enumerate()
        {
            let name = std::ffi::CString::new(sym.as_str())
                .map_err(|e| Error::new(ErrorKind::Internal, e.to_string()))?;
            // SAFETY: a handle before planning, a NUL-terminated name and one callerInfo slot
            // (one GPU), both kept alive in `kept` until the plan is made; an image of the
            // given size that the caller keeps alive as long.
            check(
                unsafe {
                    f(
                        handle,
                        name.as_ptr(),
                        self.image.as_ptr() as *const _,
                        self.image.len(),
                        ty,
                        &mut kept.info[slot],
                    )
                },
                "cufftXtSetJITCallback",
            )?;
            kept._names.push(name);
        }
        Ok(kept)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// cuFFT's allocation failure is the device running out of memory (a reason to run on the
    /// CPU, said at info level); its other failures are CUDA errors.
    #[test]
    fn failures_are_typed_by_what_the_fallback_needs() {
        let e = check(cf::cufftResult::CUFFT_ALLOC_FAILED, "cufftMakePlanMany64").unwrap_err();
        assert_eq!(e.kind, ErrorKind::OutOfDeviceMemory);
        assert_eq!(e.message, "cufftMakePlanMany64: CUFFT_ALLOC_FAILED");
        let e = check(cf::cufftResult::CUFFT_INTERNAL_ERROR, "cufftExec").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Cuda);
        assert!(check(cf::cufftResult::CUFFT_SUCCESS, "cufftExec").is_ok());
    }
}
