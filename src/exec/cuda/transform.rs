//! A transform step on the GPU.
//!
//! On the device every transform works on packed arrays: instance after instance, row-major,
//! complex interleaved. cuFFT runs there (`stages`); what differs is how data gets in and out:
//!
//! - host arrays are cut into chunks of whole transforms; each chunk's input travels in blocks
//!   (straight from the caller's memory when it is pinned and packed, otherwise through pinned
//!   staging blocks filled by host threads: memcpy when packed, a gather when strided), the
//!   chunk is transformed, and its output travels back the same way. Worker threads move blocks
//!   on their own streams while the calling thread issues the transforms on a compute stream,
//!   so host copies, transfers both ways and compute of different chunks overlap;
//! - device (or managed) arrays are used where they are, with no copies, when packed.
//!
//! Rank 1 to 3 is one cuFFT plan; higher ranks are the trailing three dimensions and then one
//! strided pass per leading dimension. A step made by [`GpuTransform::split_half`] runs the
//! tensor-core kernels of `split_half` on the packed buffers instead of cuFFT (1-D c2c f32 of
//! 16^K points), with everything else here unchanged.

use super::cufft::{CufftPlan, FftType, Layout};
use super::kernels::{self, Source};
use super::split_half::SplitHalf;
use super::staging::{self, PinnedBlock, BLOCK_BYTES};
use super::{check, default_device, memory_of, Device, Error, Memory, Result};
use crate::exec::cpu::layout::{
    gather_complex, gather_real, instance_offsets, scatter_complex, scatter_real, ArrayPtr, Strided,
};
use crate::exec::twins::{self, Lines};
use crate::problem::{IoDim, Kind, Problem};
use crate::real::Real;
use cudarc::driver::sys as cu;
use num_complex::Complex;
use parking_lot::{Condvar, Mutex};
use std::collections::HashMap;
use std::ffi::c_void;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// Bytes of input a chunk of transforms aims for (the unit of overlap for batched problems).
const CHUNK_BYTES: usize = 16 << 20;
/// Device buffers in rotation: chunk c+2 reuses chunk c's.
const SLOTS: usize = 2;

/// A buffer the stages read or write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Buf {
    In,
    Out,
}

/// One cuFFT plan run `outer` times, `step` elements apart; or one r2r axis.
struct Stage {
    plan: CufftPlan,
    from: Buf,
    to: Buf,
    outer: usize,
    in_step: usize,
    out_step: usize,
    sign: i32,
    /// The stream the plan was last bound to (cufftSetStream only when it changes).
    bound: std::cell::Cell<usize>,
    /// An r2r pass along one axis: the pre kernel extends each line of `from` into the complex
    /// work buffer, `plan` (a c2c of the logical size) transforms it, the post kernel writes the
    /// lines of `to`.
    r2r: Option<R2rAxis>,
}

#[derive(Clone, Copy)]
struct R2rAxis {
    kind: i32,
    n: i64,
    logical: i64,
    /// Lines are `outer` groups of `inner` lines `inner` apart (row-major axis split).
    inner: i64,
}

/// The stages for one batch size, and the complex work bytes the r2r passes need.
struct Stages {
    list: Vec<Stage>,
    work_bytes: usize,
    /// Transforms per run (the batch the cuFFT plans were made for).
    batch: usize,
}

pub struct GpuTransform<T: Real> {
    kind: Kind,
    /// Logical transform lengths.
    shape: Vec<usize>,
    in_dims: Vec<Strided>,
    out_dims: Vec<Strided>,
    loops: Vec<IoDim>,
    howmany: usize,
    /// Packed elements (complex or real) of one transform's input / output.
    in_elems: usize,
    out_elems: usize,
    in_complex: bool,
    out_complex: bool,
    /// Transforms per chunk for host arrays.
    chunk: usize,
    /// Host threads that move blocks for staged arrays.
    movers: usize,
    /// The device the step runs on (the default device when it was made).
    dev: Arc<Device>,
    /// The split-half tensor-core stages instead of cuFFT (`split_half`).
    split: Option<SplitHalf>,
    state: Mutex<State>,
    _t: PhantomData<T>,
}

struct State {
    /// The device the handles below belong to.
    dev: Arc<Device>,
    /// cuFFT stages per batch size (a full chunk, the last chunk, all transforms).
    stages: HashMap<usize, Stages>,
    /// The stream transforms run on (made once: the plans stay bound to it).
    compute: Option<cu::CUstream>,
    streams: Vec<cu::CUstream>,
    events: Vec<cu::CUevent>,
    /// The sides found for the last arrays executed on (classifying costs driver calls).
    last_sides: Option<((ArrayPtr, ArrayPtr), (Side, Side))>,
}

// SAFETY: the CUDA handles in State are used under its mutex only.
unsafe impl Send for State {}

impl State {
    fn new(dev: Arc<Device>) -> State {
        State {
            dev,
            stages: HashMap::new(),
            compute: None,
            streams: Vec::new(),
            events: Vec::new(),
            last_sides: None,
        }
    }
}

impl Drop for State {
    fn drop(&mut self) {
        let g = &self.dev;
        if !g.is_lost() {
            let _ = g.bind();
            // SAFETY: created by this state, destroyed once.
            unsafe {
                for &s in self.streams.iter().chain(&self.compute) {
                    cu::cuStreamSynchronize(s);
                    cu::cuStreamDestroy_v2(s);
                }
                for &e in &self.events {
                    cu::cuEventDestroy_v2(e);
                }
            }
        }
    }
}

fn elem_bytes<T>(complex: bool) -> usize {
    std::mem::size_of::<T>() * if complex { 2 } else { 1 }
}

/// Can the GPU run this problem? (Rank 0 problems are copies, and empty batches do nothing:
/// the CPU does them.)
///
/// Transform dimensions of length 1 (which normalization keeps only for r2c, c2r and r2r) stay
/// on the CPU too: cuFFT computed an r2c/c2r of shape [7, 1] wrongly (found by the FFTX random
/// pipelines on the H100, 2026-11-22), and such problems are tiny.
pub fn supports(p: &Problem) -> bool {
    !p.dims.is_empty()
        && p.howmany() > 0
        && p.dims.iter().all(|d| d.n > 1)
        // Chunks stream in and out: in place, each must own its locations.
        && (!p.in_place || p.batches_independent_in_place())
}

/// Transforms per chunk, and the device bytes of the two slots of chunk buffers an execute on
/// host arrays allocates, for transforms of `in_bytes` and `out_bytes`.
fn chunking(in_bytes: usize, out_bytes: usize, howmany: usize) -> (usize, usize) {
    let chunk = (CHUNK_BYTES / in_bytes.max(out_bytes).max(1)).clamp(1, howmany.max(1));
    let need = SLOTS.min(howmany.div_ceil(chunk)) * chunk * (in_bytes + out_bytes);
    (chunk, need)
}

/// The device bytes an execute of `p` on host arrays allocates (its chunk buffers).
pub fn staged_device_bytes<T: Real>(p: &Problem) -> usize {
    let elems = |shape: Vec<isize>| shape.iter().map(|&n| n as usize).product::<usize>();
    chunking(
        elems(p.input_shape()) * elem_bytes::<T>(p.kind.input_is_complex()),
        elems(p.output_shape()) * elem_bytes::<T>(p.kind.output_is_complex()),
        p.howmany(),
    )
    .1
}

impl<T: Real> GpuTransform<T> {
    /// Prepares the step; cuFFT plans for the full chunk are made here, so that planning
    /// errors (out of device memory) show at plan time.
    pub fn new(p: &Problem, threads: usize) -> Result<Self> {
        Self::build(p, threads, false)
    }

    /// The step with the split-half tensor-core kernels (`split_half`) in place of cuFFT;
    /// `Err` (unsupported) where they cannot run `p`: not c2c f32 of 16^K points, a device
    /// before compute capability 8.0, NVRTC missing.
    pub fn split_half(p: &Problem, threads: usize) -> Result<Self> {
        if T::PRECISION != crate::problem::Precision::F32 {
            return Err(Error::unsupported("the split-half path is f32"));
        }
        Self::build(p, threads, true)
    }

    fn build(p: &Problem, threads: usize, split: bool) -> Result<Self> {
        super::fault::at_plan()?;
        let g = default_device().ok_or_else(|| Error::unsupported("no GPU"))?;
        g.check_alive()?;
        let split = if split {
            Some(SplitHalf::new(&g, p)?)
        } else {
            None
        };
        let shape: Vec<usize> = p.dims.iter().map(|d| d.n as usize).collect();
        let strided = |shape: Vec<isize>, stride: fn(&IoDim) -> isize| -> Vec<Strided> {
            shape
                .iter()
                .zip(&p.dims)
                .map(|(&n, d)| Strided {
                    n: n as usize,
                    s: stride(d),
                })
                .collect()
        };
        let in_dims = strided(p.input_shape(), |d| d.is);
        let out_dims = strided(p.output_shape(), |d| d.os);
        let in_elems: usize = in_dims.iter().map(|d| d.n).product();
        let out_elems: usize = out_dims.iter().map(|d| d.n).product();
        let (in_complex, out_complex) = (p.kind.input_is_complex(), p.kind.output_is_complex());
        let howmany = p.howmany();
        let (chunk, need) = chunking(
            in_elems * elem_bytes::<T>(in_complex),
            out_elems * elem_bytes::<T>(out_complex),
            howmany,
        );
        // One mover per core up to 16: pageable arrays go through host copies into the pinned
        // blocks, and on the 16-core H100 box 16 movers took c2c f32 2^26 and 512^3 from malloc
        // arrays 18-19% below 8 movers' times (2026-11-26, `h100-movers-ab.md`).
        let movers = std::thread::available_parallelism()
            .map_or(4, |n| n.get())
            .clamp(2, 16)
            .max(threads.min(16));
        if need > super::device_budget() {
            return Err(Error::new(
                super::ErrorKind::OutOfDeviceMemory,
                format!(
                    "out of memory: {need} device bytes exceed the budget of {}",
                    super::device_budget()
                ),
            ));
        }
        let t = GpuTransform {
            kind: p.kind.clone(),
            shape,
            in_dims,
            out_dims,
            loops: p.loops.clone(),
            howmany,
            in_elems,
            out_elems,
            in_complex,
            out_complex,
            chunk,
            movers,
            dev: g.clone(),
            split,
            state: Mutex::new(State::new(g)),
            _t: PhantomData,
        };
        {
            let mut st = t.state.lock();
            t.stages_for(&mut st, chunk)?;
        }
        Ok(t)
    }

    pub fn describe(&self) -> String {
        let chunks = self.howmany.div_ceil(self.chunk);
        match &self.split {
            Some(s) => format!(
                "{}; {} chunks of {} transform(s)",
                s.describe(),
                chunks,
                self.chunk
            ),
            None => format!("cufft {} chunks of {} transform(s)", chunks, self.chunk),
        }
    }

    /// The cuFFT stages for `batch` packed transforms (made once per batch size).
    fn stages_for<'a>(&self, st: &'a mut State, batch: usize) -> Result<&'a Stages> {
        match st.stages.entry(batch) {
            std::collections::hash_map::Entry::Occupied(e) => Ok(e.into_mut()),
            std::collections::hash_map::Entry::Vacant(e) => Ok(e.insert(self.make_stages(batch)?)),
        }
    }

    fn make_stages(&self, batch: usize) -> Result<Stages> {
        if let Some(s) = &self.split {
            return Ok(Stages {
                list: Vec::new(),
                work_bytes: s.work_bytes(batch),
                batch,
            });
        }
        let p = T::PRECISION;
        let rank = self.shape.len();
        let sh: Vec<i64> = self.shape.iter().map(|&n| n as i64).collect();
        let mut csh = sh.clone();
        let sign = match self.kind {
            Kind::Dft { sign } => sign,
            Kind::R2c => -1,
            _ => 1,
        };
        if matches!(self.kind, Kind::R2c | Kind::C2r) {
            *csh.last_mut().unwrap() = sh[rank - 1] / 2 + 1;
        }
        let split = rank.saturating_sub(3);
        let lead: i64 = sh[..split].iter().product();
        let tail_batch = batch as i64 * lead;
        let trailing =
            |ty: FftType, ish: &[i64], osh: &[i64], from: Buf, to: Buf| -> Result<Stage> {
                let plan = CufftPlan::new(
                    &sh[split..],
                    &Layout::packed(&ish[split..]),
                    &Layout::packed(&osh[split..]),
                    tail_batch,
                    ty,
                    p,
                )?;
                Ok(Stage {
                    plan,
                    from,
                    to,
                    outer: 1,
                    in_step: 0,
                    out_step: 0,
                    sign,
                    bound: Default::default(),
                    r2r: None,
                })
            };
        // One strided c2c pass along leading dimension k of a complex buffer of shape `csh`.
        let leading = |k: usize, buf: Buf| -> Result<Stage> {
            let inner: i64 = csh[k + 1..].iter().product();
            let outer = batch as i64 * csh[..k].iter().product::<i64>();
            let lay = Layout {
                embed: vec![csh[k]],
                stride: inner,
                dist: 1,
            };
            let plan = CufftPlan::new(&[csh[k]], &lay, &lay, inner, FftType::C2c, p)?;
            let step = (csh[k] * inner) as usize;
            Ok(Stage {
                plan,
                from: buf,
                to: buf,
                outer: outer as usize,
                in_step: step,
                out_step: step,
                sign,
                bound: Default::default(),
                r2r: None,
            })
        };
        let mut stages = Vec::new();
        match self.kind {
            Kind::Dft { .. } => {
                stages.push(trailing(FftType::C2c, &sh, &sh, Buf::In, Buf::Out)?);
                for k in (0..split).rev() {
                    stages.push(leading(k, Buf::Out)?);
                }
            }
            Kind::R2c => {
                stages.push(trailing(FftType::R2c, &sh, &csh, Buf::In, Buf::Out)?);
                for k in (0..split).rev() {
                    stages.push(leading(k, Buf::Out)?);
                }
            }
            Kind::C2r => {
                for k in 0..split {
                    stages.push(leading(k, Buf::In)?);
                }
                stages.push(trailing(FftType::C2r, &csh, &sh, Buf::In, Buf::Out)?);
            }
            Kind::R2r(ref kinds) => {
                let mut work = 0usize;
                for (d, &k) in kinds.iter().enumerate() {
                    let n = sh[d];
                    let logical = twins::r2r_logical_size(k, n as usize) as i64;
                    let inner: i64 = sh[d + 1..].iter().product();
                    let outer = batch as i64 * sh[..d].iter().product::<i64>();
                    let lines = outer * inner;
                    work = work.max(lines as usize * logical as usize * elem_bytes::<T>(true));
                    let lay = Layout::packed(&[logical]);
                    let plan = CufftPlan::new(&[logical], &lay, &lay, lines, FftType::C2c, p)?;
                    let from = if d == 0 { Buf::In } else { Buf::Out };
                    let axis = R2rAxis {
                        kind: k as i32,
                        n,
                        logical,
                        inner,
                    };
                    stages.push(Stage {
                        plan,
                        from,
                        to: Buf::Out,
                        outer: outer as usize,
                        in_step: 0,
                        out_step: 0,
                        sign: twins::r2r_fft_sign(k),
                        bound: Default::default(),
                        r2r: Some(axis),
                    });
                }
                return Ok(Stages {
                    list: stages,
                    work_bytes: work,
                    batch,
                });
            }
        }
        Ok(Stages {
            list: stages,
            work_bytes: 0,
            batch,
        })
    }

    /// Runs `stages` on packed device buffers, on `stream`.
    unsafe fn run_stages(
        &self,
        stages: &Stages,
        din: u64,
        dout: u64,
        work: u64,
        stream: cu::CUstream,
    ) -> Result<()> {
        if let Some(s) = &self.split {
            return s.run(din, dout, work, stages.batch, stream);
        }
        let (ib, ob) = (elem_bytes::<T>(true) as u64, elem_bytes::<T>(true) as u64);
        for s in &stages.list {
            if s.bound.get() != stream as usize {
                s.plan.set_stream(stream)?;
                s.bound.set(stream as usize);
            }
            let base = |b: Buf| if b == Buf::In { din } else { dout };
            if let Some(a) = s.r2r {
                self.run_r2r_axis(s, a, base(s.from), base(s.to), work, stream)?;
                continue;
            }
            for o in 0..s.outer as u64 {
                // Leading passes work on complex buffers; the trailing stage runs once.
                let i = base(s.from) + o * s.in_step as u64 * ib;
                let out = base(s.to) + o * s.out_step as u64 * ob;
                s.plan.exec(i, out, s.sign)?;
            }
        }
        if self.kind == Kind::R2c {
            self.zero_self_conjugate_imaginary_parts(stages.batch, dout, stream)?;
        }
        Ok(())
    }

    /// FFTW's r2c leaves exactly +0 in the imaginary parts of the bins that are their own
    /// conjugates (index 0 or n/2 along every dimension); cuFFT leaves rounding noise there. One
    /// pitched memset per such bin zeroes it in every transform of the packed output.
    unsafe fn zero_self_conjugate_imaginary_parts(
        &self,
        batch: usize,
        dout: u64,
        stream: cu::CUstream,
    ) -> Result<()> {
        let cb = elem_bytes::<T>(true);
        let per_transform: usize = self.out_dims.iter().map(|d| d.n).product::<usize>() * cb;
        let words = std::mem::size_of::<T>() / 4;
        for k in crate::problem::self_conjugate_bins(&self.shape) {
            let imaginary = dout + (k * cb + std::mem::size_of::<T>()) as u64;
            check(
                cu::cuMemsetD2D32Async(imaginary, per_transform, 0, words, batch, stream),
                "cuMemsetD2D32Async",
            )?;
        }
        Ok(())
    }

    /// One r2r axis: pre kernel, c2c of every line, post kernel, one launch each.
    unsafe fn run_r2r_axis(
        &self,
        s: &Stage,
        a: R2rAxis,
        from: u64,
        to: u64,
        work: u64,
        stream: cu::CUstream,
    ) -> Result<()> {
        let suffix = if T::PRECISION == crate::problem::Precision::F32 {
            "f32"
        } else {
            "f64"
        };
        let pre = kernels::function(&self.dev, Source::R2r, &format!("r2r_pre_{suffix}"))?;
        let post = kernels::function(&self.dev, Source::R2r, &format!("r2r_post_{suffix}"))?;
        // Every line of the axis in one launch each way. (A launch per group of lines made the
        // middle axis of a 64³ transform 128 launches: 3-D r2r on an H100 took 0.70 ms against
        // the CPU's 0.49.)
        let l = Lines::along_axis(a.n as isize, a.inner as isize);
        let mut lines = s.outer as i64 * a.inner;
        let (mut stride, mut dist) = (l.stride as i64, l.dist as i64);
        let (mut group, mut group_dist) = (l.group as i64, l.group_dist as i64);
        let (mut kind, mut n, mut big_n) = (a.kind, a.n, a.logical);
        let (mut src, mut z, mut off) = (from, work, l.offset as i64);
        let mut params: [*mut c_void; 11] = [
            &mut kind as *mut _ as _,
            &mut n as *mut _ as _,
            &mut big_n as *mut _ as _,
            &mut lines as *mut _ as _,
            &mut src as *mut _ as _,
            &mut off as *mut _ as _,
            &mut stride as *mut _ as _,
            &mut dist as *mut _ as _,
            &mut group as *mut _ as _,
            &mut group_dist as *mut _ as _,
            &mut z as *mut _ as _,
        ];
        kernels::launch(&self.dev, pre, (lines * big_n) as u64, stream, &mut params)?;
        s.plan.exec(work, work, s.sign)?;
        let mut dst = to;
        let mut params: [*mut c_void; 11] = [
            &mut kind as *mut _ as _,
            &mut n as *mut _ as _,
            &mut big_n as *mut _ as _,
            &mut lines as *mut _ as _,
            &mut z as *mut _ as _,
            &mut dst as *mut _ as _,
            &mut off as *mut _ as _,
            &mut stride as *mut _ as _,
            &mut dist as *mut _ as _,
            &mut group as *mut _ as _,
            &mut group_dist as *mut _ as _,
        ];
        kernels::launch(&self.dev, post, (lines * n) as u64, stream, &mut params)?;
        Ok(())
    }

    /// A strided copy between a caller's device array and a packed device buffer (`gather`:
    /// into the buffer), on `stream`, by the `strided_copy` kernel: each complex value is two
    /// reals `im - re` apart, so interleaved and split arrays are one case.
    unsafe fn device_copy(
        &self,
        a: ArrayPtr,
        packed: u64,
        gather: bool,
        stream: cu::CUstream,
    ) -> Result<()> {
        let (dims, input) = if gather {
            (&self.in_dims, true)
        } else {
            (&self.out_dims, false)
        };
        let unit = std::mem::size_of::<T>() as i64;
        let (base, comp) = match a {
            ArrayPtr::Real(p) => (p as u64, None),
            ArrayPtr::Complex { re, im } => (re as u64, Some((im as i64 - re as i64) / unit)),
        };
        let mut n: Vec<i64> = Vec::new();
        let mut caller: Vec<i64> = Vec::new();
        for l in &self.loops {
            n.push(l.n as i64);
            caller.push((if input { l.is } else { l.os }) as i64);
        }
        for d in dims {
            n.push(d.n as i64);
            caller.push(d.s as i64);
        }
        if let Some(c) = comp {
            n.push(2);
            caller.push(c);
        }
        if n.len() > twins::MAX_RANK {
            return Err(Error::unsupported(format!(
                "device arrays with {} strided dimensions (at most {} are supported on the device)",
                n.len(),
                twins::MAX_RANK
            )));
        }
        let mut packed_strides = vec![0i64; n.len()];
        let mut acc = 1;
        for i in (0..n.len()).rev() {
            packed_strides[i] = acc;
            acc *= n[i];
        }
        let (src_s, dst_s) = if gather {
            (&caller, &packed_strides)
        } else {
            (&packed_strides, &caller)
        };
        let mut shape = twins::StridedShape::new(&n, src_s, dst_s);
        let mut rank = n.len() as i32;
        let (mut src, mut dst) = if gather {
            (base, packed)
        } else {
            (packed, base)
        };
        let (mut so, mut dof) = (0i64, 0i64);
        let suffix = if T::PRECISION == crate::problem::Precision::F32 {
            "f32"
        } else {
            "f64"
        };
        let f = kernels::function(&self.dev, Source::Layout, &format!("strided_copy_{suffix}"))?;
        let mut params: [*mut c_void; 6] = [
            &mut rank as *mut _ as _,
            &mut shape as *mut _ as _,
            &mut src as *mut _ as _,
            &mut so as *mut _ as _,
            &mut dst as *mut _ as _,
            &mut dof as *mut _ as _,
        ];
        kernels::launch(&self.dev, f, acc as u64, stream, &mut params)
    }

    /// Is one side laid out exactly as the packed device buffer (interleaved, row-major,
    /// transforms one after the other)? Then it moves as one contiguous byte range.
    fn is_packed(&self, a: ArrayPtr, dims: &[Strided], elems: usize, input: bool) -> bool {
        let unit = std::mem::size_of::<T>();
        let scalars = match a {
            ArrayPtr::Real(_) => 1isize,
            ArrayPtr::Complex { re, im } if im == re + unit => 2,
            ArrayPtr::Complex { .. } => return false,
        };
        let mut expect = scalars;
        for d in dims.iter().rev() {
            if d.n > 1 && d.s != expect {
                return false;
            }
            expect *= d.n as isize;
        }
        let mut expect = elems as isize * scalars;
        for l in self.loops.iter().rev() {
            let s = if input { l.is } else { l.os };
            if l.n > 1 && s != expect {
                return false;
            }
            expect *= l.n;
        }
        true
    }

    /// Bytes spanned by one side's array (for the pinned/device check), from its base.
    fn extent_bytes(&self, dims: &[Strided], input: bool, complex: bool) -> usize {
        let mut hi = 0isize;
        for d in dims {
            hi += (d.n as isize - 1).max(0) * d.s.max(0);
        }
        for l in &self.loops {
            hi += (l.n - 1).max(0) * (if input { l.is } else { l.os }).max(0);
        }
        (hi as usize + if complex { 2 } else { 1 }) * std::mem::size_of::<T>()
    }

    /// Runs every transform on the given arrays.
    ///
    /// # Safety
    /// The arrays must hold every element the problem addresses.
    /// On failure, says whether the caller may recompute elsewhere: not when an in-place array
    /// was already partly overwritten.
    pub unsafe fn execute(&self, input: ArrayPtr, output: ArrayPtr) -> Result<(), Failure> {
        let g = &*self.dev;
        if g.is_lost() {
            return Err(Error::new(super::ErrorKind::DeviceLost, "the device was reset").into());
        }
        super::fault::at_execute(g.ordinal)?;
        g.check_alive()?;
        let mut st = self.state.lock();
        let key = (input, output);
        let (in_side, out_side) = match st.last_sides {
            Some((k, sides)) if k == key => sides,
            _ => {
                let in_mem = memory_of(
                    g,
                    input.base(),
                    self.extent_bytes(&self.in_dims, true, self.in_complex),
                );
                let out_mem = memory_of(
                    g,
                    output.base(),
                    self.extent_bytes(&self.out_dims, false, self.out_complex),
                );
                let in_packed = self.is_packed(input, &self.in_dims, self.in_elems, true);
                let out_packed = self.is_packed(output, &self.out_dims, self.out_elems, false);
                let sides = (Side::of(in_mem, in_packed), Side::of(out_mem, out_packed));
                st.last_sides = Some((key, sides));
                sides
            }
        };
        let run = Run {
            t: self,
            g,
            input,
            output,
            in_side,
            out_side,
        };
        run.go(&mut st)
    }
}

/// A failed GPU execute, and how much of the caller's output it had written.
#[derive(Debug)]
pub struct Failure {
    pub error: Error,
    pub written: Written,
}

/// How far a failed execute got into the caller's output array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// Nothing was written.
    Nothing,
    /// Transforms `0..k` (in loop order) are written and right; none after them was touched.
    Leading(usize),
    /// Some output was written, not in whole leading transforms (or on the device).
    Unknown,
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        Failure {
            error,
            written: Written::Nothing,
        }
    }
}

/// Block states of a chunk's output: not started, on its way into the caller's array, there.
const BLOCK_IDLE: u8 = 0;
const BLOCK_STARTED: u8 = 1;
const BLOCK_DONE: u8 = 2;

/// How one side's data reaches the packed device buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// Pinned and packed: DMA straight from / to the caller's memory.
    HostDirect,
    /// Pageable but packed: memcpy through staging blocks.
    HostCopy,
    /// Strided: gather / scatter through staging blocks.
    HostStrided,
    /// Device memory, packed: used in place.
    Device,
    /// Device memory, strided: copied to / from a packed buffer by the layout kernel.
    DeviceStrided,
}

impl Side {
    fn of(m: Memory, packed: bool) -> Side {
        match (m, packed) {
            (Memory::Pinned, true) => Side::HostDirect,
            (Memory::Pageable, true) => Side::HostCopy,
            (Memory::Pageable | Memory::Pinned, false) => Side::HostStrided,
            (Memory::Device, true) => Side::Device,
            (Memory::Device, false) => Side::DeviceStrided,
        }
    }
    fn host(self) -> bool {
        !matches!(self, Side::Device | Side::DeviceStrided)
    }
}

/// A unit of host work: move one block of a chunk's input in or output out.
#[derive(Clone, Copy, Debug)]
struct Block {
    chunk: usize,
    input: bool,
    /// Global block number among the inputs or the outputs (its signal's index).
    id: usize,
    /// For packed sides: byte range within the chunk; for strided: transform range.
    first: usize,
    count: usize,
}

/// What the threads of one execute wait on: a change of any [`Signal`] or of the run's stop
/// flag. Waiters sleep on the condition variable instead of spinning; whoever changes a flag
/// calls [`Progress::changed`] after the change.
#[derive(Default)]
struct Progress {
    lock: Mutex<()>,
    changed: Condvar,
}

impl Progress {
    /// Returns once `done()` holds (checked under the lock, so no change is missed).
    fn wait_until(&self, done: impl Fn() -> bool) {
        if done() {
            return;
        }
        let mut guard = self.lock.lock();
        while !done() {
            self.changed.wait(&mut guard);
        }
    }
    /// Wakes the waiters (after a flag they may wait on was set).
    fn changed(&self) {
        drop(self.lock.lock());
        self.changed.notify_all();
    }
}

/// A CUDA event and whether it has been recorded yet (waiting on an unrecorded event is a
/// no-op in CUDA, so waiters first wait for the flag).
struct Signal {
    event: cu::CUevent,
    recorded: AtomicBool,
    progress: Arc<Progress>,
}

impl Signal {
    fn is_recorded(&self) -> bool {
        self.recorded.load(Ordering::Acquire)
    }
    fn wait_recorded(&self) {
        self.progress.wait_until(|| self.is_recorded());
    }
    /// Waits until the event is recorded or `stop` is set; whether it was recorded.
    fn wait_recorded_or(&self, stop: &AtomicBool) -> bool {
        self.progress
            .wait_until(|| self.is_recorded() || stop.load(Ordering::Acquire));
        self.is_recorded()
    }
    /// Marks the event recorded without recording it (releases waiters after a failure).
    fn release(&self) {
        self.recorded.store(true, Ordering::Release);
        self.progress.changed();
    }
    unsafe fn record(&self, s: cu::CUstream) -> Result<()> {
        check(cu::cuEventRecord(self.event, s), "cuEventRecord")?;
        self.release();
        Ok(())
    }
}

// SAFETY: events are usable from any thread of the context.
unsafe impl Sync for Signal {}
unsafe impl Send for Signal {}

struct Run<'a, T: Real> {
    t: &'a GpuTransform<T>,
    g: &'a Device,
    input: ArrayPtr,
    output: ArrayPtr,
    in_side: Side,
    out_side: Side,
}

struct Pools {
    streams: Vec<cu::CUstream>,
    events: Vec<cu::CUevent>,
}

impl Pools {
    fn stream(&mut self, st: &mut State) -> Result<cu::CUstream> {
        if let Some(s) = self.streams.pop() {
            return Ok(s);
        }
        let mut s = std::ptr::null_mut();
        // SAFETY: creates a non-blocking stream of the current context.
        check(
            unsafe {
                cu::cuStreamCreate(&mut s, cu::CUstream_flags::CU_STREAM_NON_BLOCKING as u32)
            },
            "cuStreamCreate",
        )?;
        st.streams.push(s);
        Ok(s)
    }
    fn event(&mut self, st: &mut State) -> Result<cu::CUevent> {
        if let Some(e) = self.events.pop() {
            return Ok(e);
        }
        let mut e = std::ptr::null_mut();
        // SAFETY: creates an event of the current context.
        check(
            unsafe { cu::cuEventCreate(&mut e, cu::CUevent_flags::CU_EVENT_DISABLE_TIMING as u32) },
            "cuEventCreate",
        )?;
        st.events.push(e);
        Ok(e)
    }
}

impl<'a, T: Real> Run<'a, T> {
    /// The chunked pipeline. After a failure, chunks already transformed are still written
    /// out whole, and nothing of a later one is, so that the result says exactly which
    /// transforms are in the caller's output ([`Written`]) and the rest can be recomputed.
    unsafe fn go(&self, st: &mut State) -> Result<(), Failure> {
        let t = self.t;
        let device_side = !self.in_side.host() || !self.out_side.host();
        // Device arrays are transformed in one go; host arrays chunk by chunk.
        let chunk = if device_side { t.howmany } else { t.chunk };
        let chunks = t.howmany.div_ceil(chunk);
        let slots = chunks.min(SLOTS);
        let ib = t.in_elems * elem_bytes::<T>(t.in_complex);
        let ob = t.out_elems * elem_bytes::<T>(t.out_complex);
        let mut pools = Pools {
            streams: st.streams.clone(),
            events: st.events.clone(),
        };
        let compute = match st.compute {
            Some(c) => c,
            None => {
                let c = pools.stream(st)?;
                pools.streams.clear();
                st.streams.retain(|&s| s != c);
                st.compute = Some(c);
                c
            }
        };

        // Device buffers: the caller's when on the device, else from the pool per slot. A c2r
        // destroys its input on the device, so a caller's device input is copied first.
        let mut owned: Vec<u64> = Vec::new();
        let budget = std::cell::Cell::new(super::device_budget());
        let alloc = |bytes: usize, owned: &mut Vec<u64>| -> Result<u64> {
            if bytes > budget.get() {
                return Err(Error::new(
                    super::ErrorKind::OutOfDeviceMemory,
                    format!(
                    "out of memory: {bytes} device bytes exceed what is left of the budget ({})",
                    budget.get()
                ),
                ));
            }
            budget.set(budget.get() - bytes);
            let mut d: cu::CUdeviceptr = 0;
            check(
                cu::cuMemAllocAsync(&mut d, bytes.max(1), compute),
                "cuMemAllocAsync",
            )?;
            owned.push(d);
            Ok(d)
        };
        let result = (|| -> Result<(), Failure> {
            // Stages per chunk size (made once per plan and kept).
            let full = chunk.min(t.howmany);
            let last = t.howmany - (chunks - 1) * chunk;
            let work_bytes = t
                .stages_for(st, full)?
                .work_bytes
                .max(t.stages_for(st, last)?.work_bytes);
            let work = if work_bytes > 0 {
                alloc(work_bytes, &mut owned)?
            } else {
                0
            };
            let mut din = Vec::new();
            let mut dout = Vec::new();
            for _ in 0..slots {
                din.push(match self.in_side {
                    Side::Device if !matches!(t.kind, Kind::C2r) => self.input.base() as u64,
                    Side::Device => {
                        let d = alloc(ib * chunk, &mut owned)?;
                        check(
                            cu::cuMemcpyDtoDAsync_v2(
                                d,
                                self.input.base() as u64,
                                ib * chunk,
                                compute,
                            ),
                            "cuMemcpyDtoDAsync",
                        )?;
                        d
                    }
                    _ => alloc(ib * chunk, &mut owned)?,
                });
                dout.push(if self.out_side == Side::Device {
                    self.output.base() as u64
                } else {
                    alloc(ob * chunk, &mut owned)?
                });
            }
            if self.in_side == Side::DeviceStrided {
                t.device_copy(self.input, din[0], true, compute)?;
            }

            // The blocks to move, in the order host threads take them: the inputs of chunk c,
            // then the outputs of chunk c-1, so transfers both ways and compute overlap.
            let blocks_of = |c: usize, input: bool, next_id: &mut usize| -> Vec<Block> {
                let side = if input { self.in_side } else { self.out_side };
                let first_t = c * chunk;
                let n_t = chunk.min(t.howmany - first_t);
                let per = if input { ib } else { ob };
                let mut v = Vec::new();
                match side {
                    Side::Device | Side::DeviceStrided => {}
                    Side::HostDirect | Side::HostCopy => {
                        let bytes = n_t * per;
                        let mut off = 0;
                        while off < bytes {
                            let len = BLOCK_BYTES.min(bytes - off);
                            v.push(Block {
                                chunk: c,
                                input,
                                id: *next_id,
                                first: off,
                                count: len,
                            });
                            *next_id += 1;
                            off += len;
                        }
                    }
                    Side::HostStrided => {
                        let per_block = (BLOCK_BYTES / per.max(1)).max(1);
                        let mut i = 0;
                        while i < n_t {
                            let k = per_block.min(n_t - i);
                            v.push(Block {
                                chunk: c,
                                input,
                                id: *next_id,
                                first: i,
                                count: k,
                            });
                            *next_id += 1;
                            i += k;
                        }
                    }
                }
                v
            };
            let (mut in_id, mut out_id) = (0usize, 0usize);
            let mut in_blocks: Vec<Vec<Block>> = Vec::new();
            let mut out_blocks: Vec<Vec<Block>> = Vec::new();
            for c in 0..chunks {
                in_blocks.push(blocks_of(c, true, &mut in_id));
                out_blocks.push(blocks_of(c, false, &mut out_id));
            }
            let mut order: Vec<Block> = Vec::new();
            for c in 0..chunks {
                order.extend(&in_blocks[c]);
                if c > 0 {
                    order.extend(&out_blocks[c - 1]);
                }
            }
            order.extend(&out_blocks[chunks - 1]);

            let progress = Arc::new(Progress::default());
            let signal = |pools: &mut Pools, st: &mut State| -> Result<Signal> {
                Ok(Signal {
                    event: pools.event(st)?,
                    recorded: AtomicBool::new(false),
                    progress: progress.clone(),
                })
            };
            let in_sig: Vec<Signal> = (0..in_id)
                .map(|_| signal(&mut pools, st))
                .collect::<Result<_>>()?;
            let out_sig: Vec<Signal> = (0..out_id)
                .map(|_| signal(&mut pools, st))
                .collect::<Result<_>>()?;
            let comp_sig: Vec<Signal> = (0..chunks)
                .map(|_| signal(&mut pools, st))
                .collect::<Result<_>>()?;

            let staged = self.in_side == Side::HostCopy
                || self.in_side == Side::HostStrided
                || self.out_side == Side::HostCopy
                || self.out_side == Side::HostStrided;
            let workers = if order.is_empty() {
                0
            } else if staged {
                t.movers.min(order.len())
            } else {
                2.min(order.len())
            };
            let mut worker_streams = Vec::new();
            for _ in 0..workers {
                worker_streams.push((pools.stream(st)?, pools.stream(st)?));
            }
            if workers > 0 && !owned.is_empty() {
                // The workers' streams use the new buffers: make the allocations visible first.
                check(cu::cuStreamSynchronize(compute), "cuStreamSynchronize")?;
            }
            let computed: Vec<AtomicBool> = (0..chunks).map(|_| AtomicBool::new(false)).collect();
            let out_state: Vec<std::sync::atomic::AtomicU8> = (0..out_id)
                .map(|_| std::sync::atomic::AtomicU8::new(BLOCK_IDLE))
                .collect();
            let next = AtomicUsize::new(0);
            let failed: Mutex<Option<Error>> = Mutex::new(None);
            let stop = AtomicBool::new(false);
            let fail = |e: Error| {
                stop.store(true, Ordering::Release);
                failed.lock().get_or_insert(e);
                progress.changed();
            };
            let stages = &st.stages;

            std::thread::scope(|scope| {
                for &(s_in, s_out) in &worker_streams {
                    // Stream handles as integers: they may cross threads (CUDA allows it).
                    let (s_in, s_out) = (s_in as usize, s_out as usize);
                    let (order, next, in_sig, out_sig, comp_sig, din, dout) =
                        (&order, &next, &in_sig, &out_sig, &comp_sig, &din, &dout);
                    let (computed, out_state) = (&computed, &out_state);
                    let (fail, stop) = (&fail, &stop);
                    scope.spawn(move || {
                        let (s_in, s_out) = (s_in as cu::CUstream, s_out as cu::CUstream);
                        if let Err(e) = self.g.bind() {
                            return fail(e);
                        }
                        let mut mover = Mover {
                            g: self.g,
                            slots: Vec::new(),
                            pending: Vec::new(),
                        };
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            if i >= order.len() {
                                break;
                            }
                            let b = order[i];
                            // After a failure only the outputs of chunks already transformed
                            // still move (so that chunks are written whole or not at all).
                            if b.input && stop.load(Ordering::Acquire) {
                                continue;
                            }
                            let r = if b.input {
                                self.move_in(
                                    &b,
                                    &mut mover,
                                    s_in,
                                    din[b.chunk % slots],
                                    chunk,
                                    ib,
                                    in_sig,
                                    comp_sig,
                                    slots,
                                )
                            } else {
                                comp_sig[b.chunk].wait_recorded();
                                if !computed[b.chunk].load(Ordering::Acquire) {
                                    continue; // the chunk failed, or came after a failure
                                }
                                out_state[b.id].store(BLOCK_STARTED, Ordering::Release);
                                let r = self.move_out(
                                    &b,
                                    &mut mover,
                                    s_out,
                                    dout[b.chunk % slots],
                                    chunk,
                                    ob,
                                    out_sig,
                                    comp_sig,
                                );
                                // A direct DMA into the caller's array is done only once its
                                // event has fired (settled after the workers finish).
                                if r.is_ok() && self.out_side != Side::HostDirect {
                                    out_state[b.id].store(BLOCK_DONE, Ordering::Release);
                                }
                                r
                            };
                            if let Err(e) = r {
                                fail(e);
                                break;
                            }
                        }
                        mover.finish();
                    });
                }
                // The calling thread issues the transforms as their inputs arrive.
                let r = (|| -> Result<()> {
                    for c in 0..chunks {
                        for b in &in_blocks[c] {
                            if !in_sig[b.id].wait_recorded_or(&stop) {
                                return Ok(());
                            }
                            check(
                                cu::cuStreamWaitEvent(compute, in_sig[b.id].event, 0),
                                "cuStreamWaitEvent",
                            )?;
                        }
                        if c >= slots {
                            for b in &out_blocks[c - slots] {
                                if !out_sig[b.id].wait_recorded_or(&stop) {
                                    return Ok(());
                                }
                                check(
                                    cu::cuStreamWaitEvent(compute, out_sig[b.id].event, 0),
                                    "cuStreamWaitEvent",
                                )?;
                            }
                        }
                        let n_t = chunk.min(t.howmany - c * chunk);
                        t.run_stages(
                            &stages[&n_t],
                            din[c % slots],
                            dout[c % slots],
                            work,
                            compute,
                        )?;
                        if self.out_side == Side::DeviceStrided {
                            t.device_copy(self.output, dout[c % slots], false, compute)?;
                        }
                        // The flag is set before the signal, which workers wait on before
                        // reading it (and cleared again, before the failure path releases
                        // them, if recording fails).
                        computed[c].store(true, Ordering::Release);
                        if let Err(e) = comp_sig[c].record(compute) {
                            computed[c].store(false, Ordering::Release);
                            return Err(e);
                        }
                    }
                    Ok(())
                })();
                if let Err(e) = r {
                    fail(e);
                    // Unblock workers waiting for transforms that will not come.
                    for s in &comp_sig {
                        s.release();
                    }
                }
            });
            let mut synced = Ok(());
            for &(a, b) in &worker_streams {
                synced = synced
                    .and(check(cu::cuStreamSynchronize(a), "cuStreamSynchronize"))
                    .and(check(cu::cuStreamSynchronize(b), "cuStreamSynchronize"));
            }
            let error = match failed.lock().take() {
                Some(e) => e,
                None => {
                    return synced
                        .and(check(
                            cu::cuStreamSynchronize(compute),
                            "cuStreamSynchronize",
                        ))
                        .map_err(|e| Failure {
                            error: e,
                            written: self.written(&out_blocks, &out_state, &out_sig, chunk),
                        })
                }
            };
            Err(Failure {
                error,
                written: self.written(&out_blocks, &out_state, &out_sig, chunk),
            })
        })();
        for d in owned {
            cu::cuMemFreeAsync(d, compute);
        }
        if result.is_err() {
            cu::cuStreamSynchronize(compute);
        }
        result
    }

    /// How much of the caller's output a failed run wrote: whole leading chunks, nothing, or
    /// something else. A direct DMA counts once its event reports success.
    unsafe fn written(
        &self,
        out_blocks: &[Vec<Block>],
        out_state: &[std::sync::atomic::AtomicU8],
        out_sig: &[Signal],
        chunk: usize,
    ) -> Written {
        if !self.out_side.host() {
            return Written::Unknown;
        }
        let state = |b: &Block| {
            let s = out_state[b.id].load(Ordering::Acquire);
            if s == BLOCK_STARTED
                && self.out_side == Side::HostDirect
                && cu::cuEventQuery(out_sig[b.id].event) == cu::CUresult::CUDA_SUCCESS
            {
                BLOCK_DONE
            } else {
                s
            }
        };
        let whole = out_blocks
            .iter()
            .take_while(|c| !c.is_empty() && c.iter().all(|b| state(b) == BLOCK_DONE))
            .count();
        if out_blocks[whole..]
            .iter()
            .flatten()
            .any(|b| state(b) != BLOCK_IDLE)
        {
            return Written::Unknown;
        }
        match whole {
            0 => Written::Nothing,
            k => Written::Leading((k * chunk).min(self.t.howmany)),
        }
    }

    /// Host pointer of byte `off` of chunk `c`'s packed data on a packed side.
    fn packed_ptr(&self, a: ArrayPtr, chunk: usize, c: usize, per: usize, off: usize) -> usize {
        a.base() + c * chunk * per + off
    }

    #[allow(clippy::too_many_arguments)]
    unsafe fn move_in(
        &self,
        b: &Block,
        m: &mut Mover,
        s: cu::CUstream,
        din: u64,
        chunk: usize,
        ib: usize,
        in_sig: &[Signal],
        comp_sig: &[Signal],
        slots: usize,
    ) -> Result<()> {
        if b.chunk >= slots {
            // The device slot is free once the transform of chunk c-SLOTS has read it.
            let prev = &comp_sig[b.chunk - slots];
            prev.wait_recorded();
            check(cu::cuStreamWaitEvent(s, prev.event, 0), "cuStreamWaitEvent")?;
        }
        let t = self.t;
        let (dst, bytes) = match self.in_side {
            Side::HostStrided => (din + (b.first * ib) as u64, b.count * ib),
            _ => (din + b.first as u64, b.count),
        };
        let src: *const u8 = match self.in_side {
            Side::HostDirect => {
                self.packed_ptr(self.input, chunk, b.chunk, ib, b.first) as *const u8
            }
            Side::HostCopy => {
                let blk = m.slot(bytes)?;
                std::ptr::copy_nonoverlapping(
                    self.packed_ptr(self.input, chunk, b.chunk, ib, b.first) as *const u8,
                    blk,
                    bytes,
                );
                blk
            }
            Side::HostStrided => {
                let blk = m.slot(bytes)?;
                for k in 0..b.count {
                    let (io, _) = instance_offsets(&t.loops, b.chunk * chunk + b.first + k);
                    let at = blk.add(k * ib);
                    match self.input {
                        ArrayPtr::Complex { re, im } => {
                            let dst =
                                std::slice::from_raw_parts_mut(at as *mut Complex<T>, t.in_elems);
                            gather_complex(re as *const T, im as *const T, io, &t.in_dims, dst)
                        }
                        ArrayPtr::Real(p) => gather_real(
                            p as *const T,
                            io,
                            &t.in_dims,
                            std::slice::from_raw_parts_mut(at as *mut T, t.in_elems),
                        ),
                    }
                }
                blk
            }
            Side::Device | Side::DeviceStrided => unreachable!("device sides have no blocks"),
        };
        check(
            cu::cuMemcpyHtoDAsync_v2(dst, src as *const _, bytes, s),
            "cuMemcpyHtoDAsync",
        )?;
        in_sig[b.id].record(s)?;
        if self.in_side != Side::HostDirect {
            m.used(in_sig[b.id].event);
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    unsafe fn move_out(
        &self,
        b: &Block,
        m: &mut Mover,
        s: cu::CUstream,
        dout: u64,
        chunk: usize,
        ob: usize,
        out_sig: &[Signal],
        comp_sig: &[Signal],
    ) -> Result<()> {
        let done = &comp_sig[b.chunk];
        done.wait_recorded();
        check(cu::cuStreamWaitEvent(s, done.event, 0), "cuStreamWaitEvent")?;
        let t = self.t;
        let (src, bytes) = match self.out_side {
            Side::HostStrided => (dout + (b.first * ob) as u64, b.count * ob),
            _ => (dout + b.first as u64, b.count),
        };
        if self.out_side == Side::HostDirect {
            let dst = self.packed_ptr(self.output, chunk, b.chunk, ob, b.first);
            check(
                cu::cuMemcpyDtoHAsync_v2(dst as *mut _, src, bytes, s),
                "cuMemcpyDtoHAsync",
            )?;
            return out_sig[b.id].record(s);
        }
        let blk = m.slot(bytes)?;
        check(
            cu::cuMemcpyDtoHAsync_v2(blk as *mut _, src, bytes, s),
            "cuMemcpyDtoHAsync",
        )?;
        out_sig[b.id].record(s)?;
        check(
            cu::cuEventSynchronize(out_sig[b.id].event),
            "cuEventSynchronize",
        )?;
        match self.out_side {
            Side::HostCopy => {
                std::ptr::copy_nonoverlapping(
                    blk,
                    self.packed_ptr(self.output, chunk, b.chunk, ob, b.first) as *mut u8,
                    bytes,
                );
            }
            Side::HostStrided => {
                for k in 0..b.count {
                    let (_, oo) = instance_offsets(&t.loops, b.chunk * chunk + b.first + k);
                    let at = blk.add(k * ob);
                    match self.output {
                        ArrayPtr::Complex { re, im } => {
                            let src =
                                std::slice::from_raw_parts(at as *const Complex<T>, t.out_elems);
                            scatter_complex(src, re as *mut T, im as *mut T, oo, &t.out_dims)
                        }
                        ArrayPtr::Real(p) => scatter_real(
                            std::slice::from_raw_parts(at as *const T, t.out_elems),
                            p as *mut T,
                            oo,
                            &t.out_dims,
                        ),
                    }
                }
            }
            _ => unreachable!("direct and device outputs handled above"),
        }
        Ok(())
    }
}

/// A host thread's two staging blocks, used alternately: while one's DMA runs, the thread
/// fills the other.
struct Mover<'a> {
    g: &'a Device,
    slots: Vec<PinnedBlock>,
    /// The event after the last transfer from each slot (None: free).
    pending: Vec<Option<cu::CUevent>>,
}

impl Mover<'_> {
    /// The next slot, at least `bytes` long, once its previous transfer is done.
    unsafe fn slot(&mut self, bytes: usize) -> Result<*mut u8> {
        // Rotate: the slot used longest ago goes first.
        if self.slots.len() < 2 {
            self.slots.push(staging::take(self.g, bytes)?);
            self.pending.push(None);
        } else {
            self.slots.rotate_left(1);
            self.pending.rotate_left(1);
        }
        let last = self.slots.len() - 1;
        if let Some(e) = self.pending[last].take() {
            check(cu::cuEventSynchronize(e), "cuEventSynchronize")?;
        }
        if self.slots[last].len < bytes {
            let old = std::mem::replace(&mut self.slots[last], staging::take(self.g, bytes)?);
            staging::give(self.g, old);
        }
        Ok(self.slots[last].ptr)
    }
    fn used(&mut self, e: cu::CUevent) {
        if let Some(p) = self.pending.last_mut() {
            *p = Some(e);
        }
    }
    fn finish(self) {
        for (b, e) in self.slots.into_iter().zip(self.pending) {
            if let Some(e) = e {
                // SAFETY: an event of this context.
                unsafe { cu::cuEventSynchronize(e) };
            }
            staging::give(self.g, b);
        }
    }
}
