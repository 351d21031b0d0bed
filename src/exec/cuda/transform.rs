//! A transform on the GPU over device arrays: the caller's (an FFTW plan given device
//! arrays) or a Program's device buffers (an `Fft` step that cuFFT's plans of the Program
//! executor cannot take: r2r, split-half, layouts the layout kernel packs).
//!
//! Every transform works on packed arrays: instance after instance, row-major, complex
//! interleaved. cuFFT runs there (`stages`); arrays that are packed are used where they are,
//! others are gathered into and scattered out of packed buffers by the layout kernel. Host
//! arrays never come here: the planner lowers their transform to a Program that streams them
//! through device buffers (`passes::stream`).
//!
//! Rank 1 to 3 is one cuFFT plan; higher ranks are the trailing three dimensions and then one
//! strided pass per leading dimension. A step made by [`GpuTransform::split_half`] runs the
//! tensor-core kernels of `split_half` on the packed buffers instead of cuFFT (1-D c2c f32 of
//! 16^K points), with everything else here unchanged.

use super::cufft::{CufftPlan, FftType, Layout};
use super::kernels::{self, Source};
use super::split_half::SplitHalf;
use super::{check, Device, Error, Result};
use crate::exec::cpu::layout::{ArrayPtr, Strided};
use crate::exec::twins::{self, Lines};
use crate::problem::{IoDim, Kind, Problem, R2rKind};
use crate::real::Real;
use cudarc::driver::sys as cu;
use parking_lot::Mutex;
use std::ffi::c_void;
use std::marker::PhantomData;
use std::sync::Arc;

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
    /// The cuFFT stages of every transform (bound to the stream they last ran on).
    stages: Stages,
    /// The stream [`GpuTransform::execute`] runs on (made at its first call).
    compute: Option<cu::CUstream>,
}

// SAFETY: the CUDA handles in State are used under its mutex only.
unsafe impl Send for State {}

impl Drop for State {
    fn drop(&mut self) {
        let g = &self.dev;
        if !g.is_lost() {
            let _ = g.bind();
            // SAFETY: created by this state, destroyed once.
            unsafe {
                if let Some(s) = self.compute {
                    cu::cuStreamSynchronize(s);
                    cu::cuStreamDestroy_v2(s);
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
        // Host arrays stream in and out by tiles (`passes::stream`): in place, each transform
        // must own its locations.
        && (!p.in_place || p.in_place_piecewise())
}

impl<T: Real> GpuTransform<T> {
    /// Prepares the step on `dev` (made current here); its cuFFT plans are made here, so that
    /// planning errors (out of device memory) show at plan time.
    pub fn new(p: &Problem, dev: &Arc<Device>) -> Result<Self> {
        Self::build(p, dev, false)
    }

    /// The step with the split-half tensor-core kernels (`split_half`) in place of cuFFT;
    /// `Err` (unsupported) where they cannot run `p`: not c2c f32 of 16^K points, a device
    /// before compute capability 8.0, NVRTC missing.
    pub fn split_half(p: &Problem, dev: &Arc<Device>) -> Result<Self> {
        if T::PRECISION != crate::problem::Precision::F32 {
            return Err(Error::unsupported("the split-half path is f32"));
        }
        Self::build(p, dev, true)
    }

    fn build(p: &Problem, dev: &Arc<Device>, split: bool) -> Result<Self> {
        super::fault::at_plan()?;
        let g = dev.clone();
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
            dev: g.clone(),
            split,
            state: Mutex::new(State {
                dev: g,
                stages: Stages {
                    list: Vec::new(),
                    work_bytes: 0,
                    batch: 0,
                },
                compute: None,
            }),
            _t: PhantomData,
        };
        let stages = t.make_stages(howmany)?;
        t.state.lock().stages = stages;
        Ok(t)
    }

    pub fn describe(&self) -> String {
        let what = match &self.split {
            Some(s) => s.describe(),
            None => "cufft".to_string(),
        };
        format!("{what} of {} transform(s) on device arrays", self.howmany)
    }

    /// The stages of a run of `batch` transforms: cuFFT plans, or for the split-half kernels
    /// none, only the work bytes they need.
    fn make_stages(&self, batch: usize) -> Result<Stages> {
        if let Some(s) = &self.split {
            return Ok(Stages {
                list: Vec::new(),
                work_bytes: s.work_bytes(batch),
                batch,
            });
        }
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
        let trailing = |ty: FftType, ish: &[i64], osh: &[i64]| {
            Self::trailing_stage(
                ty,
                &sh[split..],
                &ish[split..],
                &osh[split..],
                tail_batch,
                sign,
            )
        };
        let leading = |k: usize, buf: Buf| Self::leading_stage(&csh, k, buf, batch, sign);
        let mut stages = Vec::new();
        match self.kind {
            Kind::Dft { .. } => {
                stages.push(trailing(FftType::C2c, &sh, &sh)?);
                for k in (0..split).rev() {
                    stages.push(leading(k, Buf::Out)?);
                }
            }
            Kind::R2c => {
                stages.push(trailing(FftType::R2c, &sh, &csh)?);
                for k in (0..split).rev() {
                    stages.push(leading(k, Buf::Out)?);
                }
            }
            Kind::C2r => {
                for k in 0..split {
                    stages.push(leading(k, Buf::In)?);
                }
                stages.push(trailing(FftType::C2r, &csh, &sh)?);
            }
            Kind::R2r(ref kinds) => return Self::r2r_stages(kinds, &sh, batch),
        }
        Ok(Stages {
            list: stages,
            work_bytes: 0,
            batch,
        })
    }

    /// One cuFFT plan over the trailing (at most three) dimensions `n` of every transform,
    /// packed `ish` to packed `osh`, `batch` of them, from the input buffer to the output.
    fn trailing_stage(
        ty: FftType,
        n: &[i64],
        ish: &[i64],
        osh: &[i64],
        batch: i64,
        sign: i32,
    ) -> Result<Stage> {
        let plan = CufftPlan::new(
            n,
            &Layout::packed(ish),
            &Layout::packed(osh),
            batch,
            ty,
            T::PRECISION,
        )?;
        Ok(Stage {
            plan,
            from: Buf::In,
            to: Buf::Out,
            outer: 1,
            in_step: 0,
            out_step: 0,
            sign,
            bound: Default::default(),
            r2r: None,
        })
    }

    /// One strided c2c pass along leading dimension k of a complex buffer of shape `csh`, in
    /// place in `buf`, for `batch` transforms.
    fn leading_stage(csh: &[i64], k: usize, buf: Buf, batch: usize, sign: i32) -> Result<Stage> {
        let inner: i64 = csh[k + 1..].iter().product();
        let outer = batch as i64 * csh[..k].iter().product::<i64>();
        let lay = Layout {
            embed: vec![csh[k]],
            stride: inner,
            dist: 1,
        };
        let plan = CufftPlan::new(&[csh[k]], &lay, &lay, inner, FftType::C2c, T::PRECISION)?;
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
    }

    /// An r2r's stages: one pass per axis of shape `sh` (`kinds[d]` along axis `d`), each a
    /// c2c plan of the logical size over every line, and the work bytes the largest needs.
    fn r2r_stages(kinds: &[R2rKind], sh: &[i64], batch: usize) -> Result<Stages> {
        let mut stages = Vec::new();
        let mut work = 0usize;
        for (d, &k) in kinds.iter().enumerate() {
            let n = sh[d];
            let logical = twins::r2r_logical_size(k, n as usize) as i64;
            let inner: i64 = sh[d + 1..].iter().product();
            let outer = batch as i64 * sh[..d].iter().product::<i64>();
            let lines = outer * inner;
            work = work.max(lines as usize * logical as usize * elem_bytes::<T>(true));
            let lay = Layout::packed(&[logical]);
            let plan = CufftPlan::new(&[logical], &lay, &lay, lines, FftType::C2c, T::PRECISION)?;
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
        Ok(Stages {
            list: stages,
            work_bytes: work,
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

    /// Runs every transform on the caller's device arrays, on the step's own stream, and
    /// waits for it.
    ///
    /// # Safety
    /// The arrays must be device memory holding every element the problem addresses.
    pub unsafe fn execute(&self, input: ArrayPtr, output: ArrayPtr) -> Result<()> {
        let g = &*self.dev;
        if g.is_lost() {
            return Err(Error::new(
                super::ErrorKind::DeviceLost,
                "the device was reset",
            ));
        }
        super::fault::at_execute(g.ordinal)?;
        g.check_alive()?;
        let mut st = self.state.lock();
        let compute = match st.compute {
            Some(c) => c,
            None => {
                let mut s = std::ptr::null_mut();
                let flags = cu::CUstream_flags::CU_STREAM_NON_BLOCKING as u32;
                check(cu::cuStreamCreate(&mut s, flags), "cuStreamCreate")?;
                st.compute = Some(s);
                s
            }
        };
        let r = self.run_on(&st, input, output, compute);
        let synced = check(cu::cuStreamSynchronize(compute), "cuStreamSynchronize");
        r.and(synced)
    }

    /// Queues every transform on the device arrays on `stream` (a Program's `Fft` step: the
    /// program's events order it), without waiting.
    ///
    /// # Safety
    /// As [`GpuTransform::execute`]; the arrays stay allocated until the stream has run it.
    pub unsafe fn enqueue(
        &self,
        input: ArrayPtr,
        output: ArrayPtr,
        stream: cu::CUstream,
    ) -> Result<()> {
        self.dev.check_alive()?;
        let st = self.state.lock();
        self.run_on(&st, input, output, stream)
    }

    /// The transforms on `stream`: the caller's arrays used where they are when packed (a c2r's
    /// input copied first: cuFFT overwrites it), else gathered into and scattered out of
    /// packed buffers by the layout kernel; buffers from the stream-ordered allocator.
    unsafe fn run_on(
        &self,
        st: &State,
        input: ArrayPtr,
        output: ArrayPtr,
        stream: cu::CUstream,
    ) -> Result<()> {
        let n = self.howmany;
        let ib = self.in_elems * elem_bytes::<T>(self.in_complex) * n;
        let ob = self.out_elems * elem_bytes::<T>(self.out_complex) * n;
        let packed_in = self.is_packed(input, &self.in_dims, self.in_elems, true);
        let packed_out = self.is_packed(output, &self.out_dims, self.out_elems, false);
        let mut owned: Vec<u64> = Vec::new();
        let mut budget = super::device_budget();
        let mut alloc = |bytes: usize| -> Result<u64> {
            if bytes > budget {
                return Err(Error::new(
                    super::ErrorKind::OutOfDeviceMemory,
                    format!("out of memory: {bytes} device bytes exceed what is left of the budget ({budget})"),
                ));
            }
            budget -= bytes;
            let mut d: cu::CUdeviceptr = 0;
            check(
                cu::cuMemAllocAsync(&mut d, bytes.max(1), stream),
                "cuMemAllocAsync",
            )?;
            owned.push(d);
            Ok(d)
        };
        let r = (|| -> Result<()> {
            let din = match (packed_in, &self.kind) {
                (true, Kind::C2r) => {
                    let d = alloc(ib)?;
                    check(
                        cu::cuMemcpyDtoDAsync_v2(d, input.base() as u64, ib, stream),
                        "cuMemcpyDtoDAsync",
                    )?;
                    d
                }
                (true, _) => input.base() as u64,
                (false, _) => {
                    let d = alloc(ib)?;
                    self.device_copy(input, d, true, stream)?;
                    d
                }
            };
            let dout = if packed_out {
                output.base() as u64
            } else {
                alloc(ob)?
            };
            let work = match st.stages.work_bytes {
                0 => 0,
                bytes => alloc(bytes)?,
            };
            self.run_stages(&st.stages, din, dout, work, stream)?;
            if !packed_out {
                self.device_copy(output, dout, false, stream)?;
            }
            Ok(())
        })();
        for d in owned {
            cu::cuMemFreeAsync(d, stream);
        }
        r
    }
}
