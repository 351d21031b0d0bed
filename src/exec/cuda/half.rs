//! Half-storage transforms on the GPU (`fftxh_` plans) over IEEE binary16 arrays in the
//! caller's layout. Four ways, tried in this order:
//!
//! - **cuFFT fp16**, opt-in by `FFTX_HALF_COMPUTE=f16` (every axis a power of two, a layout
//!   cuFFT's advanced interface expresses): `cufftXtMakePlanMany` with CUDA_C_16F on the
//!   caller's arrays. fp16 arithmetic inside cuFFT, not the f32 accumulation `fftxh_` plans
//!   promise: errors of 1e-3-2e-3 on an H200 (the f32 ways: 2e-4), but the f32 ways below are
//!   1.2-3.9x slower there.
//! - **the tensor-core kernel** (`tensor_half`: 1-D c2c of 1024 or 4096 points, consecutive
//!   points, arrays 16-byte aligned; compute capability 8.0 or later): the DFT matrices as
//!   binary16 `mma.sync` operands with f32 accumulation, one kernel; 7-10% faster than the
//!   pass kernel on an H100 (bench/results/2026-12-06-h100-tensor-half.md);
//! - **pass kernels** (rank 1 to 3, when every axis's length has radices up to 16 and fits a
//!   block's shared memory, `pencil::fused_shape`, or for an axis contiguous on both sides,
//!   one pencil a block in the device's dynamic shared memory, `pencil::wide_shape`: up to
//!   about 25 000 points on an H100 or H200): one FFTX pass kernel
//!   (`cudagen::fused_pass`) per axis, f32 Stockham stages in shared memory, whose element
//!   loads widen binary16 and whose stores round to nearest even (1-D: one kernel, 4 bytes in
//!   and 4 out a complex element; rank 2-3: a packed binary16 scratch between the passes, and
//!   the passes strided on a side in wide blocks, `pencil::strided_shape`); a 1-D c2c no one
//!   kernel takes (over 4096 points, up to 2^24) runs as two or three passes over the digits of
//!   its length (`program::multipass`: strided pass kernels with the twiddle factors fused
//!   into their stores, through the scratch), where it has radices up to 16. The scratch holds
//!   binary16, as the caller's arrays do (4 bytes an element each way where f32 took 8, for
//!   one more rounding a pass): its values never overflow where the output does not (along
//!   each transformed axis max |DFT(v)| >= ||v||_2 >= max |v|; twiddles have modulus 1);
//! - **gather, cuFFT f32, scatter** (anything else of rank 1 to 3: prime factors over 16, r2c
//!   and c2r over 4096 points no wide pass takes): a kernel widens the input into packed f32,
//!   cuFFT transforms it, a kernel rounds it into the output.
//!
//! (cuFFT f32 with LTO load/store callbacks that convert was the first design: on an H200 it
//! ran at 0.3-0.6x cuFFT fp16 and cuFFT refused the callbacks for large batches of short
//! transforms, CUFFT_INTERNAL_ERROR; bench/results/2026-11-26-h200-tensor-cores-half-callbacks.md.)
//! Our kernels reach the caller's arrays through a device table of addresses (input, output,
//! scratch), so new-array executes only rewrite the table (arrays only 2-byte aligned take
//! kernels of 16-bit accesses, built at the first execute that passes one). The CPU twin is
//! `half::HalfPlan`'s (widen, the f32 plan, round).

use super::cudagen;
use super::cufft::{CufftPlan, FftType, Layout};
use super::kernels::{compile_generated, generated_function, Generated};
use super::{check, Device, Error, ErrorKind, Result};
use crate::problem::{Kind, Kind1d, Precision, Problem};
use crate::program::multipass::{ElementBytes, MultiPass, Twiddle};
use crate::program::pencil::{
    fused_shape, strided_shape, wide_shape, FusedShape, Pass, SegMap, Side,
};
use cudarc::driver::sys as cu;
use parking_lot::Mutex;
use std::fmt::Write;
use std::sync::Arc;

/// binary16 <-> f32 in PTX (`cvt`), so the source needs no `cuda_fp16.h` (after
/// `cudagen::prelude(F32)`: `u64`, `i64`, `fx_cplx` = float2, `fx_real` = float).
pub(crate) const CONVERT: &str = r#"__device__ __forceinline__ float fxh_f(unsigned short h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }
__device__ __forceinline__ unsigned short fxh_h(float f) { unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }
"#;

/// Code that turns the element offset `off` into the scalar position `pos`, for axes given
/// innermost first as (length, stride): the offset's digits in those lengths (the last axis
/// takes the rest).
fn position(order: &[(isize, isize)]) -> String {
    let mut s = String::from("  i64 pos = 0; u64 r = off, i;\n");
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

/// Where a pass reads or writes: the caller's binary16 array (its side of the problem) or the
/// packed scratch of complex binary16 elements (row-major: the loops, then the complex shape).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    User { input: bool },
    Scratch,
}

/// The alignment of the caller's arrays that kernels are built for: `Word` when every array is
/// 4-byte aligned, so that a complex binary16 element whose scalars are an even number apart
/// moves as one 32-bit word (half the memory instructions of two 16-bit accesses), `Half`
/// otherwise. Built for one alignment, a kernel has no test of the addresses in its element
/// accesses: on an H200 that test cost 10% of a 768-point pass kernel's time
/// (bench/results/2026-11-29-h200-half-aligned-kernels.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Alignment {
    Word,
    Half,
}

impl Alignment {
    fn of(addresses: &[u64]) -> Alignment {
        if addresses.iter().all(|a| a % 4 == 0) {
            Alignment::Word
        } else {
            Alignment::Half
        }
    }
}

/// The loops of a side innermost first as (length, stride): the problem's strides (binary16
/// scalars) on the caller's arrays, the packed scratch's (complex elements, the transforms of
/// `volume` elements each) there.
fn loops_order(p: &Problem, place: Place, volume: isize) -> Vec<(isize, isize)> {
    match place {
        Place::User { input } => p
            .loops
            .iter()
            .rev()
            .map(|d| (d.n, if input { d.is } else { d.os }))
            .collect(),
        Place::Scratch => {
            let mut stride = volume;
            p.loops
                .iter()
                .rev()
                .map(|d| {
                    let l = (d.n, stride);
                    stride *= d.n;
                    l
                })
                .collect()
        }
    }
}

/// The axes of a side innermost first for a pass along `axis` (that axis, then the others
/// from the last, then the loops from the last), as (length, stride): strides in binary16
/// scalars for the caller's arrays, in complex elements for the scratch.
fn order(p: &Problem, place: Place, shape: &[isize], axis: usize) -> Vec<(isize, isize)> {
    let strides: Vec<isize> = match place {
        Place::User { input } => p
            .dims
            .iter()
            .map(|d| if input { d.is } else { d.os })
            .collect(),
        Place::Scratch => {
            let c = complex_shape(p);
            let mut st = vec![1isize; c.len()];
            for d in (0..c.len().saturating_sub(1)).rev() {
                st[d] = st[d + 1] * c[d + 1];
            }
            st
        }
    };
    let mut o = vec![(shape[axis], strides[axis])];
    o.extend(
        (0..shape.len())
            .rev()
            .filter(|&d| d != axis)
            .map(|d| (shape[d], strides[d])),
    );
    o.extend(loops_order(p, place, complex_shape(p).iter().product()));
    o
}

/// The shape of the complex data (the c2c's, r2c's output, c2r's input).
fn complex_shape(p: &Problem) -> Vec<isize> {
    match p.kind {
        Kind::C2r => p.input_shape(),
        _ => p.output_shape(),
    }
}

/// Code that sets the scalar position `pos` of element `j` of pencil `b`, for axes given
/// innermost first as (length, stride), the pass axis first: `j` along it, `b`'s digits in the
/// others (the last takes the rest), in 32-bit divisions where the pencils number under 2^32
/// (a 64-bit division by a constant costs several times the instructions, paid per element).
fn pencil_position(order: &[(isize, isize)]) -> String {
    let pencils: u128 = order[1..].iter().map(|&(n, _)| n as u128).product();
    let ty = if pencils <= u32::MAX as u128 {
        "unsigned"
    } else {
        "u64"
    };
    // The farthest scalar from the origin (and its neighbour): 32-bit positions when it fits.
    let reach: u128 = order
        .iter()
        .map(|&(n, stride)| (n.max(1) - 1) as u128 * stride.unsigned_abs() as u128)
        .sum::<u128>()
        + 1;
    let pt = if reach <= i32::MAX as u128 {
        "int"
    } else {
        "i64"
    };
    let mut s = format!(
        "  {pt} pos = ({pt})j * {};\n  {ty} c = ({ty})b;\n",
        order[0].1
    );
    for (k, &(n, stride)) in order.iter().enumerate().skip(1) {
        if k + 1 == order.len() {
            let _ = writeln!(s, "  pos += ({pt})c * {stride};");
        } else {
            let _ = writeln!(s, "  pos += ({pt})(c % {n}u) * {stride}; c /= {n}u;");
        }
    }
    s
}

/// How an access is addressed: element `off` of the packed pencils (cuFFT's callback form,
/// `fftx_ld{k}` / `fftx_st{k}`, for the gather/scatter way) or element `j` of pencil `b` (the
/// pencil form `fftx_ldp{k}` / `fftx_stp{k}` that `cudagen::fused_pass` calls).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    Offset,
    Pencil,
}

/// One side of a pass (or of the gather/scatter way): where, its axes innermost first as
/// (length, stride) (the pass's axis first, then the pencils' digits), and whether its
/// elements are real.
#[derive(Clone, Debug)]
struct End {
    place: Place,
    order: Vec<(isize, isize)>,
    real: bool,
}

impl End {
    /// Side `place` of `p` for a pass along `axis` (real on the real side of an r2c or c2r).
    fn of(p: &Problem, place: Place, axis: usize) -> End {
        let (shape, real) = match place {
            Place::User { input: true } => (p.input_shape(), !p.kind.input_is_complex()),
            Place::User { input: false } => (p.output_shape(), !p.kind.output_is_complex()),
            Place::Scratch => (complex_shape(p), false),
        };
        End {
            place,
            order: order(p, place, &shape, axis),
            real,
        }
    }

    /// Whether consecutive elements along the axis are adjacent in memory.
    fn contiguous(&self) -> bool {
        let unit = match self.place {
            Place::User { .. } if !self.real => 2,
            _ => 1,
        };
        self.order[0].1 == unit
    }
}

/// The load and store of pass `k` in `form`: one element of the pass's pencils (the axis
/// fastest) from `load` and to `store`, through the table `info` = {input, output, scratch},
/// the stored value first multiplied by `twiddle`'s factor where given, for arrays of
/// `alignment`. Loads go through the read-only data cache (`__ldg`): no element a kernel reads
/// is written before by another block of that kernel (a block stores only the pencils it has
/// loaded), which measured 4% faster on an H200.
fn access(
    k: usize,
    form: Form,
    load: &End,
    store: &End,
    twiddle: Option<(Twiddle, i32)>,
    alignment: Alignment,
) -> String {
    let mut s = String::new();
    for (end, is_load) in [(load, true), (store, false)] {
        let (place, real) = (end.place, end.real);
        let ty = if real { "fx_real" } else { "fx_cplx" };
        let slot = match place {
            Place::User { input: true } => 0,
            Place::User { input: false } => 1,
            Place::Scratch => 2,
        };
        let order = &end.order;
        let pos = match form {
            Form::Offset => position(order),
            Form::Pencil => pencil_position(order),
        };
        // The word of a complex element moved as one 32-bit access: the scratch's position
        // counts complex elements, a caller's array's counts binary16 scalars (where every
        // stride is even and the arrays are 4-byte aligned).
        let word = match place {
            Place::Scratch => Some("pos"),
            _ if alignment == Alignment::Word
                && order.iter().all(|&(_, stride)| stride % 2 == 0) =>
            {
                Some("(pos >> 1)")
            }
            _ => None,
        };
        let body = match (is_load, real, word) {
            (true, true, _) => "  return fxh_f(__ldg((const unsigned short*)a + pos));".to_string(),
            (false, true, _) => "  ((unsigned short*)a)[pos] = fxh_h(e);".to_string(),
            (true, false, Some(w)) => format!("  const unsigned w = __ldg((const unsigned*)a + {w}); return make_float2(fxh_f((unsigned short)w), fxh_f((unsigned short)(w >> 16)));"),
            (true, false, None) => "  const unsigned short* h = (const unsigned short*)a; return make_float2(fxh_f(__ldg(h + pos)), fxh_f(__ldg(h + pos + 1)));".to_string(),
            (false, false, Some(w)) => format!("  ((unsigned*)a)[{w}] = (unsigned)fxh_h(e.x) | ((unsigned)fxh_h(e.y) << 16);"),
            (false, false, None) => "  unsigned short* h = (unsigned short*)a; h[pos] = fxh_h(e.x); h[pos + 1] = fxh_h(e.y);".to_string(),
        };
        let head = match (form, is_load) {
            (Form::Offset, true) => {
                format!("__device__ {ty} fftx_ld{k}(void* dataIn, u64 off, void* info, void* smem)")
            }
            (Form::Offset, false) => format!(
                "__device__ void fftx_st{k}(void* dataOut, u64 off, {ty} e, void* info, void* smem)"
            ),
            (Form::Pencil, true) => {
                format!(
                    "__device__ __forceinline__ {ty} fftx_ldp{k}(const u64* info, u64 b, i64 j)"
                )
            }
            (Form::Pencil, false) => format!(
                "__device__ __forceinline__ void fftx_stp{k}(const u64* info, u64 b, i64 j, {ty} e)"
            ),
        };
        let scale = match twiddle {
            Some((t, sign)) if !is_load => {
                let pencils: u128 = order[1..].iter().map(|&(n, _)| n as u128).product();
                s += &twiddle_table(k, t, sign);
                let r = if pencils <= u32::MAX as u128 {
                    format!("(unsigned)b % {}u", t.rest)
                } else {
                    format!("(unsigned)(b % {}ULL)", t.rest)
                };
                format!("  e = fx_mul(e, fxh_tw{k}((unsigned)j * ({r})));\n")
            }
            _ => String::new(),
        };
        let _ = writeln!(
            s,
            "{head} {{\n{scale}  const u64 a = ((const u64*)info)[{slot}];\n{pos}{body}\n}}"
        );
    }
    s
}

/// `fxh_tw{k}(i)`, the factor w_n^(sign i) of `t` for 0 <= i < n, as the product of two
/// tables of about sqrt(n) entries (w^(hi S) w^lo, S a power of two): two reads that stay in
/// the L1 cache and a complex product, where a table of n entries would miss it.
fn twiddle_table(k: usize, t: Twiddle, sign: i32) -> String {
    let bits = (t.n as f64).sqrt().ceil().log2().ceil() as u32;
    let size = 1usize << bits;
    let table = |name: &str, count: usize, step: usize| {
        let mut s = format!("__device__ const fx_cplx {name}{k}[{count}] = {{");
        for i in 0..count {
            let (re, im) = crate::program::fftgen::root(sign, i * step, t.n);
            let _ = write!(
                s,
                "{}{{{}, {}}}",
                if i > 0 { ", " } else { "" },
                cudagen::table_lit(re, Precision::F32),
                cudagen::table_lit(im, Precision::F32)
            );
        }
        s + "};\n"
    };
    let mut s = table("fxh_twl", size.min(t.n), 1);
    s += &table("fxh_twh", t.n.div_ceil(size), size);
    let _ = writeln!(
        s,
        "__device__ __forceinline__ fx_cplx fxh_tw{k}(unsigned i) {{ return fx_mul(fxh_twh{k}[i >> {bits}], fxh_twl{k}[i & {}u]); }}",
        size - 1
    );
    s
}

/// The element accesses of the gather/scatter way: `fftx_ld0` (element `off` of the packed
/// input, widened) and `fftx_st0` (element `off` of the packed output, rounded), the caller's
/// layout through the table `info` = {input address, output address}, arrays of `alignment`.
fn access_source(p: &Problem, alignment: Alignment) -> String {
    let mut s = cudagen::prelude(Precision::F32);
    s += CONVERT;
    let last = p.dims.len() - 1;
    s += &access(
        0,
        Form::Offset,
        &End::of(p, Place::User { input: true }, last),
        &End::of(p, Place::User { input: false }, last),
        None,
        alignment,
    );
    s
}

/// One pass kernel of the pass-kernel way: transforms of `kind` and length `n` over `batch`
/// pencils, from `load` to `store`, the outputs multiplied by `twiddle`'s factors where given,
/// in blocks of `shape`.
struct PassSpec {
    kind: Kind1d,
    n: usize,
    shape: FusedShape,
    batch: u64,
    load: End,
    store: End,
    twiddle: Option<Twiddle>,
}

/// The passes of the pass-kernel way: one per axis when every axis's length is one pass
/// kernel's ([`axis_passes`]), or a 1-D c2c too long for one as passes over the digits of its
/// length ([`digit_passes`]).
///
/// `shared`: the dynamic shared memory a block may take on the device (bytes).
fn pass_plan(p: &Problem, shared: usize) -> Option<Vec<PassSpec>> {
    axis_passes(p, shared).or_else(|| digit_passes(p, shared))
}

/// One pass per axis when every axis has a pass kernel: the last axis first (the caller's
/// contiguous axis) for c2c and r2c, the last axis last for c2r. A 1-D in-place transform
/// whose transforms share memory has none (a block stores its pencils after loading them, but
/// other blocks' pencils would overlap). An axis contiguous on both sides whose pencils are
/// too long for `fused_shape` takes one a block (`wide_shape`, within `shared` bytes).
fn axis_passes(p: &Problem, shared: usize) -> Option<Vec<PassSpec>> {
    let rank = p.dims.len();
    if rank == 1 && p.in_place && !p.batches_independent_in_place() {
        return None;
    }
    let axes: Vec<usize> = match p.kind {
        Kind::C2r => (0..rank).collect(),
        _ => (0..rank).rev().collect(),
    };
    let cshape = complex_shape(p);
    let elems: isize = cshape.iter().product::<isize>() * p.howmany() as isize;
    let mut out = Vec::new();
    for (i, &axis) in axes.iter().enumerate() {
        let kind = match p.kind {
            Kind::Dft { sign } => Kind1d::Dft { sign },
            Kind::R2c if i == 0 => Kind1d::R2c,
            Kind::R2c => Kind1d::Dft { sign: -1 },
            Kind::C2r if i + 1 == rank => Kind1d::C2r,
            Kind::C2r => Kind1d::Dft { sign: 1 },
            _ => return None,
        };
        let load = if i == 0 {
            Place::User { input: true }
        } else {
            Place::Scratch
        };
        let store = if i + 1 == rank {
            Place::User { input: false }
        } else {
            Place::Scratch
        };
        // One pencil per line of the complex data along the axis (the real side of an r2c's
        // first pass or a c2r's last has as many lines). A pass strided on a side takes wide
        // blocks (`strided_shape`: its pencils adjacent there).
        let n = p.dims[axis].n as usize;
        let (load, store) = (End::of(p, load, axis), End::of(p, store, axis));
        let shape = if load.contiguous() && store.contiguous() {
            fused_shape(n, Precision::F32).or_else(|| wide_shape(n, shared))?
        } else {
            strided_shape(n, Precision::F32, shared)?
        };
        out.push(PassSpec {
            kind,
            n,
            shape,
            batch: (elems / cshape[axis]) as u64,
            load,
            store,
            twiddle: None,
        });
    }
    Some(out)
}

/// A 1-D c2c whose length no pass kernel takes, as the passes of `MultiPass::choose` (in
/// place too: the first pass reads the input into the scratch, the last writes the output
/// from it), their blocks of `strided_shape` within `shared` bytes (the split's cost counts
/// the static shapes'; the default splits' lengths take the same either way).
fn digit_passes(p: &Problem, shared: usize) -> Option<Vec<PassSpec>> {
    let Kind::Dft { sign } = p.kind else {
        return None;
    };
    if p.dims.len() != 1 || fused_shape(p.dims[0].n as usize, Precision::F32).is_some() {
        return None;
    }
    let n = p.dims[0].n as usize;
    // The twiddle index j r < n in 32 bits, and tables of at most 2 x 4096 entries.
    if n > 1 << 24 {
        return None;
    }
    let bytes = ElementBytes {
        user: 4,
        scratch: 4,
    };
    let split = match std::env::var("FFTX_HALF_FACTORS") {
        Ok(v) => v
            .split('x')
            .map(|f| f.trim().parse().ok())
            .collect::<Option<Vec<usize>>>()
            .and_then(|f| MultiPass::new(n, f)),
        Err(_) => None,
    };
    let split = split.or_else(|| MultiPass::choose(n, bytes))?;
    let passes = split.passes();
    let last = passes.len() - 1;
    // The digits' strides in elements, times the caller's stride (in binary16 scalars) or
    // the scratch's (1: packed complex elements); then the loops.
    let side = |place: Place, order: &[(usize, usize)]| {
        let unit = match place {
            Place::User { input: true } => p.dims[0].is,
            Place::User { input: false } => p.dims[0].os,
            Place::Scratch => 1,
        };
        let mut o: Vec<(isize, isize)> = order
            .iter()
            .map(|&(len, stride)| (len as isize, stride as isize * unit))
            .collect();
        o.extend(loops_order(p, place, n as isize));
        End {
            place,
            order: o,
            real: false,
        }
    };
    let specs = passes
        .iter()
        .enumerate()
        .map(|(i, d)| PassSpec {
            kind: Kind1d::Dft { sign },
            n: d.n,
            shape: strided_shape(d.n, Precision::F32, shared)
                .expect("MultiPass takes pass lengths"),
            batch: (d.pencils() * p.howmany()) as u64,
            load: side(
                if i == 0 {
                    Place::User { input: true }
                } else {
                    Place::Scratch
                },
                &d.load,
            ),
            store: side(
                if i == last {
                    Place::User { input: false }
                } else {
                    Place::Scratch
                },
                &d.store,
            ),
            twiddle: d.twiddle,
        })
        .collect();
    Some(specs)
}

/// A pass kernel: its name, its Pass (whose pencils are the batch) and its blocks' shape.
struct PassLaunch {
    name: String,
    pass: Pass,
    shape: FusedShape,
}

/// The pass kernels' source for arrays of `alignment` and each pass's launch (`shared`: as
/// [`pass_plan`]).
fn pass_source(
    p: &Problem,
    alignment: Alignment,
    shared: usize,
) -> Option<(String, Vec<PassLaunch>)> {
    let plan = pass_plan(p, shared)?;
    let mut s = cudagen::prelude(Precision::F32);
    s += CONVERT;
    let mut passes = Vec::new();
    for (k, spec) in plan.iter().enumerate() {
        let n = spec.n;
        let seg = |contig: bool| SegMap {
            slot: 0,
            complex: true,
            base: 0,
            origin: vec![0, 0],
            strides: vec![0, if contig { 1 } else { 2 }],
            clip: vec![0..1, 0..n],
        };
        let kind = spec.kind;
        let pass = Pass {
            kind,
            axis: 1,
            n,
            pencils: vec![0..spec.batch as usize, 0..1],
            live_in: 0..kind.len_in(n),
            live_out: 0..kind.len_out(n),
            load: Side::Segments(vec![seg(spec.load.contiguous())]),
            head: None,
            store: Side::Segments(vec![seg(spec.store.contiguous())]),
            tail: None,
            mid: None,
        };
        let sign = kind.sign();
        s += &access(
            k,
            Form::Pencil,
            &spec.load,
            &spec.store,
            spec.twiddle.map(|t| (t, sign)),
            alignment,
        );
        s += &cudagen::fused_pass(k, &pass, &spec.shape, Precision::F32);
        passes.push(PassLaunch {
            name: format!("fftx_pass{k}"),
            pass,
            shape: spec.shape.clone(),
        });
    }
    Some((s, passes))
}

/// The gather and scatter kernels around cuFFT for arrays of `alignment`: `fxh_gather(total,
/// P, out)` widens the input into packed f32, `fxh_scatter(total, P, in)` rounds packed f32
/// into the output.
fn gather_scatter_source(p: &Problem, alignment: Alignment) -> String {
    const GRID: &str = "for (u64 off = (u64)blockIdx.x * blockDim.x + threadIdx.x; off < total; off += (u64)gridDim.x * blockDim.x)";
    let ti = if p.kind.input_is_complex() {
        "fx_cplx"
    } else {
        "fx_real"
    };
    let to = if p.kind.output_is_complex() {
        "fx_cplx"
    } else {
        "fx_real"
    };
    format!(
        "{}extern \"C\" __global__ void fxh_gather(u64 total, const u64* P, {ti}* out) {{ {GRID} out[off] = fftx_ld0(0, off, (void*)P, 0); }}\nextern \"C\" __global__ void fxh_scatter(u64 total, const u64* P, const {ti2}* in) {{ {GRID} fftx_st0(0, off, in[off], (void*)P, 0); }}\n",
        access_source(p, alignment),
        ti2 = to
    )
}

/// cuFFT's own half-precision transform (`cufftXtMakePlanMany` with CUDA_C_16F / CUDA_R_16F:
/// powers of two only, fp16 arithmetic inside cuFFT): on an H200 1.2-3.9x faster than the f32
/// ways (bench/results/2026-11-26-h200-tensor-cores-half.md), with errors of 1e-3-2e-3 (the f32
/// ways: 2e-4), inside the 1e-3 log2 N of fftxh plans. Taken for powers of two under
/// `FFTX_HALF_COMPUTE=f16` only: by default plans accumulate in f32, as `fftx.h` says.
struct XtPlan {
    handle: i32,
    device: Arc<Device>,
    sign: i32,
}

type XtMakePlanMany = unsafe extern "C" fn(
    i32,
    i32,
    *mut i64,
    *mut i64,
    i64,
    i64,
    i32,
    *mut i64,
    i64,
    i64,
    i32,
    i64,
    *mut usize,
    i32,
) -> cudarc::cufft::sys::cufftResult;
type XtExec = unsafe extern "C" fn(
    i32,
    *mut std::ffi::c_void,
    *mut std::ffi::c_void,
    i32,
) -> cudarc::cufft::sys::cufftResult;

/// The two cufftXt entry points, loaded by hand (cudarc does not bind cufftXt).
fn xt() -> Option<(XtMakePlanMany, XtExec)> {
    static F: once_cell::sync::Lazy<Option<(usize, usize)>> = once_cell::sync::Lazy::new(|| {
        std::panic::catch_unwind(|| {
            // SAFETY: the symbols have the declared C signatures in cufftXt.h (CUDA 12, 13).
            unsafe {
                let lib = cudarc::cufft::sys::culib();
                let make = lib.get::<XtMakePlanMany>(b"cufftXtMakePlanMany\0").ok()?;
                let exec = lib.get::<XtExec>(b"cufftXtExec\0").ok()?;
                Some((*make as usize, *exec as usize))
            }
        })
        .ok()
        .flatten()
    });
    // SAFETY: addresses of functions of those types (above).
    F.map(|(m, e)| unsafe {
        (
            std::mem::transmute::<usize, XtMakePlanMany>(m),
            std::mem::transmute::<usize, XtExec>(e),
        )
    })
}

/// cuFFT's advanced layout (embed, stride, dist in elements) of one side, when its strides are
/// one: positive, row-major with whole embeddings, one loop at most.
fn advanced(
    shape: &[isize],
    strides: &[isize],
    loops: &[(isize, isize)],
    unit: isize,
) -> Option<(Vec<i64>, i64, i64)> {
    if strides.iter().any(|&s| s <= 0 || s % unit != 0) {
        return None;
    }
    let s: Vec<isize> = strides.iter().map(|&x| x / unit).collect();
    let r = s.len();
    let mut embed = vec![shape[0] as i64; r];
    for d in 1..r {
        if s[d - 1] % s[d] != 0 || s[d - 1] / s[d] < shape[d] {
            return None;
        }
        embed[d] = (s[d - 1] / s[d]) as i64;
    }
    let live: Vec<&(isize, isize)> = loops.iter().filter(|l| l.0 > 1).collect();
    let dist = match live.as_slice() {
        [] => 1,
        [(_, st)] if *st > 0 && st % unit == 0 => st / unit,
        _ => return None,
    };
    Some((embed, s[r - 1] as i64, dist as i64))
}

impl XtPlan {
    fn new(p: &Problem, device: &Arc<Device>) -> Result<XtPlan> {
        let (make, _) = xt().ok_or_else(|| Error::unsupported("no cufftXtMakePlanMany"))?;
        let unsupported = |why: &str| Err(Error::unsupported(why.to_string()));
        if !p
            .dims
            .iter()
            .all(|d| d.n >= 2 && (d.n as u64).is_power_of_two())
        {
            return unsupported("cuFFT fp16 takes powers of two");
        }
        let side = |input: bool| {
            let (shape, complex) = if input {
                (p.input_shape(), p.kind.input_is_complex())
            } else {
                (p.output_shape(), p.kind.output_is_complex())
            };
            let strides: Vec<isize> = p
                .dims
                .iter()
                .map(|d| if input { d.is } else { d.os })
                .collect();
            let loops: Vec<(isize, isize)> = p
                .loops
                .iter()
                .map(|d| (d.n, if input { d.is } else { d.os }))
                .collect();
            advanced(&shape, &strides, &loops, 1 + complex as isize)
        };
        let (Some((mut ie, is, id)), Some((mut oe, os, od))) = (side(true), side(false)) else {
            return unsupported("a layout cuFFT's advanced interface cannot express");
        };
        let (c16, r16) = (6, 2); // cudaDataType CUDA_C_16F, CUDA_R_16F
        let (ti, to, sign) = match p.kind {
            Kind::Dft { sign } => (c16, c16, sign),
            Kind::R2c => (r16, c16, -1),
            _ => (c16, r16, 1),
        };
        let batch: i64 = p.loops.iter().map(|d| d.n as i64).product();
        let mut n: Vec<i64> = p.dims.iter().map(|d| d.n as i64).collect();
        device.bind()?;
        let _lock = super::CREATE_LOCK.lock();
        let mut handle = 0;
        // SAFETY: cufftCreate writes a handle.
        let r = unsafe { cudarc::cufft::sys::cufftCreate(&mut handle) };
        if r != cudarc::cufft::sys::cufftResult::CUFFT_SUCCESS {
            return Err(Error::cuda(format!("cufftCreate: {r:?}")));
        }
        let plan = XtPlan {
            handle,
            device: device.clone(),
            sign,
        };
        let mut work = 0usize;
        // SAFETY: arrays of rank elements, read during the call; the execution type of half
        // data is CUDA_C_16F.
        let r = unsafe {
            make(
                handle,
                n.len() as i32,
                n.as_mut_ptr(),
                ie.as_mut_ptr(),
                is,
                id,
                ti,
                oe.as_mut_ptr(),
                os,
                od,
                to,
                batch,
                &mut work,
                c16,
            )
        };
        if r != cudarc::cufft::sys::cufftResult::CUFFT_SUCCESS {
            return Err(Error::cuda(format!("cufftXtMakePlanMany (fp16): {r:?}")));
        }
        Ok(plan)
    }

    unsafe fn exec(&self, input: u64, output: u64) -> Result<()> {
        let (_, exec) = xt().ok_or_else(|| Error::unsupported("no cufftXtExec"))?;
        let r = exec(self.handle, input as *mut _, output as *mut _, self.sign);
        if r != cudarc::cufft::sys::cufftResult::CUFFT_SUCCESS {
            return Err(Error::cuda(format!("cufftXtExec: {r:?}")));
        }
        Ok(())
    }
}

impl Drop for XtPlan {
    fn drop(&mut self) {
        if !self.device.is_lost() && self.device.bind().is_ok() {
            // SAFETY: created by cufftCreate, destroyed once.
            unsafe { cudarc::cufft::sys::cufftDestroy(self.handle) };
        }
    }
}

/// `FFTX_HALF_COMPUTE=f16`: cuFFT's fp16 arithmetic for powers of two (faster, less
/// accurate); otherwise only the f32 ways.
fn fp16_arithmetic() -> bool {
    std::env::var("FFTX_HALF_COMPUTE").is_ok_and(|v| v.trim() == "f16")
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

/// How a half transform runs.
enum Way {
    /// cuFFT's fp16 transform on the caller's arrays.
    Fp16(XtPlan),
    /// Pass kernels (one per axis, or over the digits of a 1-D length), the binary16 scratch
    /// between them, and what they are (for the printed plan).
    Passes(ByAlignment<Vec<Launch>>, Option<Block>, String),
    /// The tensor-core kernel (`tensor_half`) for arrays 16-byte aligned; the pass kernel (no
    /// scratch: the lengths it takes are one pass) for others, built at the first execute that
    /// passes one. What it is, for the printed plan.
    Tensor(ByAlignment<Vec<Launch>>, String),
    /// Gather into `scratch[0]`, cuFFT (`scratch[0]` -> `scratch.last()`), scatter: the
    /// gather and scatter kernels.
    Cufft {
        plan: CufftPlan,
        kernels: ByAlignment<(usize, usize)>,
        sign: i32,
        scratch: Vec<Block>,
        total_in: u64,
        total_out: u64,
    },
}

/// A pass kernel's launch: `grid` blocks of `threads` with `shared` bytes of dynamic shared
/// memory over `batch` pencils.
#[derive(Clone, Copy)]
struct Launch {
    function: usize,
    grid: u32,
    threads: u32,
    shared: u32,
    batch: u64,
}

/// A way's kernels for 4-byte aligned arrays, built with the plan, and for arrays that are
/// not, built at the first execute that passes one (FFTW's new-array executes may).
struct ByAlignment<T> {
    word: T,
    half: std::sync::OnceLock<Result<T>>,
}

impl<T> ByAlignment<T> {
    fn new(word: T) -> ByAlignment<T> {
        ByAlignment {
            word,
            half: std::sync::OnceLock::new(),
        }
    }

    fn get(&self, alignment: Alignment, build: impl FnOnce() -> Result<T>) -> Result<&T> {
        match alignment {
            Alignment::Word => Ok(&self.word),
            Alignment::Half => self.half.get_or_init(build).as_ref().map_err(Clone::clone),
        }
    }
}

/// A half-storage transform on one device.
pub struct HalfGpu {
    problem: Problem,
    way: Way,
    device: Arc<Device>,
    /// The kernels' table: the caller's input and output addresses.
    table: Block,
    /// The addresses in `table`; held while a transform is queued (one at a time per plan;
    /// the stream runs them in that order).
    current: Mutex<(u64, u64)>,
}

impl Drop for HalfGpu {
    /// Queued transforms finish before their table, scratch and plans are freed.
    fn drop(&mut self) {
        if !self.device.is_lost() {
            let _ = self.wait();
        }
    }
}

fn module(device: &Device, source: &str) -> Result<usize> {
    match compile_generated(device, source, false)? {
        Generated::Module(m) => Ok(m),
        Generated::Lto(_) => Err(Error::new(ErrorKind::Internal, "NVRTC gave LTO-IR")),
    }
}

/// The launches of the pass kernels `passes` of `source`: kernels over the static limit of
/// shared memory are allowed their dynamic shared memory.
fn pass_launches(device: &Device, source: &str, passes: &[PassLaunch]) -> Result<Vec<Launch>> {
    let m = module(device, source)?;
    let mut launches = Vec::new();
    for l in passes {
        let batch = l.pass.batch() as u64;
        let per_block = cudagen::pencils_per_block(&l.pass, &l.shape) as u64;
        let f = generated_function(m, &l.name)?;
        let grid = batch.div_ceil(per_block);
        if grid > i32::MAX as u64 {
            return Err(Error::unsupported(format!("{grid} blocks")));
        }
        let shared = cudagen::fused_shared_bytes(l.pass.n, &l.shape, Precision::F32);
        if shared > 0 {
            // SAFETY: a function of a loaded module; `pass_plan` kept the pencil within the
            // device's opt-in limit.
            unsafe { super::kernels::allow_dynamic_shared(f, shared)? };
        }
        launches.push(Launch {
            function: f as usize,
            grid: grid as u32,
            threads: l.shape.threads as u32,
            shared: shared as u32,
            batch,
        });
    }
    Ok(launches)
}

/// The pass kernels' way, its kernels for word-aligned arrays.
fn passes_way(
    p: &Problem,
    device: &Arc<Device>,
    source: &str,
    passes: &[PassLaunch],
) -> Result<Way> {
    let launches = pass_launches(device, source, passes)?;
    let scratch = if passes.len() > 1 {
        let elems: isize = complex_shape(p).iter().product::<isize>() * p.howmany() as isize;
        Some(Block::new(device, elems as usize * 4)?)
    } else {
        None
    };
    let lengths: Vec<String> = passes.iter().map(|l| l.pass.n.to_string()).collect();
    let what = match (passes.len(), p.dims.len()) {
        (1, _) => "1 pass kernel (shared-memory Stockham in f32)".to_string(),
        (k, 1) => format!(
            "{k} pass kernels (shared-memory Stockham in f32) over the digits of {} = {}, the twiddle factors fused into the stores, binary16 scratch between",
            p.dims[0].n,
            lengths.join(" x ")
        ),
        (k, _) => format!(
            "{k} pass kernels (shared-memory Stockham in f32, one per axis: {}), binary16 scratch between",
            lengths.join(", ")
        ),
    };
    Ok(Way::Passes(ByAlignment::new(launches), scratch, what))
}

/// The tensor-core kernel's way (`tensor_half`), where it takes `p`; a length it is used for
/// in a layout it cannot take says why at `FFTX_LOG=info`.
fn tensor_way(p: &Problem, device: &Arc<Device>) -> Option<Way> {
    let shape = match super::tensor_half::shape(p) {
        Ok(shape) => shape,
        Err(why) => {
            if super::tensor_half::enabled_radix(p).is_some() {
                crate::log::log_info!(
                    "fftxh: no tensor-core kernel for {} ({why}): pass kernels",
                    p.describe()
                );
            }
            return None;
        }
    };
    match super::tensor_half::build(device, p, shape) {
        Ok(k) => Some(Way::Tensor(
            ByAlignment::new(vec![Launch {
                function: k.function,
                grid: k.grid,
                threads: k.threads,
                shared: k.shared,
                batch: p.howmany() as u64,
            }]),
            format!(
                "1 tensor-core kernel (mma.sync m16n8k16: binary16 operands, f32 accumulation; {} = 256 x {}; arrays not 16-byte aligned: 1 pass kernel, shared-memory Stockham in f32)",
                p.dims[0].n, shape.r
            ),
        )),
        Err(e) => {
            crate::log::log_info!(
                "fftxh: tensor-core kernel failed for {} ({}): pass kernels",
                p.describe(),
                e.message
            );
            None
        }
    }
}

/// The gather and scatter kernels for arrays of `alignment`.
fn gather_scatter(p: &Problem, device: &Device, alignment: Alignment) -> Result<(usize, usize)> {
    let m = module(device, &gather_scatter_source(p, alignment))?;
    Ok((
        generated_function(m, "fxh_gather")? as usize,
        generated_function(m, "fxh_scatter")? as usize,
    ))
}

/// The gather, cuFFT f32, scatter way.
fn cufft_way(p: &Problem, device: &Arc<Device>) -> Result<Way> {
    let kernels = ByAlignment::new(gather_scatter(p, device, Alignment::Word)?);
    let n: Vec<i64> = p.dims.iter().map(|d| d.n as i64).collect();
    let batch: i64 = p.loops.iter().map(|d| d.n as i64).product();
    let (ty, sign) = match p.kind {
        Kind::Dft { sign } => (FftType::C2c, sign),
        Kind::R2c => (FftType::R2c, -1),
        _ => (FftType::C2r, 1),
    };
    let (ishape, oshape) = (p.input_shape(), p.output_shape());
    let count = |s: &[isize]| s.iter().product::<isize>() as i64 * batch;
    let layout = |s: &[isize]| Layout::packed(&s.iter().map(|&x| x as i64).collect::<Vec<_>>());
    let plan = CufftPlan::new(
        &n,
        &layout(&ishape),
        &layout(&oshape),
        batch,
        ty,
        Precision::F32,
    )?;
    let (ci, co) = (p.kind.input_is_complex(), p.kind.output_is_complex());
    let (bi, bo) = (
        count(&ishape) as usize * if ci { 8 } else { 4 },
        count(&oshape) as usize * if co { 8 } else { 4 },
    );
    let scratch = if ty == FftType::C2c {
        vec![Block::new(device, bi)?]
    } else {
        vec![Block::new(device, bi)?, Block::new(device, bo)?]
    };
    Ok(Way::Cufft {
        plan,
        kernels,
        sign,
        scratch,
        total_in: count(&ishape) as u64,
        total_out: count(&oshape) as u64,
    })
}

impl HalfGpu {
    /// Plans `p` (strides in binary16 scalars) on the default device.
    pub fn new(p: &Problem) -> Result<HalfGpu> {
        if let Some(why) = unsupported(p) {
            return Err(Error::unsupported(why));
        }
        let device = super::default_device().ok_or_else(|| Error::unsupported("no GPU"))?;
        device.bind()?;
        let table = Block::new(&device, 24)?;
        let fp16 = if !fp16_arithmetic() {
            None
        } else {
            XtPlan::new(p, &device)
                .map_err(|e| {
                    crate::log::log_info!(
                        "fftxh: no cuFFT fp16 for {}: {}",
                        p.describe(),
                        e.message
                    )
                })
                .ok()
        };
        // The tensor-core kernel where it takes the problem (its pass kernel stands behind it
        // for arrays not 16-byte aligned), our pass kernels wherever they apply, gather +
        // cuFFT f32 + scatter otherwise (and where the passes fail to build). On the H100
        // (2^24 elements, bench/results/2026-11-28-h100-half-digit-passes.md) the passes took
        // 0.23-0.34 ms where gather + cuFFT took 0.37-0.47 for 1-D lengths over 4096 points,
        // and 0.14-0.36 against 0.25-0.48 for c2c of rank 2-3 (strided passes in wide blocks).
        let has_passes = pass_plan(p, device.shared_optin).is_some();
        let way = match fp16 {
            Some(plan) => Way::Fp16(plan),
            None => match has_passes.then(|| tensor_way(p, &device)).flatten() {
                Some(way) => way,
                None => match pass_source(p, Alignment::Word, device.shared_optin) {
                    Some((source, passes)) => passes_way(p, &device, &source, &passes)
                        .or_else(|e| {
                            crate::log::log_info!(
                                "fftxh: pass kernels failed for {} ({}): gather + cuFFT f32 + scatter",
                                p.describe(),
                                e.message
                            );
                            cufft_way(p, &device)
                        })?,
                    None => cufft_way(p, &device)?,
                },
            },
        };
        Ok(HalfGpu {
            problem: p.clone(),
            way,
            device,
            table,
            current: Mutex::new((u64::MAX, u64::MAX)),
        })
    }

    /// Queues the transform of the device arrays at `input` and `output` (binary16, the
    /// problem's layout; the addresses are those of scalar 0, as the caller's pointers) on
    /// CUDA's legacy default stream, as a cuFFT call on stream 0: it returns once the work is
    /// queued, and later work of that stream (or any blocking stream, or a `cudaMemcpy`) runs
    /// after it. [`HalfGpu::wait`] waits for it.
    ///
    /// # Safety
    /// Both must be device memory holding every element the problem addresses.
    pub unsafe fn run(&self, input: u64, output: u64) -> Result<()> {
        use std::ffi::c_void;
        let mut current = self.current.lock();
        self.device.bind()?;
        if *current != (input, output) {
            let scratch = match &self.way {
                Way::Passes(_, Some(b), _) => b.ptr,
                _ => 0,
            };
            let words = [input, output, scratch];
            check(
                cu::cuMemcpyHtoD_v2(self.table.ptr, words.as_ptr() as *const _, 24),
                "cuMemcpyHtoD",
            )?;
            *current = (input, output);
        }
        let stream = std::ptr::null_mut();
        let mut table = self.table.ptr;
        let alignment = match self.way {
            // The tensor-core kernel's 16-byte loads: other arrays take the pass kernel.
            Way::Tensor(..) if !(input | output).is_multiple_of(16) => Alignment::Half,
            _ => Alignment::of(&[input, output]),
        };
        match &self.way {
            Way::Fp16(plan) => plan.exec(input, output)?,
            Way::Passes(launches, _, _) | Way::Tensor(launches, _) => {
                let launches = launches.get(alignment, || {
                    if matches!(self.way, Way::Tensor(..)) {
                        crate::log::log_info!(
                            "fftxh: arrays not 16-byte aligned for {}: the pass kernel instead of the tensor-core kernel",
                            self.problem.describe()
                        );
                    }
                    let (source, passes) =
                        pass_source(&self.problem, alignment, self.device.shared_optin)
                            .expect("the pass kernels of one alignment are those of the other");
                    pass_launches(&self.device, &source, &passes)
                })?;
                for l in launches {
                    let f = l.function as cu::CUfunction;
                    let shape = (l.grid, l.threads, l.shared);
                    super::kernels::launch_pass(f, shape, stream, l.batch, table)?;
                }
            }
            Way::Cufft {
                plan,
                kernels,
                sign,
                scratch,
                total_in,
                total_out,
            } => {
                let &(gather, scatter) = kernels.get(alignment, || {
                    gather_scatter(&self.problem, &self.device, alignment)
                })?;
                let a = scratch[0].ptr;
                let b = scratch.last().map_or(a, |s| s.ptr);
                let (mut ti, mut to, mut pa, mut pb) = (*total_in, *total_out, a, b);
                super::kernels::launch(
                    &self.device,
                    gather as cu::CUfunction,
                    ti,
                    stream,
                    &mut [
                        &mut ti as *mut u64 as *mut c_void,
                        &mut table as *mut u64 as *mut c_void,
                        &mut pa as *mut u64 as *mut c_void,
                    ],
                )?;
                plan.exec(a, b, *sign)?;
                super::kernels::launch(
                    &self.device,
                    scatter as cu::CUfunction,
                    to,
                    stream,
                    &mut [
                        &mut to as *mut u64 as *mut c_void,
                        &mut table as *mut u64 as *mut c_void,
                        &mut pb as *mut u64 as *mut c_void,
                    ],
                )?;
            }
        }
        Ok(())
    }

    /// Waits for the transforms [`HalfGpu::run`] queued.
    pub fn wait(&self) -> Result<()> {
        self.device.bind()?;
        // SAFETY: the legacy default stream of the device's context.
        check(
            unsafe { cu::cuStreamSynchronize(std::ptr::null_mut()) },
            "cuStreamSynchronize",
        )
    }

    pub fn describe(&self) -> String {
        match &self.way {
            Way::Fp16(_) => format!(
                "gpu {}: cuFFT fp16 (cufftXtMakePlanMany, CUDA_C_16F: fp16 arithmetic, about 1e-3 relative error, as FFTX_HALF_COMPUTE=f16 asks)",
                self.device.name
            ),
            Way::Passes(_, _, what) | Way::Tensor(_, what) => format!(
                "gpu {}: {what}, binary16 widened on load and rounded to nearest even on store",
                self.device.name
            ),
            Way::Cufft { plan, .. } => format!(
                "gpu {}: gather kernel (binary16 -> packed f32), cuFFT f32 (work {} bytes), scatter kernel (f32 -> binary16, nearest even)",
                self.device.name, plan.work_bytes
            ),
        }
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
    use crate::problem::IoDim;
    use crate::program::pencil::STATIC_SHARED;

    /// An H100's or H200's dynamic shared memory a block (bytes).
    const SHARED: usize = 227 << 10;

    fn problem(kind: Kind, dims: Vec<IoDim>, loops: Vec<IoDim>) -> Problem {
        Problem {
            kind,
            dims,
            loops,
            precision: Precision::F32,
            in_place: false,
        }
    }

    /// The element accesses address the caller's layout: the packed offset's axes from the
    /// last, the batch over the loops, strides as given (in binary16 scalars).
    #[test]
    fn accesses_follow_the_callers_strides() {
        let p = problem(
            Kind::Dft { sign: -1 },
            vec![IoDim::new(12, 2 * 5, 2 * 3), IoDim::new(5, 2, 2 * 40)],
            vec![IoDim::new(7, 2 * 60, 2)],
        );
        let s = access_source(&p, Alignment::Word);
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
        // Word-aligned arrays: a complex element as one 32-bit word through the read-only
        // cache; arrays that are not: two 16-bit accesses; neither tests the address.
        assert!(s.contains("const unsigned w = __ldg((const unsigned*)a + (pos >> 1));"));
        let half = access_source(&p, Alignment::Half);
        assert!(
            half.contains("make_float2(fxh_f(__ldg(h + pos)), fxh_f(__ldg(h + pos + 1)))")
                && half.contains("h[pos] = fxh_h(e.x); h[pos + 1] = fxh_h(e.y);")
                && !half.contains("unsigned*)a"),
            "{half}"
        );
        assert!(!s.contains("a & 3") && !half.contains("a & 3"));
        assert_eq!(Alignment::of(&[64, 1 << 40]), Alignment::Word);
        assert_eq!(Alignment::of(&[64, 6]), Alignment::Half);
        assert!(gather_scatter_source(&p, Alignment::Word)
            .contains("fxh_scatter(u64 total, const u64* P, const fx_cplx* in)"));
        // Two passes: the last axis (5) from the caller's input into the scratch, then the
        // first (12) from the scratch (packed: 5 complex apart along it, 60 between
        // transforms) into the caller's output.
        let (src, passes) =
            pass_source(&p, Alignment::Word, SHARED).expect("12 and 5 have pass kernels");
        assert_eq!(passes.len(), 2);
        assert_eq!((passes[0].pass.n, passes[0].pass.batch()), (5, 12 * 7));
        assert_eq!((passes[1].pass.n, passes[1].pass.batch()), (12, 5 * 7));
        // The pass kernels address element j of pencil b (32-bit divisions of b over the
        // other axes and the loops), complex binary16 elements as one 32-bit word.
        let st0 = &src[src.find("fftx_stp0").unwrap()..];
        assert!(
            st0.contains("[2];")
                && st0.contains("int pos = (int)j * 1;")
                && st0.contains("pos += (int)(c % 12u) * 5; c /= 12u;")
                && st0.contains("pos += (int)c * 60;"),
            "{st0}"
        );
        let ld1 = &src[src.find("fftx_ldp1").unwrap()..];
        assert!(
            ld1.contains("int pos = (int)j * 5;")
                && ld1.contains("pos += (int)(c % 5u) * 1; c /= 5u;"),
            "{ld1}"
        );
        let st1 = &src[src.find("fftx_stp1").unwrap()..];
        assert!(
            st1.contains("[1];")
                && st1.contains("int pos = (int)j * 6;")
                && st1.contains("pos += (int)(c % 5u) * 80; c /= 5u;")
                && st1.contains("pos += (int)c * 2;")
                && st1.contains("  ((unsigned*)a)[(pos >> 1)] ="),
            "{st1}"
        );
        let ld0 = &src[src.find("fftx_ldp0").unwrap()..];
        assert!(ld0.contains("const unsigned w = __ldg((const unsigned*)a + (pos >> 1));"));
        let ld1 = &src[src.find("fftx_ldp1").unwrap()..];
        // The scratch: a complex element one word of two binary16 values.
        assert!(ld1.contains("const unsigned w = __ldg((const unsigned*)a + pos);"));
        // 2-byte aligned arrays: 16-bit accesses to them, words to the scratch (always aligned).
        let (half, _) = pass_source(&p, Alignment::Half, SHARED).unwrap();
        assert!(
            !half.contains("(pos >> 1)")
                && half.contains("fxh_f(__ldg(h + pos))")
                && half.contains("((unsigned*)a)[pos] =")
        );
        // r2c: real loads, complex stores over n/2+1 on the last axis; one pass.
        let p = problem(
            Kind::R2c,
            vec![IoDim::new(10, 1, 2)],
            vec![IoDim::new(3, 10, 12)],
        );
        let s = access_source(&p, Alignment::Word);
        assert!(s.contains("__device__ fx_real fftx_ld0"), "{s}");
        assert!(s.contains("fx_cplx e"), "{s}");
        assert!(s.contains("i = r % 6ULL;"), "{s}");
        assert_eq!(unsupported(&p), None);
        let (_, passes) = pass_source(&p, Alignment::Word, SHARED).expect("n = 10 is one pass");
        assert_eq!(
            (passes.len(), passes[0].pass.n, passes[0].pass.batch()),
            (1, 10, 3)
        );
        // A c2r of rank 2: the first axis first (c2c backward), the real last axis last.
        let p = problem(
            Kind::C2r,
            vec![IoDim::new(6, 2 * 5, 8), IoDim::new(8, 2, 1)],
            vec![],
        );
        let plan = pass_plan(&p, SHARED).unwrap();
        assert_eq!(plan[0].kind, Kind1d::Dft { sign: 1 });
        assert_eq!((plan[1].kind, plan[1].n), (Kind1d::C2r, 8));
        // Lengths with a prime factor over 16 take cuFFT.
        let p17 = problem(
            Kind::Dft { sign: 1 },
            vec![IoDim::new(17 * 3, 2, 2)],
            vec![],
        );
        assert!(pass_source(&p17, Alignment::Word, SHARED).is_none());
        let p4 = problem(Kind::Dft { sign: 1 }, vec![IoDim::new(2, 2, 2); 4], vec![]);
        assert!(unsupported(&p4).unwrap().contains("rank 4"));
    }

    /// A stage takes several items a thread where that keeps every thread busy (1024 points:
    /// 64 threads a pencil, two items of each radix-8 stage, one of the radix-16 one; no item
    /// needs an existence test), and 3125 takes two radix-25 stages and a radix-5 one.
    #[test]
    fn stages_take_several_items_a_thread() {
        let one_d = |n: isize| {
            problem(
                Kind::Dft { sign: -1 },
                vec![IoDim::new(n, 2, 2)],
                vec![IoDim::new(64, 2 * n, 2 * n)],
            )
        };
        let (src, launches) = pass_source(&one_d(1024), Alignment::Word, SHARED).unwrap();
        assert_eq!(launches[0].shape.threads / launches[0].shape.pencils, 64);
        for stage in [
            "stage 0: radix 8, p = 1, 2 a thread",
            "stage 1: radix 8, p = 8, 2 a thread",
            "stage 2: radix 16, p = 64, 1 a thread",
        ] {
            assert!(src.contains(stage), "{stage}");
        }
        assert!(src.contains("const int ti = t + 64;") && !src.contains("ti < "));
        let (src, _) = pass_source(&one_d(3125), Alignment::Word, SHARED).unwrap();
        for stage in [
            "stage 0: radix 25, p = 1, 1 a thread",
            "stage 1: radix 25, p = 25, 1 a thread",
            "stage 2: radix 5, p = 625, 5 a thread",
        ] {
            assert!(src.contains(stage), "{stage}");
        }
    }

    /// A pencil over 4096 points contiguous on both sides takes one pass kernel, a pencil a
    /// block, in dynamic shared memory where the device has it (the last axis of a 2-D too);
    /// strided, in place over overlapping batches, or on a card with less shared memory, the
    /// digit passes.
    #[test]
    fn long_contiguous_pencils_take_one_wide_pass() {
        let one_d = |n: isize, is: isize| {
            problem(
                Kind::Dft { sign: -1 },
                vec![IoDim::new(n, is, 2)],
                vec![IoDim::new(3, is * n, 2 * n)],
            )
        };
        let (src, passes) = pass_source(&one_d(16384, 2), Alignment::Word, SHARED).unwrap();
        assert_eq!(passes.len(), 1);
        let shape = &passes[0].shape;
        assert_eq!((shape.pencils, shape.threads), (1, 512));
        assert!(src.contains("extern __shared__ fx_cplx sm[];"));
        let bytes = cudagen::fused_shared_bytes(16384, shape, Precision::F32);
        assert!(bytes > STATIC_SHARED && bytes <= SHARED, "{bytes}");
        let lengths = |p: &Problem, shared: usize| -> Vec<usize> {
            let (_, passes) = pass_source(p, Alignment::Word, shared).unwrap();
            passes.iter().map(|l| l.pass.n).collect()
        };
        assert_eq!(lengths(&one_d(16384, 2), 99 << 10), [64, 256]);
        assert_eq!(lengths(&one_d(16384, 4), SHARED), [64, 256]);
        let mut overlapping = problem(
            Kind::Dft { sign: -1 },
            vec![IoDim::new(8192, 2, 2)],
            vec![IoDim::new(2, 2, 2)],
        );
        overlapping.in_place = true;
        assert_eq!(lengths(&overlapping, SHARED).len(), 2);
        let two_d = problem(
            Kind::Dft { sign: 1 },
            vec![IoDim::new(3, 2 * 6144, 2 * 6144), IoDim::new(6144, 2, 2)],
            vec![],
        );
        assert_eq!(lengths(&two_d, SHARED), [6144, 3]);
        // The fused shapes keep static shared memory.
        let (src, _) = pass_source(&one_d(4096, 2), Alignment::Word, SHARED).unwrap();
        assert!(src.contains("__shared__ fx_cplx sm[") && !src.contains("extern __shared__"));
    }

    /// A pass strided on a side over pencils too long for 8 to fit 48 KiB takes 8 a block (a
    /// 32-byte sector of binary16 elements) in dynamic shared memory where the device has it.
    #[test]
    fn long_strided_pencils_take_eight_a_block() {
        let p = problem(
            Kind::Dft { sign: 1 },
            vec![IoDim::new(1024, 2 * 16, 2 * 16), IoDim::new(16, 2, 2)],
            vec![],
        );
        let (src, passes) = pass_source(&p, Alignment::Word, SHARED).unwrap();
        assert_eq!((passes[1].pass.n, passes[1].shape.pencils), (1024, 8));
        assert!(src.contains("extern __shared__ fx_cplx sm[];"));
        let (_, passes) = pass_source(&p, Alignment::Word, STATIC_SHARED).unwrap();
        assert_eq!(passes[1].shape.pencils, 4);
    }

    /// A 1-D c2c over 4096 points (radices up to 16) takes passes over the digits of its
    /// length, in place too: strided pass kernels with wide blocks, the twiddle factors in
    /// the stores of all but the last, which writes the caller's output in order.
    #[test]
    fn long_lengths_take_digit_passes() {
        let n = 3 << 14;
        let mut p = problem(
            Kind::Dft { sign: 1 },
            vec![IoDim::new(n, 2, 2)],
            vec![IoDim::new(3, 2 * n, 2 * n)],
        );
        p.in_place = true;
        let (src, passes) = pass_source(&p, Alignment::Word, SHARED).expect("192 x 256");
        let lengths: Vec<usize> = passes.iter().map(|l| l.pass.n).collect();
        assert_eq!(lengths, [192, 256]);
        assert_eq!(passes[0].pass.batch(), 256 * 3);
        assert_eq!(passes[1].pass.batch(), 192 * 3);
        assert_eq!(
            passes[0].shape,
            strided_shape(192, Precision::F32, SHARED).unwrap()
        );
        let st0 = &src[src.find("void fftx_stp0").unwrap()..];
        assert!(
            st0.contains("e = fx_mul(e, fxh_tw0((unsigned)j * ((unsigned)b % 256u)));")
                && st0.contains("[2];"),
            "{st0}"
        );
        let st1 = &src[src.find("void fftx_stp1").unwrap()..];
        assert!(!st1[..st1.find('}').unwrap()].contains("fxh_tw"));
        // The last pass writes element k1 + 192 k2 of the caller's output.
        assert!(
            st1.contains("[1];")
                && st1.contains("int pos = (int)j * 384;")
                && st1.contains("pos += (int)(c % 192u) * 2; c /= 192u;"),
            "{st1}"
        );
        // w^i = w^(256 (i >> 8)) w^(i & 255) over the 49152 = 192 x 256 indices.
        assert!(src.contains("fxh_twl0[256]") && src.contains("fxh_twh0[192]"));
        // Prime factors over 16, or over 2^24 points: gather + cuFFT.
        let p = problem(
            Kind::Dft { sign: 1 },
            vec![IoDim::new(17 * 4096, 2, 2)],
            vec![],
        );
        assert!(pass_source(&p, Alignment::Word, SHARED).is_none());
    }

    /// cuFFT's advanced layouts: row-major with whole embeddings, one loop at most, positive
    /// strides; anything else takes the f32 ways.
    #[test]
    fn advanced_layouts() {
        // 2-D 8x4 complex, rows padded to 6 elements, element stride 1, 60 apart (scalars x2).
        assert_eq!(
            advanced(&[8, 4], &[12, 2], &[(3, 120)], 2),
            Some((vec![8, 6], 1, 60))
        );
        // Strided: 3 elements apart.
        assert_eq!(advanced(&[16], &[6], &[], 2), Some((vec![16], 3, 1)));
        // Real side of an in-place r2c of 16: padded to 18.
        assert_eq!(
            advanced(&[4, 16], &[18, 1], &[], 1),
            Some((vec![4, 18], 1, 1))
        );
        assert_eq!(advanced(&[16], &[-2], &[], 2), None);
        assert_eq!(advanced(&[4, 8], &[2, 8], &[], 2), None, "column-major");
        assert_eq!(
            advanced(&[8], &[2], &[(2, 16), (3, 32)], 2),
            None,
            "two loops"
        );
    }
}
