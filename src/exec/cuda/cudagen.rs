//! CUDA source for FFTX plans on the GPU, generated from pencil programs and pointwise
//! recordings (compiled at run time by NVRTC: `exec::cuda::kernels::compile_source`).
//!
//! For each pass `k` of a chain: `fftx_ld{k}` (element `off` of the pass's virtual input) and
//! `fftx_st{k}` (stores element `off` of its virtual output), with cuFFT's LTO callback
//! signatures and C++ linkage (cuFFT declares the callback it is given by name as a C++
//! function of that signature: an `extern "C"` one is not found and planning fails with
//! CUFFT_INTERNAL_ERROR), so the same functions serve as callbacks (compiled to LTO-IR) or inside the
//! gather/scatter kernels `fftx_gather{k}` / `fftx_scatter{k}` (compiled to PTX). Their meaning
//! is `load_element` / `store_element` of `exec::cpu::kernel`, the CPU twins.
//!
//! Buffers are reached through a table of device addresses (`callerInfo` / a kernel argument),
//! so the source depends on the shapes, not on the arrays: plans of the same geometry share one
//! compiled module. The precision (FFTX's `fftx_real` double, `fftxf_real` float) is the
//! prelude's (`prelude`): the code uses its `fx_real` / `fx_cplx` types and `fx_lit` constants.

use super::shared_layout::SharedLayout;
use crate::problem::{Kind1d, Precision};
use crate::program::fftgen::lit;
use crate::program::kernel::{Code, Inst, Reg};
use crate::program::pencil::{
    fused_shape, Fused, FusedShape, Mid, Pass, PencilProgram, SegMap, Side, STATIC_SHARED,
};
use std::fmt::Write;
use std::ops::Range;

/// The types of a precision: `fx_real` (float or double) and `fx_cplx` (float2 or double2),
/// and `fx_make` (make_float2 or make_double2). Everything after uses only these.
fn types(p: Precision) -> &'static str {
    match p {
        Precision::F64 => {
            "typedef double fx_real;\ntypedef double2 fx_cplx;\n#define fx_make make_double2\n"
        }
        Precision::F32 => {
            "typedef float fx_real;\ntypedef float2 fx_cplx;\n#define fx_make make_float2\n"
        }
    }
}

const PRELUDE: &str = r#"typedef unsigned long long u64;
typedef long long i64;
__device__ __forceinline__ fx_cplx fx_c(fx_real re, fx_real im) { return fx_make(re, im); }
// A constant given by the bits of its f64 value, rounded to fx_real (folded at compile time).
__device__ __forceinline__ fx_real fx_lit(u64 bits) { return (fx_real)__longlong_as_double((i64)bits); }
__device__ __forceinline__ fx_cplx fx_rdc(u64 a, i64 pos) { const fx_real* q = (const fx_real*)a + 2 * pos; return fx_c(q[0], q[1]); }
__device__ __forceinline__ fx_cplx fx_rdr(u64 a, i64 pos) { return fx_c(((const fx_real*)a)[pos], 0); }
__device__ __forceinline__ void fx_wrc(u64 a, i64 pos, fx_cplx v) { fx_real* q = (fx_real*)a + 2 * pos; q[0] = v.x; q[1] = v.y; }
__device__ __forceinline__ void fx_wrr(u64 a, i64 pos, fx_cplx v) { ((fx_real*)a)[pos] = v.x; }
__device__ __forceinline__ fx_cplx fx_mul(fx_cplx a, fx_cplx b) { return fx_c(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
__device__ __forceinline__ fx_cplx fx_conj(fx_cplx a) { return fx_c(a.x, -a.y); }
// The spectrum of a (h = 0) or b (h = 1) from Z = FFT(a + i b) at k (z) and n - k (w).
__device__ __forceinline__ fx_cplx fx_half(fx_cplx z, fx_cplx w, int h) { const fx_real f = 0.5; return h ? fx_c(f * (z.y + w.y), -f * (z.x - w.x)) : fx_c(f * (z.x + w.x), f * (z.y - w.y)); }
__device__ __forceinline__ fx_cplx fx_div(fx_cplx a, fx_cplx b) { fx_real s = b.x * b.x + b.y * b.y; return fx_c((a.x * b.x + a.y * b.y) / s, (a.y * b.x - a.x * b.y) / s); }
"#;

/// The prelude of every generated source: the precision's types, then the helpers over them.
pub fn prelude(p: Precision) -> String {
    format!("{}{PRELUDE}", types(p))
}

fn reg(r: Reg) -> String {
    match r {
        Reg::In => "r_in".into(),
        Reg::Out => "r_out".into(),
        Reg::Data => "r_data".into(),
        Reg::Temp(i) => format!("r_t{i}"),
    }
}

/// A block computing `v = prog(v, g)` (`g` read by `data`).
fn program(p: &Code, v: &str, g: &str) -> String {
    let mut s = format!("{{ fx_cplx r_in = {v}, r_out = fx_c(0.0, 0.0), r_data = {g};");
    for t in 0..p.temps {
        let _ = write!(s, " fx_cplx r_t{t} = fx_c(0.0, 0.0);");
    }
    for inst in &p.insts {
        let line = match *inst {
            Inst::Mov(d, x) => format!("{} = {};", reg(d), reg(x)),
            Inst::Add(d, x) => format!("{0} = fx_c({0}.x + {1}.x, {0}.y + {1}.y);", reg(d), reg(x)),
            Inst::Sub(d, x) => format!("{0} = fx_c({0}.x - {1}.x, {0}.y - {1}.y);", reg(d), reg(x)),
            Inst::Mul(d, x) => format!("{0} = fx_mul({0}, {1});", reg(d), reg(x)),
            Inst::Div(d, x) if p.complex => format!("{0} = fx_div({0}, {1});", reg(d), reg(x)),
            Inst::Div(d, x) => format!("{0} = fx_c({0}.x / {1}.x, 0.0);", reg(d), reg(x)),
            Inst::Conj(d) => format!("{0}.y = -{0}.y;", reg(d)),
            Inst::Neg(d) => format!("{0} = fx_c(-{0}.x, -{0}.y);", reg(d)),
            Inst::Scale(d, c) => format!("{0} = fx_c({0}.x * {1}, {0}.y * {1});", reg(d), lit(c)),
            Inst::Set(d, re, im) => format!("{} = fx_c({}, {});", reg(d), lit(re), lit(im)),
        };
        let _ = write!(s, " {line}");
    }
    let _ = write!(s, " {v} = r_out; }}");
    s
}

/// `lo <= i_d < hi` for every axis where the map's range does not already hold `reach[d]`.
fn inside(ranges: &[Range<usize>], reach: &[Range<usize>]) -> String {
    let mut c: Vec<String> = Vec::new();
    for (d, (r, want)) in ranges.iter().zip(reach).enumerate() {
        if r.start > want.start {
            c.push(format!("i{d} >= {}", r.start));
        }
        if r.end < want.end {
            c.push(format!("i{d} < {}", r.end));
        }
    }
    if c.is_empty() {
        "true".into()
    } else {
        c.join(" && ")
    }
}

/// The position `base + sum_d (i_d - origin_d) strides_d` for indices within `reach`, in 32-bit
/// arithmetic when every such position (doubled, for complex elements) fits: the common case,
/// and fewer instructions per element than 64-bit multiplications.
fn offset(base: isize, origin: &[usize], strides: &[isize], reach: &[Range<usize>]) -> String {
    let mut bound = base.unsigned_abs() as u128;
    for ((&o, &st), r) in origin.iter().zip(strides).zip(reach) {
        let far = (r.start.abs_diff(o)).max(r.end.saturating_sub(1).abs_diff(o)) as u128;
        bound += far * st.unsigned_abs() as u128;
    }
    let narrow = bound < 1 << 30;
    let ty = if narrow { "int" } else { "i64" };
    let mut s = format!("({ty}){base}");
    for (d, (&o, &st)) in origin.iter().zip(strides).enumerate() {
        if st != 0 {
            let _ = write!(s, " + (({ty})i{d} - {o}) * ({ty}){st}");
        }
    }
    s
}

/// Where two sets of index ranges overlap (the indices an access guarded by one reaches
/// within the other).
fn overlap(a: &[Range<usize>], b: &[Range<usize>]) -> Vec<Range<usize>> {
    a.iter()
        .zip(b)
        .map(|(x, y)| x.start.max(y.start)..x.end.min(y.end).max(x.start.max(y.start)))
        .collect()
}

/// The hull of two sets of index ranges.
fn hull(a: &[Range<usize>], b: &[Range<usize>]) -> Vec<Range<usize>> {
    a.iter()
        .zip(b)
        .map(|(x, y)| x.start.min(y.start)..x.end.max(y.end))
        .collect()
}

fn read_seg(m: &SegMap, reach: &[Range<usize>]) -> String {
    format!(
        "{}(P[{}], {})",
        if m.complex { "fx_rdc" } else { "fx_rdr" },
        m.slot,
        offset(m.base, &m.origin, &m.strides, reach)
    )
}

fn write_seg(m: &SegMap, v: &str, reach: &[Range<usize>]) -> String {
    format!(
        "{}(P[{}], {}, {v});",
        if m.complex { "fx_wrc" } else { "fx_wrr" },
        m.slot,
        offset(m.base, &m.origin, &m.strides, reach)
    )
}

/// The pointwise code fused into an access of a pass that reaches `want`.
fn fused(f: &Fused, v: &str, want: &[Range<usize>]) -> String {
    let g = match &f.data {
        // Read wherever the pass reaches (the data cover it): bound over both.
        Some(d) => read_seg(d, &hull(&d.clip, want)),
        None => "fx_c(0.0, 0.0)".into(),
    };
    program(&f.prog, v, &g)
}

/// Decodes pencil `b` (of the pass's batch) and position `j` along the pass axis into the chain
/// index `i0..` of pass `p`. The pencil's index is split with 32-bit divisions when the pass has
/// fewer than 2^32 pencils (known here, so no branch in the kernel): 64-bit divisions by a
/// constant cost several times more instructions, and every element loaded, passed through a
/// middle and stored pays them.
fn decode_pencil(p: &Pass) -> String {
    let rank = p.pencils.len();
    let others: Vec<usize> = (0..rank).filter(|&d| d != p.axis).collect();
    let count: u128 = others.iter().map(|&d| p.pencils[d].len() as u128).product();
    let ty = if count <= u32::MAX as u128 {
        "unsigned"
    } else {
        "u64"
    };
    let mut s = format!("  i64 i{} = j;\n  {ty} c = ({ty})b;\n", p.axis);
    for (k, &d) in others.iter().enumerate().rev() {
        let r = &p.pencils[d];
        if k == 0 {
            let _ = writeln!(s, "  i64 i{d} = {} + (i64)c;", r.start);
        } else {
            let _ = writeln!(
                s,
                "  i64 i{d} = {} + (i64)(c % {}u); c /= {}u;",
                r.start,
                r.len(),
                r.len()
            );
        }
    }
    s
}

/// The callback form of an access (`head`, taking element `off` of a virtual array of `len`
/// elements per pencil): finds the pencil `b` once and makes `call(position)`, a call of the
/// pencil form.
fn by_offset(head: &str, call: impl Fn(&str) -> String, len: usize) -> String {
    let call = call(&format!("(i64)(off - b * {len}ULL)"));
    format!("{head} {{\n  const u64 b = off / {len}ULL;\n  {call};\n}}\n")
}

/// What pass `p` can address: its pencil box, and `along` on its axis.
fn reach(p: &Pass, along: &Range<usize>) -> Vec<Range<usize>> {
    let mut r = p.pencils.clone();
    r[p.axis] = along.clone();
    r
}

fn load_fn(k: usize, p: &Pass) -> String {
    let ty = if p.kind.real_in() {
        "fx_real"
    } else {
        "fx_cplx"
    };
    let mut s =
        format!("__device__ __forceinline__ {ty} fftx_ldp{k}(const u64* P, u64 b, i64 j) {{\n");
    s += &decode_pencil(p);
    let zero = if p.kind.real_in() {
        "0.0"
    } else {
        "fx_c(0.0, 0.0)"
    };
    let _ = writeln!(
        s,
        "  if (j < {} || j >= {}) return {zero};",
        p.live_in.start, p.live_in.end
    );
    s += "  fx_cplx v = fx_c(0.0, 0.0);\n";
    let want = reach(p, &p.live_in);
    match &p.load {
        Side::Inter { slot, map } => {
            let ranges: Vec<Range<usize>> = map
                .origin
                .iter()
                .zip(&map.extent)
                .map(|(&o, &e)| o..o + e)
                .collect();
            let _ = writeln!(
                s,
                "  if ({}) v = ((const fx_cplx*)P[{slot}])[{}];",
                inside(&ranges, &want),
                offset(0, &map.origin, &map.strides, &overlap(&ranges, &want))
            );
        }
        Side::Segments(segs) => {
            for m in segs {
                let _ = writeln!(
                    s,
                    "  if ({}) v = {};",
                    inside(&m.clip, &want),
                    read_seg(m, &overlap(&m.clip, &want))
                );
            }
        }
    }
    if let Some(f) = &p.head {
        let _ = writeln!(s, "  {}", fused(f, "v", &want));
    }
    if p.kind == Kind1d::C2r {
        let nyq = if p.n.is_multiple_of(2) {
            format!(" || j == {}", p.n / 2)
        } else {
            String::new()
        };
        let _ = writeln!(s, "  if (j == 0{nyq}) v.y = 0.0;");
    }
    s += if p.kind.real_in() {
        "  return v.x;\n}\n"
    } else {
        "  return v;\n}\n"
    };
    s + &by_offset(
        &format!("__device__ {ty} fftx_ld{k}(void* dataIn, u64 off, void* info, void* smem)"),
        |j| format!("return fftx_ldp{k}((const u64*)info, b, {j})"),
        p.len_in(),
    )
}

fn store_fn(k: usize, p: &Pass) -> String {
    let ty = if p.kind_out().real_out() {
        "fx_real"
    } else {
        "fx_cplx"
    };
    let mut s = format!(
        "__device__ __forceinline__ void fftx_stp{k}(const u64* P, u64 b, i64 j, {ty} e) {{\n"
    );
    s += &decode_pencil(p);
    let _ = writeln!(
        s,
        "  if (j < {} || j >= {}) return;",
        p.live_out.start, p.live_out.end
    );
    let _ = writeln!(
        s,
        "  fx_cplx v = {};",
        if p.kind_out().real_out() {
            "fx_c(e, 0.0)"
        } else {
            "e"
        }
    );
    let want = reach(p, &p.live_out);
    if let Some(f) = &p.tail {
        let _ = writeln!(s, "  {}", fused(f, "v", &want));
    }
    match &p.store {
        Side::Inter { slot, map } => {
            let ranges: Vec<Range<usize>> = map
                .origin
                .iter()
                .zip(&map.extent)
                .map(|(&o, &e)| o..o + e)
                .collect();
            let _ = writeln!(
                s,
                "  if ({}) ((fx_cplx*)P[{slot}])[{}] = v;",
                inside(&ranges, &want),
                offset(0, &map.origin, &map.strides, &overlap(&ranges, &want))
            );
        }
        Side::Segments(segs) => {
            for m in segs {
                let _ = writeln!(
                    s,
                    "  if ({}) {}",
                    inside(&m.clip, &want),
                    write_seg(m, "v", &overlap(&m.clip, &want))
                );
            }
        }
    }
    s += "}\n";
    s + &by_offset(
        &format!(
            "__device__ void fftx_st{k}(void* dataOut, u64 off, {ty} e, void* info, void* smem)"
        ),
        |j| format!("fftx_stp{k}((const u64*)info, b, {j}, e)"),
        p.len_out(),
    )
}

/// The middle of a merged pass: `fftx_midp{k}(P, b, j, v)` for element `j` of pencil `b` of the
/// first transform's output (twin: `pencil::mid_element`).
fn mid_fn(k: usize, p: &Pass, m: &Mid) -> String {
    let mut s = format!(
        "__device__ __forceinline__ fx_cplx fftx_midp{k}(const u64* P, u64 b, i64 j, fx_cplx v) {{\n"
    );
    s += &decode_pencil(p);
    let _ = writeln!(
        s,
        "  if (j < {} || j >= {}) return fx_c(0.0, 0.0);",
        m.keep.start, m.keep.end
    );
    if let Some(f) = &m.fused {
        let _ = writeln!(s, "  {}", fused(f, "v", &reach(p, &m.keep)));
    }
    if m.kind == Kind1d::C2r {
        let nyq = if p.n.is_multiple_of(2) {
            format!(" || j == {}", p.n / 2)
        } else {
            String::new()
        };
        let _ = writeln!(s, "  if (j == 0{nyq}) v.y = 0.0;");
    }
    s += "  return v;\n}\n";
    s
}

const GRID_STRIDE: &str = "for (u64 off = (u64)blockIdx.x * blockDim.x + threadIdx.x; off < total; off += (u64)gridDim.x * blockDim.x)";

fn contiguous_along(side: &Side, axis: usize) -> bool {
    match side {
        Side::Inter { map, .. } => map.strides[axis].abs() == 1,
        Side::Segments(segs) => !segs.is_empty() && segs.iter().all(|m| m.strides[axis].abs() == 1),
    }
}

/// The dynamic shared memory a block of [`fused_pass`] of pencils of `n` in `shape` takes:
/// none where it fits the static limit (`pencil::STATIC_SHARED`; a wide or strided shape over
/// it declares its shared memory dynamic, and its launch gives these bytes).
pub fn fused_shared_bytes(n: usize, shape: &FusedShape, precision: Precision) -> usize {
    let elem = 2 * precision.bytes();
    let bytes = shape.pencils * SharedLayout::choose(n, shape, elem).stride * elem;
    if bytes > STATIC_SHARED {
        bytes
    } else {
        0
    }
}

/// A pass as one kernel `fftx_pass{k}(batch, P)`: a block transforms `pencils` whole pencils in
/// mixed-radix Stockham stages of codelets in shared memory (`fftgen::Stockham` is its twin),
/// loaded through `fftx_ldp{k}` and stored through `fftx_stp{k}`: one read and one write of the
/// pass's data, as cuFFT with callbacks would do. Where the data are contiguous along the axis
/// the first stage loads its inputs and the last stores its outputs directly (no shared-memory
/// round trip at either end); otherwise loads and stores go through shared memory, walking
/// across the pencils (coalesced either way). On the H100 the direct ends, folded padding and
/// per-stage twiddle tables cut a 768-point binary16 pass from 96 to 39 million warp
/// instructions (bench/results/2026-11-27-h100-half-direct-io.md).
///
/// Block i takes group i of the pencils. (Blocks that looped over groups, loading the next
/// group's first-stage inputs while transforming the current one, lost on an H200 once the
/// binary16 accesses had no address test: one group a block took 0.954x their time over the
/// half benchmark, 3125 points 0.80x, 1024 0.86x;
/// bench/results/2026-11-29-h200-half-aligned-kernels.md. Blocks that looped copying the next
/// group into shared memory by `cp.async` lost as well: 1024 points 0.057 -> 0.064 ms, 768
/// 0.055 -> 0.063, more registers and fewer blocks an SM; and so did more blocks an SM forced by
/// a minimum in `__launch_bounds__`, 1024 points 0.057 -> 0.060 with 48 registers instead of
/// 56; bench/results/2026-11-29-h200-half-wide.md.)
///
/// The accesses are the pencil forms `fftx_ldp{k}(P, pencil, position)`, `fftx_stp{k}` and
/// `fftx_midp{k}` (`load_fn`, `store_fn`, `mid_fn`; `half::access` for binary16 arrays).
/// `shape` is `pencil::fused_shape`'s, or `pencil::strided_shape`'s (more pencils a block).
pub fn fused_pass(k: usize, p: &Pass, shape: &FusedShape, precision: Precision) -> String {
    let n = p.n;
    let layout = SharedLayout::choose(n, shape, 2 * precision.bytes());
    let FusedShape {
        radices,
        pencils: pb,
        threads,
    } = shape.clone();
    let t = threads / pb;
    let nout = p.len_out();
    let stride = layout.stride;
    let pad = |m: &str| format!("(({m}) + ({m}) / {})", layout.pad_every);
    let order = |contig: bool, len: usize| order_of(contig, len, pb, threads);
    // A real pass (r2c, or c2r not merged) packs two real pencils into one complex transform:
    // the block takes 2 * pb pencils.
    let packed = packs(p);
    let per_block = if packed { 2 * pb } else { pb };
    let mut s = String::new();
    let mut signs = vec![p.kind.sign()];
    if let Some(m) = &p.mid {
        signs.push(m.kind.sign());
    }
    if radices.len() > 1 {
        s += &twiddle_tables(k, &radices, &signs, precision);
    }
    let sm = if pb * stride * 2 * precision.bytes() > STATIC_SHARED {
        "extern __shared__ fx_cplx sm[];".to_string()
    } else {
        format!("__shared__ fx_cplx sm[{}];", pb * stride)
    };
    let _ = write!(s, "extern \"C\" __global__ void __launch_bounds__({threads}) fftx_pass{k}(u64 batch, const u64* __restrict__ P) {{\n  {sm}\n");
    let block = format!("  const int q = threadIdx.x / {t}, t = threadIdx.x % {t};\n  fx_cplx* x = sm + q * {stride};\n");
    let (direct_in, direct_out) = direct_ends(p, &radices, packed);
    let load = |j: &str| direct_load(k, p.kind, j);
    let items0 = n / radices[0];
    let _ = writeln!(s, "  const u64 b0 = (u64)blockIdx.x * {per_block};");
    if !direct_in {
        // Loads in two phases: every global read of the thread first, then the shared-memory
        // writes, so that the reads are in flight together (the kernels are latency-bound).
        s += &two_phase(
            pb * n,
            threads,
            &order(contiguous_along(&p.load, p.axis), n),
            &load_read(k, p, packed),
            &format!("sm[q * {stride} + {}] = v[it];", pad("j")),
        );
        s += "  __syncthreads();\n";
    }
    s += &block;
    s += "  const u64 b = b0 + q;\n  const bool live = b < batch;\n";
    let first = |q: usize, ti: &str| load(&format!("({ti} + {})", q * items0));
    let store = |j: &str, v: &str| direct_store(k, p, j, v);
    let ends = |first_stage: bool, last: bool| Ends {
        first: (first_stage && direct_in).then_some(&first as &FirstInput),
        store: (last && direct_out).then_some(&store as &StoreStmt),
    };
    let single = p.mid.is_none();
    stages(
        &mut s,
        &radices,
        t,
        signs[0],
        &format!("fftx_tw{k}_0"),
        (&pad, layout.pad_every),
        ends(true, single),
    );
    if let Some(m) = &p.mid {
        s += &middle(k, p, m, (pb, threads, stride), &pad);
        stages(
            &mut s,
            &radices,
            t,
            signs[1],
            &format!("fftx_tw{k}_1"),
            (&pad, layout.pad_every),
            ends(false, true),
        );
    }
    if !direct_out {
        let contig = contiguous_along(&p.store, p.axis);
        let value = stored_value(p, packed, stride, &pad);
        s += &store_loop(
            per_block * nout,
            threads,
            &order_of(contig, nout, per_block, threads),
            &format!("const u64 b = b0 + q;\n    if (b < batch) fftx_stp{k}(P, b, j, {value});"),
        );
    }
    s += "}\n";
    s
}

/// `q` (the block's pencil) and `j` (the element) of element `e` of a block's `pencils`
/// pencils of `len`, walking along the pencils (`contig`) or across them.
///
/// `e` is `threadIdx.x + it * threads` (the loops of [`two_phase`] and [`store_loop`]). Where
/// `threads` is a multiple of the walk's inner length, a thread keeps one pencil (walking
/// across) or one element (along) in every iteration: that part comes from `threadIdx.x`
/// alone, so the compiler computes it, and the position it gives, once instead of per element
/// (integer address arithmetic was the largest share of the strided passes' instructions:
/// bench/results/2026-11-28-h200-half-pass-sass.md).
fn order_of(contig: bool, len: usize, pencils: usize, threads: usize) -> String {
    let inner = if contig { len } else { pencils };
    let step = threads / inner;
    match (contig, threads.is_multiple_of(inner)) {
        (true, true) => format!(
            "const int q = (int)threadIdx.x / {len} + it * {step}, j = (int)threadIdx.x % {len};"
        ),
        (false, true) => format!(
            "const int q = (int)threadIdx.x % {pencils}, j = (int)threadIdx.x / {pencils} + it * {step};"
        ),
        (true, false) => format!("const int q = e / {len}, j = e % {len};"),
        (false, false) => format!("const int q = e % {pencils}, j = e / {pencils};"),
    }
}

/// The test that element `e` of a block's `total` exists: none where the block's threads
/// divide `total` (every `e = threadIdx.x + it * threads` of the unrolled loops is below it).
fn exists(total: usize, threads: usize) -> String {
    if total.is_multiple_of(threads) {
        "if (true)".to_string()
    } else {
        format!("if (e < {total})")
    }
}

/// Stores the block's `total` elements, `threads` at a time in an unrolled loop: `body` (with
/// `e`, `it` and `order`'s `q` and `j` in scope) for each. (Not unrolled, `#pragma unroll 1`,
/// measured on an H200: 49152 7% and 10^6 5% faster, 2^20 13% slower, the table's geometric
/// mean the same: bench/results/2026-11-28-h200-half-hoisted-order.md.)
fn store_loop(total: usize, threads: usize, order: &str, body: &str) -> String {
    format!(
        "  #pragma unroll\n  for (int it = 0; it < {}; it++) {{\n    const int e = threadIdx.x + it * {threads};\n    {} {{ {order}\n    {body} }}\n  }}\n",
        total.div_ceil(threads),
        exists(total, threads)
    )
}

/// Whether a fused pass loads its first stage's inputs and stores its last stage's outputs
/// directly. Pencils contiguous along the axis skip shared memory at the ends: the first
/// stage's item t reads elements t + q n/r straight from global memory and the last stage's
/// writes elements t + q n/r straight to it (consecutive threads, consecutive elements), where
/// runs of n/r >= 8 consecutive elements fill whole 32-byte sectors.
fn direct_ends(p: &Pass, radices: &[usize], packed: bool) -> (bool, bool) {
    let runs = |r: usize| p.n / r >= 8;
    let direct_in = !packed
        && runs(radices[0])
        && contiguous_along(&p.load, p.axis)
        && matches!(p.kind, Kind1d::Dft { .. } | Kind1d::R2c);
    let direct_out =
        !packed && runs(radices[radices.len() - 1]) && contiguous_along(&p.store, p.axis);
    (direct_in, direct_out)
}

/// Element `j` of the thread's pencil `b` (zero outside the batch) read directly by pass `k`
/// of `kind`, as a complex value.
fn direct_load(k: usize, kind: Kind1d, j: &str) -> String {
    match kind {
        Kind1d::R2c => format!("fx_c(live ? fftx_ldp{k}(P, b, {j}) : 0.0, 0.0)"),
        _ => format!("(live ? fftx_ldp{k}(P, b, {j}) : fx_c(0.0, 0.0))"),
    }
}

/// The statement by which pass `k` stores value `v` directly at element `j` of the thread's
/// pencil `b` (nothing outside the batch or past the output's length).
fn direct_store(k: usize, p: &Pass, j: &str, v: &str) -> String {
    let nout = p.len_out();
    match p.kind_out() {
        Kind1d::R2c => format!("if (live && {j} < {nout}) fftx_stp{k}(P, b, {j}, {v});"),
        Kind1d::C2r => format!("if (live) fftx_stp{k}(P, b, {j}, {v}.x);"),
        Kind1d::Dft { .. } => format!("if (live) fftx_stp{k}(P, b, {j}, {v});"),
    }
}

/// The middle of a merged pass (between its two transforms, in shared memory): keep,
/// pointwise, the second transform's input rules; then the half spectrum extended by symmetry
/// for a c2r. `(pb, threads, stride)`: the block's pencils, threads and pencil stride.
fn middle(
    k: usize,
    p: &Pass,
    m: &Mid,
    (pb, threads, stride): (usize, usize, usize),
    pad: &dyn Fn(&str) -> String,
) -> String {
    let n = p.n;
    let len1 = p.kind.len_out(n);
    let contig = m
        .fused
        .as_ref()
        .and_then(|f| f.data.as_ref())
        .is_none_or(|d| d.strides[p.axis].abs() == 1);
    let pj = pad("j");
    let mut s = two_phase(
        pb * len1,
        threads,
        &order_of(contig, len1, pb, threads),
        &format!(
            "v[it] = sm[q * {stride} + {pj}]; if (b < batch) v[it] = fftx_midp{k}(P, b, j, v[it]);"
        ),
        &format!("sm[q * {stride} + {pj}] = v[it];"),
    );
    s += "  __syncthreads();\n";
    if m.kind == Kind1d::C2r {
        let _ = writeln!(s, "  for (int e = threadIdx.x; e < {}; e += {threads}) {{\n    const int q = e / {n}, j = e % {n};\n    if (j > {h}) {{ fx_cplx w = sm[q * {stride} + {pn}]; sm[q * {stride} + {pj}] = fx_c(w.x, -w.y); }}\n  }}\n  __syncthreads();", pb * n, h = n / 2, pn = pad(&format!("{n} - j")), pj = pad("j"));
    }
    s
}

/// The twiddle tables `fftx_tw{k}_{h}_{st}` of a pass's transforms of length `n` (one per sign
/// `h` and stage `st` after the first): the factors of item k's inputs q = 1..r at
/// `k (r - 1) + q - 1`, so that a thread's factors of a stage are consecutive (one base address,
/// constant offsets).
fn twiddle_tables(k: usize, radices: &[usize], signs: &[i32], precision: Precision) -> String {
    let n: usize = radices.iter().product();
    let mut s = String::new();
    for (h, &sign) in signs.iter().enumerate() {
        let mut pp = radices[0];
        for (st, &r) in radices.iter().enumerate().skip(1) {
            let _ = write!(
                s,
                "__device__ const fx_cplx fftx_tw{k}_{h}_{st}[{}] = {{",
                pp * (r - 1)
            );
            for kk in 0..pp {
                for q in 1..r {
                    let (re, im) = crate::program::fftgen::root(sign, q * kk * (n / (pp * r)), n);
                    let _ = write!(
                        s,
                        "{}{{{}, {}}}",
                        if kk + q > 1 { ", " } else { "" },
                        table_lit(re, precision),
                        table_lit(im, precision)
                    );
                }
            }
            s += "};\n";
            pp *= r;
        }
    }
    s
}

/// The first load phase's statement of a fused pass: element `j` of pencil `b` (of the pair
/// from `b0 + 2 * q` where the pass packs) read into `v[it]`.
fn load_read(k: usize, p: &Pass, packed: bool) -> String {
    let n = p.n;
    let ld = |b: &str, j: &str| format!("fftx_ldp{k}(P, {b}, {j})");
    let c2r_in = |b: &str| {
        format!(
            "(j <= {h} ? {} : fx_conj({}))",
            ld(b, "j"),
            ld(b, &format!("({n} - j)")),
            h = n / 2
        )
    };
    match (p.kind, packed) {
        (Kind1d::R2c, false) => format!("if (b < batch) v[it] = fx_c({}, 0.0);", ld("b", "j")),
        (Kind1d::Dft { .. }, _) => format!("if (b < batch) v[it] = {};", ld("b", "j")),
        (Kind1d::C2r, false) => format!("if (b < batch) v[it] = {};", c2r_in("b")),
        // z = a + i b: the two real pencils, or the two half spectra (extended) combined.
        (Kind1d::R2c, true) => format!("const u64 ba = b0 + 2 * q, bb = ba + 1; fx_real xa = 0, xb = 0; if (ba < batch) xa = {}; if (bb < batch) xb = {}; v[it] = fx_c(xa, xb);", ld("ba", "j"), ld("bb", "j")),
        (Kind1d::C2r, true) => format!("const u64 ba = b0 + 2 * q, bb = ba + 1; fx_cplx xa = fx_c(0.0, 0.0), xb = xa; if (ba < batch) xa = {}; if (bb < batch) xb = {}; v[it] = fx_c(xa.x - xb.y, xa.y + xb.x);", c2r_in("ba"), c2r_in("bb")),
    }
}

/// The value a fused pass stores at element `j` of its pencil `q`, from shared memory
/// (`stride` apart, positions padded by `pad`).
fn stored_value(p: &Pass, packed: bool, stride: usize, pad: &dyn Fn(&str) -> String) -> String {
    let n = p.n;
    match (p.kind_out(), packed) {
        (Kind1d::C2r, false) => format!("sm[q * {stride} + {}].x", pad("j")),
        (_, false) => format!("sm[q * {stride} + {}]", pad("j")),
        // Pencil q of the pair q / 2: its half of z = a + i b.
        (Kind1d::C2r, true) => format!(
            "((q & 1) ? sm[(q >> 1) * {stride} + {pj}].y : sm[(q >> 1) * {stride} + {pj}].x)",
            pj = pad("j")
        ),
        (_, true) => format!(
            "fx_half(sm[(q >> 1) * {stride} + {}], sm[(q >> 1) * {stride} + {}], q & 1)",
            pad("j"),
            pad(&format!("(({n} - j) % {n})"))
        ),
    }
}

/// A twiddle table entry: a literal of the precision (`1.5e0f` for float), correctly rounded.
pub fn table_lit(x: f64, p: Precision) -> String {
    match p {
        Precision::F64 => format!("{x:.17e}"),
        Precision::F32 => format!("{:.9e}f", x as f32),
    }
}

/// Whether a fused pass packs two real pencils into one complex transform.
pub fn packs(p: &Pass) -> bool {
    p.mid.is_none() && matches!(p.kind, Kind1d::R2c | Kind1d::C2r)
}

/// Real pencils a fused pass kernel's block of `shape` takes.
pub fn pencils_per_block(p: &Pass, shape: &FusedShape) -> usize {
    shape.pencils * if packs(p) { 2 } else { 1 }
}

/// A loop over `total` elements of a block in two unrolled phases: `first` for every element of
/// the thread (into `v[it]`, with `q`, `j`, `b` set by `order`), then `then` for each.
fn two_phase(total: usize, threads: usize, order: &str, first: &str, then: &str) -> String {
    let it = total.div_ceil(threads);
    let exists = exists(total, threads);
    format!(
        "  {{\n  fx_cplx v[{it}];\n  #pragma unroll\n  for (int it = 0; it < {it}; it++) {{\n    const int e = threadIdx.x + it * {threads};\n    v[it] = fx_c(0.0, 0.0);\n    {exists} {{ {order} const u64 b = b0 + q; {first} }}\n  }}\n  #pragma unroll\n  for (int it = 0; it < {it}; it++) {{\n    const int e = threadIdx.x + it * {threads};\n    {exists} {{ {order} {then} }}\n  }}\n  }}\n"
    )
}

/// Where a transform's first stage reads and its last stage writes when not in shared memory:
/// `first` gives the first stage's inputs, `store` the statement storing a value at an element
/// of the thread's pencil.
struct Ends<'a> {
    first: Option<&'a FirstInput<'a>>,
    store: Option<&'a StoreStmt<'a>>,
}

/// The first stage's input `q` of item `ti` (element ti + q n/r of the thread's pencil), as an
/// expression.
type FirstInput<'a> = dyn Fn(usize, &str) -> String + 'a;

/// The statement storing value `v` at element `j` of the thread's pencil.
type StoreStmt<'a> = dyn Fn(&str, &str) -> String + 'a;

/// The Stockham stages over the pencil at `x` (thread `t` of the pencil's `per_pencil`
/// threads), the first reading and the last writing through `ends` where it says so (stage 0
/// reads elements t + q n/r; the last stage, p = n/r, writes (t - k) r + k + q p = t + q n/r).
///
/// A stage of n/r items takes ceil(n/r / per_pencil) of them a thread: items t, t + per_pencil,
/// ... Every item's inputs are read (and transformed) before the barrier, every output written
/// after it, so that the thread's items are independent work in flight together.
fn stages(
    s: &mut String,
    radices: &[usize],
    per_pencil: usize,
    sign: i32,
    table: &str,
    (pad, pad_every): (&dyn Fn(&str) -> String, usize),
    ends: Ends,
) {
    use crate::program::fftgen::Codelet;
    let n: usize = radices.iter().product();
    let mut pp = 1usize;
    for (st, &r) in radices.iter().enumerate() {
        let items = n / r;
        let per_thread = items.div_ceil(per_pencil);
        let from_global = st == 0 && ends.first.is_some();
        let to_global = st + 1 == radices.len() && ends.store.is_some();
        let codelet = Codelet::new(r, sign);
        // `body` for each item i of the thread: ti, its k = ti mod p, where the item exists.
        let each_item = |s: &mut String, body: &dyn Fn(&mut String, usize)| {
            for i in 0..per_thread {
                let exists = if items == per_thread * per_pencil {
                    "true".to_string()
                } else {
                    format!("ti < {items}")
                };
                let _ = writeln!(
                    s,
                    "  {{ const int ti = t + {}; const int k = ti % {pp};\n  if ({exists}) {{",
                    i * per_pencil
                );
                body(s, i);
                *s += "  }\n  }\n";
            }
        };
        let _ = writeln!(
            s,
            "  {{ // stage {st}: radix {r}, p = {pp}, {per_thread} a thread"
        );
        for i in 0..per_thread {
            for q in 0..r {
                let _ = writeln!(s, "  fx_cplx u{i}_{q} = fx_c(0.0, 0.0);");
            }
        }
        each_item(s, &|s, i| {
            if !from_global {
                let _ = writeln!(s, "    const int t_p = {};", pad("ti"));
            }
            for q in 0..r {
                let c = q * items;
                let at = if let Some(input) = ends.first.filter(|_| from_global) {
                    input(q, "ti")
                } else if items.is_multiple_of(pad_every) {
                    format!("x[t_p + {}]", c + c / pad_every)
                } else {
                    format!("x[{}]", pad(&format!("ti + {c}")))
                };
                let _ = writeln!(s, "    u{i}_{q} = {at};");
            }
            if pp > 1 {
                let _ = writeln!(s, "    const fx_cplx* w = {table}_{st} + k * {};", r - 1);
                for q in 1..r {
                    let _ = writeln!(s, "    u{i}_{q} = fx_mul(u{i}_{q}, w[{}]);", q - 1);
                }
            }
            *s += &codelet.cuda(&format!("u{i}_"));
        });
        match ends.store {
            Some(store) if to_global => {
                each_item(s, &|s, i| {
                    for q in 0..r {
                        let v = format!("u{i}_{q}");
                        let _ = writeln!(s, "    {}", store(&format!("(ti + {})", q * items), &v));
                    }
                });
                *s += "  }\n";
            }
            _ => {
                if !from_global {
                    *s += "  __syncthreads();\n";
                }
                each_item(s, &|s, i| {
                    stage_writes(s, r, pp, &format!("u{i}_"), (pad, pad_every))
                });
                *s += "  __syncthreads();\n  }\n";
            }
        }
        pp *= r;
    }
}

/// A Stockham stage's writes to shared memory: item `ti` (k = ti mod p) stores `{u}{q}` at
/// (ti - k) r + k + q p, padded, with constant offsets where [`write_fold`] allows.
fn stage_writes(
    s: &mut String,
    r: usize,
    pp: usize,
    u: &str,
    (pad, pad_every): (&dyn Fn(&str) -> String, usize),
) {
    let _ = writeln!(s, "    const int w0 = (ti - k) * {r} + k;");
    let folds = match write_fold(pp, r, pad_every) {
        Some(WriteBase::Padded) => {
            let _ = writeln!(s, "    const int w_p = {};", pad("w0"));
            true
        }
        Some(WriteBase::Split) => {
            let _ = writeln!(
                s,
                "    const int w_p = (ti - k) * {r} + (ti - k) * {r} / {pad_every} + k;"
            );
            true
        }
        None => false,
    };
    for q in 0..r {
        let c = q * pp;
        let at = if folds {
            format!("w_p + {}", c + c / pad_every)
        } else {
            pad(&format!("w0 + {c}"))
        };
        let _ = writeln!(s, "    x[{at}] = {u}{q};");
    }
}

/// How a Stockham stage's writes (item k, k = t mod p, writes w0 + q p with
/// w0 = (t - k) r + k) fold the padding (one slot after every `every` elements) into constant
/// offsets: `Padded`, the padded w0 plus the padded q p, when p is a multiple of the period;
/// `Split`, the padded (t - k) r plus k plus the padded q p, when p divides the period and r p
/// is a multiple or a divisor of it ((t - k) r is a multiple of r p, so k + q p crosses a
/// multiple of the period only where q p does). `None`: each position padded on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WriteBase {
    Padded,
    Split,
}

fn write_fold(p: usize, r: usize, every: usize) -> Option<WriteBase> {
    if p.is_multiple_of(every) {
        Some(WriteBase::Padded)
    } else if every.is_multiple_of(p)
        && ((p * r).is_multiple_of(every) || every.is_multiple_of(p * r))
    {
        Some(WriteBase::Split)
    } else {
        None
    }
}

/// The source of a chain's passes: callbacks only (`kernels` false: for LTO-IR), or callbacks
/// and the gather/scatter kernels that call them (for PTX).
pub fn chain_source(prog: &PencilProgram, kernels: bool) -> String {
    let mut s = prelude(prog.precision());
    for (k, p) in prog.passes.iter().enumerate() {
        s += &load_fn(k, p);
        s += &store_fn(k, p);
        if let Some(m) = &p.mid {
            s += &mid_fn(k, p, m);
        }
        if kernels && p.mid.is_some() {
            let shape = fused_shape(p.n, prog.precision())
                .expect("merged passes are made for the fused kernels only");
            s += &fused_pass(k, p, &shape, prog.precision());
        } else if kernels {
            let (ti, to) = (
                if p.kind.real_in() {
                    "fx_real"
                } else {
                    "fx_cplx"
                },
                if p.kind.real_out() {
                    "fx_real"
                } else {
                    "fx_cplx"
                },
            );
            let _ = writeln!(s, "extern \"C\" __global__ void fftx_gather{k}(u64 total, const u64* P, {ti}* out) {{ {GRID_STRIDE} out[off] = fftx_ld{k}(0, off, (void*)P, 0); }}");
            let _ = writeln!(s, "extern \"C\" __global__ void fftx_scatter{k}(u64 total, const u64* P, const {to}* in) {{ {GRID_STRIDE} fftx_st{k}(0, off, in[off], (void*)P, 0); }}");
            if let Some(shape) = fused_shape(p.n, prog.precision()) {
                s += &fused_pass(k, p, &shape, prog.precision());
            }
        }
    }
    s
}

/// Slots of an elementwise kernel's table.
pub const ELEM_SRC: usize = 0;
pub const ELEM_DST: usize = 1;
pub const ELEM_DATA: usize = 2;

/// A copy or pointwise node as one kernel `fftx_elem(total, P)` over its index space `shape`,
/// in `precision`. `src`, `dst`, `data`: (complex, base, strides) of each access.
pub fn elementwise_source(
    precision: Precision,
    shape: &[usize],
    src: (bool, isize, &[isize]),
    dst: (bool, isize, &[isize]),
    data: Option<(bool, isize, &[isize])>,
    prog: Option<&Code>,
) -> String {
    let mut s = prelude(precision);
    let _ = writeln!(
        s,
        "extern \"C\" __global__ void fftx_elem(u64 total, const u64* P) {{ {GRID_STRIDE} {{"
    );
    s += "  i64 b = (i64)off;\n";
    for d in (0..shape.len()).rev() {
        if d == 0 {
            s += "  i64 i0 = b;\n";
        } else {
            let _ = writeln!(s, "  i64 i{d} = b % {0}; b /= {0};", shape[d]);
        }
    }
    let zeros = vec![0usize; shape.len()];
    let whole: Vec<Range<usize>> = shape.iter().map(|&n| 0..n).collect();
    let rd = |slot: usize, (c, base, st): (bool, isize, &[isize])| {
        format!(
            "{}(P[{slot}], {})",
            if c { "fx_rdc" } else { "fx_rdr" },
            offset(base, &zeros, st, &whole)
        )
    };
    let _ = writeln!(s, "  fx_cplx v = {};", rd(ELEM_SRC, src));
    if let Some(p) = prog {
        let g = data
            .map(|d| rd(ELEM_DATA, d))
            .unwrap_or_else(|| "fx_c(0.0, 0.0)".into());
        let _ = writeln!(s, "  {}", program(p, "v", &g));
    }
    let _ = writeln!(
        s,
        "  {}(P[{ELEM_DST}], {}, v);",
        if dst.0 { "fx_wrc" } else { "fx_wrr" },
        offset(dst.1, &zeros, dst.2, &whole)
    );
    s += "} }\n";
    s
}

#[cfg(test)]
mod tests {
    /// Where the block's threads are a multiple of the walk's inner length, q and j come from
    /// threadIdx.x and the iteration (the same pairs as from e: e = threadIdx.x + it threads);
    /// otherwise from e; loops whose threads divide the elements test none of them.
    #[test]
    fn element_orders_hoist_what_a_thread_keeps() {
        use super::{exists, order_of};
        let hoisted = [
            (
                (false, 96, 32, 384),
                "q = (int)threadIdx.x % 32, j = (int)threadIdx.x / 32 + it * 12",
            ),
            (
                (true, 128, 4, 256),
                "q = (int)threadIdx.x / 128 + it * 2, j = (int)threadIdx.x % 128",
            ),
            (
                (false, 25, 64, 320),
                "q = (int)threadIdx.x % 64, j = (int)threadIdx.x / 64 + it * 5",
            ),
            ((true, 1000, 2, 200), "q = e / 1000, j = e % 1000"),
            ((false, 25, 48, 320), "q = e % 48, j = e / 48"),
        ];
        for ((contig, len, pencils, threads), want) in hoisted {
            assert_eq!(
                order_of(contig, len, pencils, threads),
                format!("const int {want};")
            );
        }
        // The identity the hoisted form rests on.
        for (threads, inner) in [(384usize, 32usize), (320, 64), (256, 128)] {
            for tid in 0..threads {
                for it in 0..6 {
                    let e = tid + it * threads;
                    assert_eq!(
                        (e % inner, e / inner),
                        (tid % inner, tid / inner + it * (threads / inner))
                    );
                }
            }
        }
        assert_eq!(exists(3072, 384), "if (true)");
        assert_eq!(exists(2000, 384), "if (e < 2000)");
    }

    /// The folded shared-memory positions of the Stockham stages are the padded ones, for
    /// every length with a fused kernel and every padding period the layouts choose from.
    #[test]
    fn folded_stage_positions_equal_the_padded_ones() {
        let pad = |m: usize, every: usize| m + m / every;
        for n in (2..=4096).filter(|n| crate::program::fftgen::radices(*n).is_some()) {
            let radices = crate::program::fftgen::radices(n).unwrap();
            for every in [4, 8, 16, 32, 64] {
                let mut p = 1;
                for &r in &radices {
                    let items = n / r;
                    if items % every == 0 {
                        for t in 0..items {
                            for q in 0..r {
                                let c = q * items;
                                assert_eq!(pad(t, every) + c + c / every, pad(t + c, every));
                            }
                        }
                    }
                    if let Some(base) = write_fold(p, r, every) {
                        for t in 0..items {
                            let k = t % p;
                            let w0 = (t - k) * r + k;
                            let a = (t - k) * r;
                            let w_p = match base {
                                WriteBase::Padded => pad(w0, every),
                                WriteBase::Split => a + a / every + k,
                            };
                            for q in 0..r {
                                let c = q * p;
                                assert_eq!(
                                    w_p + c + c / every,
                                    pad(w0 + c, every),
                                    "n={n} p={p} r={r} every={every} t={t} q={q}"
                                );
                            }
                        }
                    }
                    p *= r;
                }
            }
        }
    }

    use super::*;
    use crate::program::pencil::BoxMap;

    #[test]
    fn literals_are_exact_and_programs_read_their_registers() {
        assert_eq!(lit(1.0), "fx_lit(0x3ff0000000000000ULL)");
        let p = Code {
            complex: true,
            temps: 1,
            insts: vec![
                Inst::Mov(Reg::Temp(0), Reg::In),
                Inst::Mul(Reg::Temp(0), Reg::Data),
                Inst::Mov(Reg::Out, Reg::Temp(0)),
            ],
            uses_data: true,
        };
        let s = program(&p, "v", "g");
        assert!(
            s.contains("r_t0 = r_in;")
                && s.contains("r_t0 = fx_mul(r_t0, r_data);")
                && s.ends_with("v = r_out; }"),
            "{s}"
        );
    }

    #[test]
    fn positions_are_32_bit_only_where_every_reached_one_fits() {
        let small = offset(3, &[0, 2], &[1000, 1], &[0..1000, 2..1002]);
        assert_eq!(
            small,
            "(int)3 + ((int)i0 - 0) * (int)1000 + ((int)i1 - 2) * (int)1"
        );
        // 2^16 x 2^15 elements: the largest position passes 2^30.
        let large = offset(0, &[0, 0], &[1 << 15, 1], &[0..1 << 16, 0..1 << 15]);
        assert!(
            large.starts_with("(i64)0 + ((i64)i0 - 0) * (i64)32768"),
            "{large}"
        );
        // Negative strides count by their size, from either end of the reach.
        let reversed = offset(1 << 29, &[0, 0], &[-(1 << 14), 1], &[0..1 << 16, 0..1]);
        assert!(reversed.starts_with("(i64)"), "{reversed}");
        assert_eq!(overlap(&[0..10, 0..4], &[5..20, 5..20]), vec![5..10, 5..5]);
        assert_eq!(hull(&[0..10, 0..4], &[5..20, 5..20]), vec![0..20, 0..20]);
    }

    #[test]
    fn a_pass_decodes_its_pencils_and_checks_only_what_it_can_leave() {
        let p = Pass {
            kind: Kind1d::R2c,
            axis: 2,
            n: 16,
            pencils: vec![0..8, 0..8, 0..1],
            live_in: 0..8,
            live_out: 0..9,
            load: Side::Segments(vec![SegMap {
                slot: 2,
                complex: false,
                base: 0,
                origin: vec![0, 0, 0],
                strides: vec![64, 8, 1],
                clip: vec![0..8, 0..8, 0..8],
            }]),
            head: None,
            store: Side::Inter {
                slot: 0,
                map: BoxMap::dense(&[0..8, 0..8, 0..9]),
            },
            tail: None,
            mid: None,
        };
        let prog = PencilProgram {
            buffers: vec![],
            precision: Precision::F64,
            inter_len: 576,
            passes: vec![p],
        };
        let s = chain_source(&prog, true);
        assert!(
            s.contains(
                "\n__device__ fx_real fftx_ld0(void* dataIn, u64 off, void* info, void* smem)"
            ),
            "{s}"
        );
        // The callback form finds the pencil and calls the pencil form, which splits the
        // pencil's index in 32 bits (64 pencils).
        assert!(
            s.contains("const u64 b = off / 16ULL;\n  return fftx_ldp0((const u64*)info, b, (i64)(off - b * 16ULL));"),
            "{s}"
        );
        assert!(s.contains("fftx_ldp0(const u64* P, u64 b, i64 j) {\n  i64 i2 = j;\n  unsigned c = (unsigned)b;"), "{s}");
        assert!(
            s.contains("i64 i1 = 0 + (i64)(c % 8u); c /= 8u;")
                && s.contains("i64 i0 = 0 + (i64)c;"),
            "{s}"
        );
        // The pass kernel reads by pencil: no division by the pencil length per element.
        assert!(s.contains("xa = fftx_ldp0(P, ba, j)"), "{s}");
        // The segment covers everything the pass reads: no bounds test; its positions (below
        // 512) are computed in 32 bits.
        assert!(s.contains("if (true) v = fx_rdr(P[2], (int)0 + ((int)i0 - 0) * (int)64 + ((int)i1 - 0) * (int)8 + ((int)i2 - 0) * (int)1);"), "{s}");
        assert!(
            s.contains("fftx_gather0(u64 total, const u64* P, fx_real* out)"),
            "{s}"
        );
        assert!(
            s.contains("fftx_scatter0(u64 total, const u64* P, const fx_cplx* in)"),
            "{s}"
        );
    }

    /// The pencil program of a graph's chain (lowered through the FFTX front end's Program).
    fn lower_chain(c: &crate::fftx::passes::Chain, merge: bool) -> Result<PencilProgram, String> {
        use crate::program::{kernel::Kernel, Step};
        let precision = c.loads[0].access.buf.precision();
        let steps = [crate::fftx::passes::Step::Chain(c.clone())];
        let (program, ..) = crate::fftx::exec::lower_program(&steps)?;
        let Step::Kernel {
            kernel: Kernel::Chain(k),
            ..
        } = &program.steps[0]
        else {
            unreachable!("a chain lowers to a chain kernel")
        };
        crate::program::pencil::lower(k, precision, merge).map_err(String::from)
    }

    /// The graph with every buffer single precision (an `fftxf_*` plan's).
    fn single(g: &crate::fftx::graph::Graph) -> crate::fftx::graph::Graph {
        use crate::fftx::graph::{Buf, Temp};
        let f32 = |b: &mut Buf| match b {
            Buf::User { precision, .. } => *precision = Precision::F32,
            Buf::Temp(t) => {
                *t = std::sync::Arc::new(Temp {
                    precision: Precision::F32,
                    ..**t
                })
            }
        };
        let mut g = g.clone();
        for n in &mut g.nodes {
            f32(&mut n.input.buf);
            f32(&mut n.output.buf);
            if let Some(d) = &mut n.data {
                f32(&mut d.buf);
            }
        }
        g
    }

    /// An `fftxf_*` chain's source is the same code over float types: float2 and float in the
    /// prelude, float twiddle literals, and no double arithmetic anywhere (constants are folded
    /// from their double bits).
    #[test]
    fn single_precision_sources_use_float_types() {
        use crate::fftx::passes::{fuse, prune, tests::fig2, Step};
        let (p, _) = prune(&single(&fig2(64, 20, 30))).unwrap();
        let steps = fuse(&p);
        let chain = steps
            .iter()
            .find_map(|s| match s {
                Step::Chain(c) => Some(c),
                _ => None,
            })
            .unwrap();
        let prog = lower_chain(chain, true).unwrap();
        assert_eq!(prog.precision(), Precision::F32);
        let s = chain_source(&prog, true);
        assert!(
            s.starts_with("typedef float fx_real;\ntypedef float2 fx_cplx;"),
            "{s}"
        );
        assert!(
            !s.replace("__longlong_as_double", "").contains("double"),
            "{s}"
        );
        assert!(
            s.contains("fftx_tw0_0_1[56] = {{1.000000000e0f, 0.000000000e0f}, "),
            "{s}"
        );
        let d = chain_source(
            &lower_chain(
                fuse(&prune(&fig2(64, 20, 30)).unwrap().0)
                    .iter()
                    .find_map(|s| match s {
                        Step::Chain(c) => Some(c.clone()),
                        _ => None,
                    })
                    .as_ref()
                    .unwrap(),
                true,
            )
            .unwrap(),
            true,
        );
        // The same code but for the prelude's types and the literals.
        assert_eq!(s.lines().count(), d.lines().count());
        assert!(d.starts_with("typedef double fx_real;"));
        let e = elementwise_source(
            Precision::F32,
            &[4],
            (true, 0, &[1]),
            (true, 0, &[1]),
            None,
            None,
        );
        assert!(e.contains("typedef float2 fx_cplx;"), "{e}");
        if let Ok(dir) = std::env::var("FFTX_GPU_DUMP") {
            std::fs::write(format!("{dir}/fig2-64-f32.cu"), &s).unwrap();
        }
    }

    /// The sources of the paper's Fig. 2 chain (and a 3-D one); with FFTX_GPU_DUMP=DIR they are
    /// written there, for compiling with nvcc where there is no GPU.
    #[test]
    fn fig2_chain_sources() {
        use crate::fftx::passes::{fuse, prune, tests::fig2, Step};
        let g = fig2(16, 5, 7);
        let (p, _) = prune(&g).unwrap();
        let steps = fuse(&p);
        let chain = steps
            .iter()
            .find_map(|s| {
                if let Step::Chain(c) = s {
                    Some(c)
                } else {
                    None
                }
            })
            .unwrap();
        let prog = lower_chain(chain, false).unwrap();
        assert_eq!(prog.passes.len(), 4);
        for kernels in [false, true] {
            let s = chain_source(&prog, kernels);
            assert_eq!(s.contains("__global__"), kernels);
            for k in 0..4 {
                assert!(s.contains(&format!("fftx_ld{k}(")) && s.contains(&format!("fftx_st{k}(")));
            }
            if let Ok(dir) = std::env::var("FFTX_GPU_DUMP") {
                std::fs::write(
                    format!(
                        "{dir}/fig2-{}.cu",
                        if kernels { "kernels" } else { "callbacks" }
                    ),
                    &s,
                )
                .unwrap();
            }
        }
        // A length of two stages (64 = 8 x 8): the twiddle table and padded steps.
        let (p64, _) = prune(&fig2(64, 20, 30)).unwrap();
        let steps64 = fuse(&p64);
        let c64 = steps64
            .iter()
            .find_map(|s| {
                if let Step::Chain(c) = s {
                    Some(c)
                } else {
                    None
                }
            })
            .unwrap();
        let s64 = chain_source(&lower_chain(c64, false).unwrap(), true);
        assert!(s64.contains("__device__ const fx_cplx fftx_tw0_0_1[56] = {{1.00000000000000000e0, 0.00000000000000000e0}, "), "{}", &s64[..200]);
        assert!(s64.contains("// stage 1: radix 8, p = 8"), "{s64}");
        let merged = lower_chain(c64, true).unwrap();
        assert_eq!(
            merged.passes.len(),
            3,
            "the two passes along axis 0 around the product are one"
        );
        let m64 = chain_source(&merged, true);
        assert!(
            m64.contains("fftx_midp1(P, b, j, v[it])") && m64.contains("fftx_tw1_1_1[56]"),
            "{m64}"
        );
        if let Ok(dir) = std::env::var("FFTX_GPU_DUMP") {
            std::fs::write(format!("{dir}/fig2-64-kernels.cu"), &s64).unwrap();
            std::fs::write(format!("{dir}/fig2-64-merged.cu"), &m64).unwrap();
        }
        let e = elementwise_source(
            Precision::F64,
            &[3, 4],
            (true, 2, &[8, -1]),
            (false, 0, &[4, 1]),
            Some((true, 0, &[4, 1])),
            None,
        );
        if let Ok(dir) = std::env::var("FFTX_GPU_DUMP") {
            std::fs::write(format!("{dir}/elementwise.cu"), &e).unwrap();
        }
    }
}
