//! Half-storage transforms on the GPU (`fftxh_` plans): cuFFT's f32 transform with LTO load and
//! store callbacks that read and write IEEE binary16 in the caller's layout. Each element is
//! widened to f32 as cuFFT loads it and rounded (to nearest, ties to even) as cuFFT stores it:
//! the transform computes in f32, and the caller's arrays are read and written once, at 2 bytes
//! a real scalar, as cuFFT's own fp16 transforms read them. Any size cuFFT's f32 transforms
//! take, rank 1 to 3. The CPU twin is `half::CpuTwin` (widen, the f32 plan, round).
//!
//! cuFFT runs on its own f32 scratch (`dataIn` = `dataOut`, in place for c2c; two buffers for
//! r2c and c2r), which only its intermediate passes touch; the callbacks reach the caller's
//! arrays through a device table of two addresses (`callerInfo`), so new-array executes only
//! rewrite the table.

use super::cufft::{CufftPlan, FftType, JitCallbacks};
use super::kernels::{compile_generated, Generated};
use super::{check, Device, Error, ErrorKind, Result};
use crate::problem::{IoDim, Kind, Precision, Problem};
use cudarc::driver::sys as cu;
use parking_lot::Mutex;
use std::fmt::Write;
use std::sync::Arc;

/// binary16 <-> f32 in PTX (`cvt`), so the source needs no `cuda_fp16.h`.
const PRELUDE: &str = r#"typedef unsigned long long u64;
typedef long long i64;
__device__ __forceinline__ float fxh_f(unsigned short h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }
__device__ __forceinline__ unsigned short fxh_h(float f) { unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }
"#;

/// The shape cuFFT transforms on one side (packed: the complex side of r2c/c2r has n/2+1 on
/// its last axis), with the caller's strides (real scalars) of that side.
fn side(p: &Problem, input: bool) -> (Vec<isize>, Vec<isize>) {
    let shape = if input {
        p.input_shape()
    } else {
        p.output_shape()
    };
    let strides = p
        .dims
        .iter()
        .map(|d| if input { d.is } else { d.os })
        .collect();
    (shape, strides)
}

/// Code that turns the packed element offset `off` (cuFFT's, of a side of shape `shape`, then
/// the batch) into the caller's scalar position `pos`: the axes from the last, then the loops
/// from the last (the batch index is the loops' row-major index, the same on both sides).
fn position(shape: &[isize], strides: &[isize], loops: &[IoDim], input: bool) -> String {
    let mut s = String::from("  i64 pos = 0; u64 r = off, i;\n");
    let axes = shape.iter().zip(strides);
    let loop_axes = loops
        .iter()
        .map(|d| (&d.n, if input { &d.is } else { &d.os }));
    let all: Vec<(isize, isize)> = axes.chain(loop_axes).map(|(&n, &s)| (n, s)).collect();
    // Innermost first: the last transform axis, ..., the first, then the last loop, ...
    let (dims, loops_part) = all.split_at(shape.len());
    let order: Vec<(isize, isize)> = dims
        .iter()
        .rev()
        .chain(loops_part.iter().rev())
        .copied()
        .collect();
    for (k, &(n, stride)) in order.iter().enumerate() {
        if k + 1 == order.len() {
            let _ = writeln!(s, "  pos += (i64)r * (i64){stride};");
        } else {
            let _ = writeln!(
                s,
                "  i = r % {n}ULL; r /= {n}ULL; pos += (i64)i * (i64){stride};"
            );
        }
    }
    s
}

/// The callbacks' source for `p` (strides in real scalars of binary16): `fxh_ld` and `fxh_st`.
pub fn callback_source(p: &Problem) -> String {
    let mut s = String::from(PRELUDE);
    let (ishape, istrides) = side(p, true);
    let (oshape, ostrides) = side(p, false);
    let (real_in, real_out) = (!p.kind.input_is_complex(), !p.kind.output_is_complex());
    let ity = if real_in { "float" } else { "float2" };
    let oty = if real_out { "float" } else { "float2" };
    let _ = writeln!(
        s,
        "__device__ {ity} fxh_ld(void* dataIn, u64 off, void* info, void* smem) {{\n  const unsigned short* a = (const unsigned short*)((const u64*)info)[0];"
    );
    s += &position(&ishape, &istrides, &p.loops, true);
    s += if real_in {
        "  return fxh_f(a[pos]);\n}\n"
    } else {
        "  return make_float2(fxh_f(a[pos]), fxh_f(a[pos + 1]));\n}\n"
    };
    let _ = writeln!(
        s,
        "__device__ void fxh_st(void* dataOut, u64 off, {oty} e, void* info, void* smem) {{\n  unsigned short* a = (unsigned short*)((const u64*)info)[1];"
    );
    s += &position(&oshape, &ostrides, &p.loops, false);
    s += if real_out {
        "  a[pos] = fxh_h(e);\n}\n"
    } else {
        "  a[pos] = fxh_h(e.x); a[pos + 1] = fxh_h(e.y);\n}\n"
    };
    s
}

/// Why the GPU cannot run `p` as a half-storage transform (None: it can try).
pub fn unsupported(p: &Problem) -> Option<String> {
    if !(1..=3).contains(&p.dims.len()) {
        return Some(format!(
            "rank {} (the GPU's half transforms take rank 1 to 3)",
            p.dims.len()
        ));
    }
    if !matches!(p.kind, Kind::Dft { .. } | Kind::R2c | Kind::C2r) {
        return Some(format!("{} transforms", p.kind.name()));
    }
    let elements: isize = p.dims.iter().chain(&p.loops).map(|d| d.n).product();
    if elements <= 0 {
        return Some("an empty transform".into());
    }
    None
}

/// Device memory owned by a half plan.
struct Block {
    ptr: u64,
    device: Arc<Device>,
}

impl Block {
    fn new(device: &Arc<Device>, bytes: usize) -> Result<Block> {
        if bytes > super::device_budget() {
            return Err(Error::new(
                ErrorKind::OutOfDeviceMemory,
                format!("out of memory: {bytes} bytes over the FFTX_GPU_MEMORY budget"),
            ));
        }
        device.bind()?;
        let mut d = 0;
        // SAFETY: cuMemAlloc writes the address of a new block.
        check(
            unsafe { cu::cuMemAlloc_v2(&mut d, bytes.max(16)) },
            "cuMemAlloc",
        )?;
        Ok(Block {
            ptr: d,
            device: device.clone(),
        })
    }
}

impl Drop for Block {
    fn drop(&mut self) {
        if !self.device.is_lost() && self.device.bind().is_ok() {
            // SAFETY: allocated by Block::new, freed once.
            unsafe { cu::cuMemFree_v2(self.ptr) };
        }
    }
}

/// A half-storage transform on one device.
pub struct HalfGpu {
    plan: CufftPlan,
    device: Arc<Device>,
    /// The callbacks' table: the caller's input and output addresses.
    table: Block,
    /// cuFFT's f32 scratch: `dataIn` and `dataOut` (the same block for c2c).
    scratch: Vec<Block>,
    sign: i32,
    /// The addresses in `table`; held while a transform runs (one at a time per plan).
    current: Mutex<(u64, u64)>,
}

impl HalfGpu {
    /// Plans `p` (strides in binary16 scalars) on the default device.
    pub fn new(p: &Problem) -> Result<HalfGpu> {
        if let Some(why) = unsupported(p) {
            return Err(Error::unsupported(why));
        }
        let device = super::default_device().ok_or_else(|| Error::unsupported("no GPU"))?;
        device.bind()?;
        if !super::cufft::jit_callbacks_available() {
            return Err(Error::unsupported(
                "this cuFFT has no LTO callbacks (cufftXtSetJITCallback, CUDA 12.8+)",
            ));
        }
        let Generated::Lto(image) = compile_generated(&device, &callback_source(p), true)? else {
            return Err(Error::new(ErrorKind::Internal, "NVRTC gave no LTO-IR"));
        };
        let table = Block::new(&device, 16)?;
        let n: Vec<i64> = p.dims.iter().map(|d| d.n as i64).collect();
        let batch: i64 = p.loops.iter().map(|d| d.n as i64).product();
        let (ty, sign) = match p.kind {
            Kind::Dft { sign } => (FftType::C2c, sign),
            Kind::R2c => (FftType::R2c, -1),
            _ => (FftType::C2r, 1),
        };
        let cb = JitCallbacks {
            image,
            load: Some("fxh_ld".into()),
            store: Some("fxh_st".into()),
            real_in: !p.kind.input_is_complex(),
            real_out: !p.kind.output_is_complex(),
            precision: Precision::F32,
            info: table.ptr,
        };
        let plan = CufftPlan::packed_with_callbacks(&n, batch, ty, Precision::F32, &cb)?;
        let count = |shape: Vec<isize>| shape.iter().product::<isize>() as usize * batch as usize;
        let complex_elems = if ty == FftType::R2c {
            count(p.output_shape())
        } else {
            count(p.input_shape())
        };
        let scratch = match ty {
            FftType::C2c => vec![Block::new(&device, complex_elems * 8)?],
            FftType::R2c => vec![
                Block::new(&device, count(p.input_shape()) * 4)?,
                Block::new(&device, complex_elems * 8)?,
            ],
            FftType::C2r => vec![
                Block::new(&device, complex_elems * 8)?,
                Block::new(&device, count(p.output_shape()) * 4)?,
            ],
        };
        Ok(HalfGpu {
            plan,
            device,
            table,
            scratch,
            sign,
            current: Mutex::new((u64::MAX, u64::MAX)),
        })
    }

    /// Transforms the device arrays at `input` and `output` (binary16, the problem's layout;
    /// the addresses are those of scalar 0, as the caller's pointers).
    ///
    /// # Safety
    /// Both must be device memory holding every element the problem addresses.
    pub unsafe fn run(&self, input: u64, output: u64) -> Result<()> {
        let mut current = self.current.lock();
        self.device.bind()?;
        if *current != (input, output) {
            let words = [input, output];
            check(
                cu::cuMemcpyHtoD_v2(self.table.ptr, words.as_ptr() as *const _, 16),
                "cuMemcpyHtoD",
            )?;
            *current = (input, output);
        }
        let a = self.scratch[0].ptr;
        let b = self.scratch.last().map_or(a, |s| s.ptr);
        self.plan.exec(a, b, self.sign)?;
        check(
            cu::cuStreamSynchronize(std::ptr::null_mut()),
            "cuStreamSynchronize",
        )
    }

    pub fn describe(&self) -> String {
        format!(
            "gpu {}: cuFFT f32 with LTO callbacks that load binary16 into f32 and round stores to binary16 (work {} bytes)",
            self.device.name, self.plan.work_bytes
        )
    }

    /// Copies `bytes` bytes from host `src` to device `dst` (host-array executes).
    ///
    /// # Safety
    /// Valid ranges on both sides.
    pub unsafe fn upload(&self, dst: u64, src: *const u8, bytes: usize) -> Result<()> {
        self.device.bind()?;
        check(
            cu::cuMemcpyHtoD_v2(dst, src as *const _, bytes),
            "cuMemcpyHtoD",
        )
    }

    /// Copies `bytes` bytes from device `src` to host `dst`.
    ///
    /// # Safety
    /// Valid ranges on both sides.
    pub unsafe fn download(&self, dst: *mut u8, src: u64, bytes: usize) -> Result<()> {
        self.device.bind()?;
        check(
            cu::cuMemcpyDtoH_v2(dst as *mut _, src, bytes),
            "cuMemcpyDtoH",
        )
    }

    /// A device block of `bytes` bytes owned by the returned handle (host-array staging).
    pub fn block(&self, bytes: usize) -> Result<DeviceBlock> {
        Block::new(&self.device, bytes).map(DeviceBlock)
    }
}

/// Device memory a host-array execute stages binary16 data through.
pub struct DeviceBlock(Block);

impl DeviceBlock {
    pub fn ptr(&self) -> u64 {
        self.0.ptr
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(kind: Kind, dims: Vec<IoDim>, loops: Vec<IoDim>) -> Problem {
        Problem {
            kind,
            dims,
            loops,
            precision: Precision::F32,
            in_place: false,
        }
    }

    /// The callbacks address the caller's layout: the packed offset's axes from the last, the
    /// batch over the loops, strides as given (in binary16 scalars).
    #[test]
    fn callbacks_follow_the_callers_strides() {
        let p = problem(
            Kind::Dft { sign: -1 },
            vec![IoDim::new(12, 2 * 5, 2 * 3), IoDim::new(5, 2, 2 * 40)],
            vec![IoDim::new(7, 2 * 60, 2)],
        );
        let s = callback_source(&p);
        assert!(
            s.contains("i = r % 5ULL; r /= 5ULL; pos += (i64)i * (i64)2;"),
            "{s}"
        );
        assert!(
            s.contains("i = r % 12ULL; r /= 12ULL; pos += (i64)i * (i64)10;"),
            "{s}"
        );
        assert!(s.contains("pos += (i64)r * (i64)120;"), "{s}");
        assert!(s.contains("pos += (i64)r * (i64)2;"), "{s}");
        assert!(s.contains("make_float2(fxh_f(a[pos]), fxh_f(a[pos + 1]))"));
        // r2c: real loads, complex stores over n/2+1 on the last axis.
        let p = problem(
            Kind::R2c,
            vec![IoDim::new(10, 1, 2)],
            vec![IoDim::new(3, 10, 12)],
        );
        let s = callback_source(&p);
        assert!(s.contains("__device__ float fxh_ld"), "{s}");
        assert!(s.contains("float2 e"), "{s}");
        assert!(s.contains("i = r % 6ULL;"), "{s}");
        assert_eq!(unsupported(&p), None);
        let p4 = problem(Kind::Dft { sign: 1 }, vec![IoDim::new(2, 2, 2); 4], vec![]);
        assert!(unsupported(&p4).unwrap().contains("rank 4"));
    }
}
