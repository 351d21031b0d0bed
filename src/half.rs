//! Half-storage plans (`fftxh_` in `fftx.h`): transforms over IEEE binary16 arrays, computed in
//! f32 (with `FFTX_HALF_COMPUTE=f16`, powers of two on the GPU take cuFFT's fp16 transform:
//! faster, inside the error bound, but fp16 arithmetic). A plan is the f32 problem of the same layout (strides in
//! real scalars are the same in either width) and one of two ways to run it:
//!
//! - on the GPU (device arrays; host arrays under `FFTX_BACKEND=gpu`, staged as binary16, half
//!   the bytes of f32): `exec::cuda::half::HalfGpu`: cuFFT fp16 (powers of two), our pass
//!   kernels that load binary16, transform in f32 and store binary16 (one per axis, lengths of
//!   radices up to 16 that fit shared memory), or gather kernel, cuFFT f32, scatter kernel;
//! - the CPU twin (host arrays; device arrays the GPU cannot take, copied through the host):
//!   widen the array's extent to f32, run the ordinary f32 plan (the planner picks its
//!   backend), round the output's extent back to nearest, ties to even.
//!
//! Gaps inside an output extent (strided layouts) keep their values: the twin widens them from
//! the output first and rounds them back unchanged (a binary16 value survives f32 exactly).

use crate::exec::cpu::layout::ArrayPtr;
use crate::exec::cuda;
use crate::exec::cuda::half::{DeviceBlock, HalfGpu};
use crate::plan::{on_device, Plan};
use crate::problem::{IoDim, Kind, Precision, Problem};
use once_cell::sync::OnceCell;
use parking_lot::Mutex;

pub use crate::binary16::{f16_from_f32, f32_from_f16};

/// The f32 twin of a half plan: scratch arrays over the extents of the caller's arrays and the
/// ordinary f32 plan over them (a scratch's element k is the caller's scalar `lo + k`).
struct CpuTwin {
    plan: Box<Plan>,
    a: Vec<f32>,
    /// The output's scratch, out of place.
    b: Option<Vec<f32>>,
}

/// How host arrays run on the GPU: staged through device blocks of the arrays' extents.
struct Staged {
    input: DeviceBlock,
    output: Option<DeviceBlock>,
}

pub struct HalfPlan {
    /// The problem, f32, strides in real scalars of either width.
    pub problem: Problem,
    input: usize,
    output: usize,
    flags: u32,
    cpu: OnceCell<crate::error::Result<Mutex<CpuTwin>>>,
    gpu: OnceCell<crate::error::Result<HalfGpu>>,
    staged: OnceCell<crate::error::Result<Mutex<Staged>>>,
    /// Where the plan's arrays are.
    arrays: Arrays,
}

/// Where a pair of caller arrays lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Arrays {
    /// In device (or managed) memory: the GPU takes them in place.
    device: bool,
    /// Managed: the host may read them as soon as an execute returns, so it waits for the GPU
    /// (device arrays are stream-ordered, as cuFFT's).
    managed: bool,
}

impl Arrays {
    fn of(input: usize, output: usize) -> Arrays {
        let device = input != 0 && on_device(ArrayPtr::Real(input), ArrayPtr::Real(output));
        let managed = device
            && cuda::default_device()
                .is_some_and(|g| [input, output].iter().any(|&a| cuda::is_managed(&g, a)));
        Arrays { device, managed }
    }
}

/// Where one execute runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Route {
    Gpu,
    /// Host arrays, staged through the GPU.
    Staged,
    Cpu,
    /// Device arrays the GPU cannot take: through the host and the CPU twin.
    DeviceViaHost,
}

impl HalfPlan {
    /// Plans `kind` over `dims` and `loops` (strides in real scalars) for binary16 arrays
    /// `input` and `output` (NULL: the plan runs on new arrays only).
    pub fn new(
        kind: Kind,
        dims: Vec<IoDim>,
        loops: Vec<IoDim>,
        input: usize,
        output: usize,
        flags: u32,
    ) -> crate::error::Result<HalfPlan> {
        let kind = match kind {
            Kind::Dft { sign } if sign != -1 && sign != 1 => {
                return Err(format!(
                    "sign {sign} is neither FFTX_FORWARD (-1) nor FFTX_BACKWARD (+1)"
                )
                .into())
            }
            k => k,
        };
        let problem = Problem {
            kind,
            dims,
            loops,
            precision: Precision::F32,
            in_place: input == output,
        };
        problem.validate().map_err(|e| e.0)?;
        let (ilo, ihi) = problem.extent(true);
        let (olo, ohi) = problem.extent(false);
        let scalars = (ihi.max(ohi) - ilo.min(olo) + 1) as u128;
        if scalars * 4 > isize::MAX as u128 / 2 {
            return Err(format!("{scalars} scalars overflow the address space").into());
        }
        let arrays = Arrays::of(input, output);
        let plan = HalfPlan {
            problem,
            input,
            output,
            flags,
            cpu: OnceCell::new(),
            gpu: OnceCell::new(),
            staged: OnceCell::new(),
            arrays,
        };
        // Make the plan's route now, so planning errors show and the plan prints it.
        match plan.route(arrays.device) {
            Route::Gpu | Route::Staged => {
                plan.gpu_plan()?;
            }
            Route::Cpu | Route::DeviceViaHost => {
                plan.twin()?;
            }
        }
        Ok(plan)
    }

    fn gpu_plan(&self) -> crate::error::Result<&HalfGpu> {
        self.gpu
            .get_or_init(|| {
                HalfGpu::new(&self.problem).inspect_err(|e| {
                    crate::log::log_warn!(
                        "fftxh: {} runs on the CPU twin: the GPU cannot take it ({})",
                        self.problem.describe(),
                        e.message
                    )
                })
            })
            .as_ref()
            .map_err(|e| e.clone())
    }

    /// The route of arrays in device memory or not.
    fn route(&self, device: bool) -> Route {
        use crate::backend::{backend_setting, BackendSetting};
        // A GPU that cannot take the problem said so once, when it was asked first.
        let gpu_ok = || self.gpu_plan().is_ok();
        match (device, backend_setting()) {
            (true, _) if gpu_ok() => Route::Gpu,
            (true, _) => Route::DeviceViaHost,
            (false, BackendSetting::Gpu) if gpu_ok() => Route::Staged,
            _ => Route::Cpu,
        }
    }

    fn twin(&self) -> crate::error::Result<&Mutex<CpuTwin>> {
        self.cpu
            .get_or_init(|| self.make_twin().map(Mutex::new))
            .as_ref()
            .map_err(|e| e.clone())
    }

    fn make_twin(&self) -> crate::error::Result<CpuTwin> {
        let p = &self.problem;
        let ((ilo, ihi), (olo, ohi)) = (p.extent(true), p.extent(false));
        let array = |v: &mut Vec<f32>, lo: isize, complex: bool| {
            let base = (v.as_mut_ptr() as isize - lo * 4) as usize;
            if complex {
                ArrayPtr::Complex {
                    re: base,
                    im: base + 4,
                }
            } else {
                ArrayPtr::Real(base)
            }
        };
        let (ic, oc) = (p.kind.input_is_complex(), p.kind.output_is_complex());
        let (mut a, b, i, o);
        if p.in_place {
            let lo = ilo.min(olo);
            a = vec![0f32; (ihi.max(ohi) - lo + 1) as usize];
            b = None;
            i = array(&mut a, lo, ic);
            o = array(&mut a, lo, oc);
        } else {
            a = vec![0f32; (ihi - ilo + 1) as usize];
            let mut v = vec![0f32; (ohi - olo + 1) as usize];
            i = array(&mut a, ilo, ic);
            o = array(&mut v, olo, oc);
            b = Some(v);
        }
        let plan = crate::planner::plan::<f32>(p.clone(), i, o, self.flags)?;
        Ok(CpuTwin {
            plan: Box::new(plan),
            a,
            b,
        })
    }

    /// Does the output's extent hold nothing but output elements (no gaps to keep)?
    fn output_dense(&self) -> bool {
        let p = &self.problem;
        let (lo, hi) = p.extent(false);
        let per: isize = p.output_shape().iter().product();
        let complex = 1 + p.kind.output_is_complex() as isize;
        per * p.howmany() as isize * complex == hi - lo + 1
    }

    /// Runs the plan on its own arrays.
    ///
    /// # Safety
    /// The plan's arrays must still be valid for its layout.
    pub unsafe fn execute(&self) -> crate::error::Result<()> {
        if self.input == 0 || self.output == 0 {
            return Err("the plan was made on NULL arrays: execute it with a new-array execute (fftxh_execute_dft, ...)".into());
        }
        self.run(self.input, self.output, self.arrays)
    }

    /// Runs the plan on other binary16 arrays of its layout (in place if and only if the plan
    /// is, as FFTW requires).
    ///
    /// # Safety
    /// The arrays must hold every element the problem addresses.
    pub unsafe fn execute_on(&self, input: usize, output: usize) -> crate::error::Result<()> {
        if input == 0 || output == 0 {
            return Err("NULL array".into());
        }
        if (input == output) != self.problem.in_place {
            return Err(format!(
                "the plan was made {} place: new arrays must be too",
                if self.problem.in_place {
                    "in"
                } else {
                    "out of"
                }
            )
            .into());
        }
        let arrays = if (input, output) == (self.input, self.output) {
            self.arrays
        } else {
            Arrays::of(input, output)
        };
        self.run(input, output, arrays)
    }

    unsafe fn run(&self, input: usize, output: usize, arrays: Arrays) -> crate::error::Result<()> {
        match self.route(arrays.device) {
            Route::Gpu => {
                let g = self.gpu_plan()?;
                g.run(input as u64, output as u64)?;
                if arrays.managed {
                    g.wait()?;
                }
                Ok(())
            }
            Route::Staged => self.staged(input, output),
            Route::Cpu => self.cpu(input as *const u16, output as *mut u16),
            Route::DeviceViaHost => self.device_via_host(input, output),
        }
    }

    /// The CPU twin on host arrays.
    unsafe fn cpu(&self, input: *const u16, output: *mut u16) -> crate::error::Result<()> {
        let p = &self.problem;
        let ((ilo, _), (olo, ohi)) = (p.extent(true), p.extent(false));
        let dense = self.output_dense();
        let mut t = self.twin()?.lock();
        let t = &mut *t;
        if p.in_place {
            let lo = ilo.min(olo);
            widen(&mut t.a, input.offset(lo));
            t.plan.execute()?;
            narrow(
                output.offset(olo),
                &t.a[(olo - lo) as usize..=(ohi - lo) as usize],
            );
        } else {
            widen(&mut t.a, input.offset(ilo));
            let b = t.b.as_mut().expect("out of place: an output scratch");
            if !dense {
                widen(b, output.offset(olo));
            }
            t.plan.execute()?;
            narrow(output.offset(olo), t.b.as_ref().unwrap());
        }
        Ok(())
    }

    /// Host arrays through the GPU: the extents go up as binary16 and the output's comes back.
    unsafe fn staged(&self, input: usize, output: usize) -> crate::error::Result<()> {
        let g = self.gpu_plan()?;
        let p = &self.problem;
        let ((ilo, ihi), (olo, ohi)) = (p.extent(true), p.extent(false));
        let staged = self
            .staged
            .get_or_init(|| {
                let (lo, hi) = if p.in_place {
                    (ilo.min(olo), ihi.max(ohi))
                } else {
                    (ilo, ihi)
                };
                let input = g.block((hi - lo + 1) as usize * 2)?;
                let output = if p.in_place {
                    None
                } else {
                    Some(g.block((ohi - olo + 1) as usize * 2)?)
                };
                Ok(Mutex::new(Staged { input, output }))
            })
            .as_ref()
            .map_err(|e| e.clone())?
            .lock();
        let (lo, hi) = if p.in_place {
            (ilo.min(olo), ihi.max(ohi))
        } else {
            (ilo, ihi)
        };
        let ibase = staged.input.ptr().wrapping_sub((lo * 2) as u64);
        g.upload(
            staged.input.ptr(),
            (input as *const u16).offset(lo) as *const u8,
            (hi - lo + 1) as usize * 2,
        )?;
        let obase = match &staged.output {
            None => ibase,
            Some(o) => {
                if !self.output_dense() {
                    g.upload(
                        o.ptr(),
                        (output as *const u16).offset(olo) as *const u8,
                        (ohi - olo + 1) as usize * 2,
                    )?;
                }
                o.ptr().wrapping_sub((olo * 2) as u64)
            }
        };
        g.run(ibase, obase)?;
        g.download(
            (output as *mut u16).offset(olo) as *mut u8,
            obase.wrapping_add((olo * 2) as u64),
            (ohi - olo + 1) as usize * 2,
        )
    }

    /// Device arrays the GPU path cannot take: copied to the host, the CPU twin, copied back.
    unsafe fn device_via_host(&self, input: usize, output: usize) -> crate::error::Result<()> {
        use cudarc::driver::sys as cu;
        let p = &self.problem;
        let ((ilo, ihi), (olo, ohi)) = (p.extent(true), p.extent(false));
        let lo = ilo.min(olo);
        let hi = ihi.max(ohi);
        let g = crate::exec::cuda::default_device()
            .ok_or_else(|| crate::error::Error::unsupported("no GPU"))?;
        g.bind()?;
        let copy = |r: cu::CUresult, what: &str| crate::exec::cuda::check(r, what);
        // Host copies of the arrays' extents (in place: of their union).
        let (ilo, ihi) = if p.in_place { (lo, hi) } else { (ilo, ihi) };
        let mut hin = vec![0u16; (ihi - ilo + 1) as usize];
        copy(
            cu::cuMemcpyDtoH_v2(
                hin.as_mut_ptr() as *mut _,
                (input as u64).wrapping_add((ilo * 2) as u64),
                hin.len() * 2,
            ),
            "cuMemcpyDtoH",
        )?;
        let hip = hin.as_mut_ptr().offset(-ilo);
        let mut hout = Vec::new();
        let hop = if p.in_place {
            hip
        } else {
            hout = vec![0u16; (ohi - olo + 1) as usize];
            copy(
                cu::cuMemcpyDtoH_v2(
                    hout.as_mut_ptr() as *mut _,
                    (output as u64).wrapping_add((olo * 2) as u64),
                    hout.len() * 2,
                ),
                "cuMemcpyDtoH",
            )?;
            hout.as_mut_ptr().offset(-olo)
        };
        self.cpu(hip, hop)?;
        let result = copy(
            cu::cuMemcpyHtoD_v2(
                (output as u64).wrapping_add((olo * 2) as u64),
                hop.offset(olo) as *const _,
                (ohi - olo + 1) as usize * 2,
            ),
            "cuMemcpyHtoD",
        );
        drop((hin, hout));
        result
    }

    /// What the plan runs, for `fftxh_print_plan`.
    pub fn describe(&self) -> String {
        let how = match self.route(self.arrays.device) {
            Route::Gpu => self.gpu_plan().map(|g| g.describe()).unwrap_or_default(),
            Route::Staged => format!(
                "host arrays staged as binary16 through {}",
                self.gpu_plan().map(|g| g.describe()).unwrap_or_default()
            ),
            r => {
                let inner = match self.twin() {
                    Ok(t) => t.lock().plan.describe(),
                    Err(e) => e.message,
                };
                format!(
                    "cpu twin{}: widen binary16 to f32, then {inner}, then round to nearest even",
                    if r == Route::DeviceViaHost {
                        " (device arrays copied through the host)"
                    } else {
                        ""
                    }
                )
            }
        };
        format!(
            "(fftxh half storage (IEEE binary16): {}\n  {how})",
            self.problem.describe()
        )
    }
}

/// `dst[k] = f32(src[k])` for every k of `dst`.
///
/// # Safety
/// `src` must hold `dst.len()` values.
unsafe fn widen(dst: &mut [f32], src: *const u16) {
    let src = std::slice::from_raw_parts(src, dst.len());
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = f32_from_f16(s);
    }
}

/// `dst[k] = f16(src[k])` for every k of `src`.
///
/// # Safety
/// `dst` must hold `src.len()` values.
unsafe fn narrow(dst: *mut u16, src: &[f32]) {
    let dst = std::slice::from_raw_parts_mut(dst, src.len());
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = f16_from_f32(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every binary16 value survives f32 and back exactly (NaNs stay NaN).
    #[test]
    fn every_half_round_trips() {
        for h in 0..=u16::MAX {
            let f = f32_from_f16(h);
            let back = f16_from_f32(f);
            if f.is_nan() {
                assert!(back & 0x7c00 == 0x7c00 && back & 0x3ff != 0, "{h:#x}");
            } else {
                assert_eq!(back, h, "{h:#x} -> {f} -> {back:#x}");
                // And against the f64 value the bits mean.
                let e = ((h >> 10) & 0x1f) as i32;
                let m = (h & 0x3ff) as f64;
                let v = if e == 0 {
                    m * 2f64.powi(-24)
                } else if e == 31 {
                    f64::INFINITY
                } else {
                    (1.0 + m / 1024.0) * 2f64.powi(e - 15)
                };
                let v = if h & 0x8000 != 0 { -v } else { v };
                assert_eq!(f as f64, v, "{h:#x}");
            }
        }
    }

    /// Rounding is to the nearest binary16, ties to the even one, for random f32 across the
    /// range (normals, subnormals, overflow).
    #[test]
    fn rounds_to_nearest_even() {
        let mut s = 0x2545_f491_4f6c_dd1du64;
        for i in 0..200_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            // Exponents around binary16's range: 2^-30 .. 2^17.
            let bits = (s as u32 & 0x807f_ffff) | ((97 + (s >> 40) as u32 % 48) << 23);
            let x = if i % 7 == 0 {
                // An exact tie: a binary16 value plus half its ulp.
                let h = (s >> 20) as u16 & 0x7bfe;
                (f32_from_f16(h) as f64
                    + (f32_from_f16(h + 1) as f64 - f32_from_f16(h) as f64) / 2.0)
                    as f32
            } else {
                f32::from_bits(bits)
            };
            let h = f16_from_f32(x);
            let v = f32_from_f16(h) as f64;
            let xd = x as f64;
            if v.is_infinite() {
                assert!(xd.abs() >= 65520.0, "{x} -> inf");
                continue;
            }
            let mag = h & 0x7fff;
            for nb in [mag.wrapping_sub(1), mag + 1] {
                if nb > 0x7bff {
                    continue;
                }
                let w = f32_from_f16(nb | (h & 0x8000)) as f64;
                let (dv, dw) = ((xd - v).abs(), (xd - w).abs());
                assert!(
                    dv < dw || (dv == dw && h & 1 == 0),
                    "{x:e}: {h:#x} ({v:e}) vs {nb:#x} ({w:e})"
                );
            }
        }
        assert_eq!(f16_from_f32(65504.0), 0x7bff);
        assert_eq!(f16_from_f32(65520.0), 0x7c00);
        assert_eq!(f16_from_f32(-1e-9), 0x8000);
        assert_eq!(f16_from_f32(5.960_464_5e-8), 1);
        assert_eq!(f16_from_f32(2.980_232_2e-8), 0); // 2^-25: a tie, to even (0)
    }
}
