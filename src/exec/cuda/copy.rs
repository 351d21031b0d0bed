//! Device-side box copies (element (i...) of a box from `src + Σ i·is` to `dst + Σ i·os`), the
//! transfers of a Program between device buffers of one card or, with peer access, of two
//! (unified addressing: the destination card's kernel reads its peer's memory, or the copy
//! engine moves it). Three ways, the first that applies:
//!
//! - both sides one contiguous run: `cuMemcpyDtoDAsync` (the copy engine; between cards over
//!   the link): halos, gathers, packed blocks;
//! - between devices (cards, or partitions of one), rows of at least [`ENGINE_ROW_BYTES`]
//!   contiguous on both sides (the slab exchange of `passes::distribute`): `cuMemcpy2DAsync`
//!   per outer index, the copy engine again, so that the exchange leaves the multiprocessors to
//!   the FFTs that run beside it (a copy kernel and cuFFT's kernels took turns on them:
//!   `bench/results/2026-11-26-exchange.md`);
//! - one axis contiguous in the source and another in the destination (a transpose, as in the
//!   distributed FFTs' all-to-alls): a 32 × 32 tile through shared memory, so that reads and
//!   writes are both whole runs (the one-element-per-thread copy wrote 8 or 16 bytes per 32-byte
//!   sector: a peer all-to-all ran at a tenth of the link);
//! - otherwise one thread per element.
//!
//! Complex elements move as one aligned pair (8 or 16 bytes) where every address allows it.

use super::kernels::{compile_generated, generated_function, launch, Generated};
use super::{check, Device, Error, ErrorKind, Result};
use crate::problem::IoDim;
use crate::program::for_each_in_box;
use cudarc::driver::sys as cu;
use std::ffi::c_void;

/// Most axes of a copy.
pub(super) const MAX_RANK: usize = 6;
/// The tile's side (elements); the tile kernel's block is TILE × ROWS threads.
const TILE: u32 = 32;
const ROWS: u32 = 8;
/// Most blocks along a grid's y and z.
const GRID_YZ: u64 = 65535;
/// Rows between devices at least this long go to the copy engine (whose rate falls with short
/// rows: 8 KiB rows moved a slab exchange at a third of the copy kernel's rate, 2026-11-26).
const ENGINE_ROW_BYTES: usize = 32 << 10;
/// Most `cuMemcpy2DAsync` calls one box of rows may take (one per index of its outer axes
/// but the last).
const ENGINE_CALLS: usize = 1024;

/// The element-wise kernel's box (layout shared with `CopyBox` in [`SOURCE`]).
#[repr(C)]
#[derive(Clone, Copy, Default)]
struct CopyBox {
    n: [i64; MAX_RANK],
    is: [i64; MAX_RANK],
    os: [i64; MAX_RANK],
    rank: i64,
    complex: i64,
}

/// The tile kernel's box (layout shared with `TileBox` in [`SOURCE`]): axis `a` is contiguous
/// in the source, `b` in the destination, the rest in `n`/`is`/`os`; strides in elements.
#[repr(C)]
#[derive(Clone, Copy, Default)]
struct TileBox {
    na: i64,
    a_os: i64,
    nb: i64,
    b_is: i64,
    n: [i64; MAX_RANK - 2],
    is: [i64; MAX_RANK - 2],
    os: [i64; MAX_RANK - 2],
    rank: i64,
    rest: i64,
}

const SOURCE: &str = r#"
typedef REAL real;
struct __align__(2 * sizeof(real)) pair { real x, y; };
struct CopyBox { long long n[6]; long long is[6]; long long os[6]; long long rank; long long complex; };
struct TileBox {
    long long na, a_os, nb, b_is;
    long long n[4]; long long is[4]; long long os[4];
    long long rank, rest;
};
extern "C" __global__ void fftx_copy(const real* src, real* dst, CopyBox b,
                                     unsigned long long total) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < total; i += (unsigned long long)gridDim.x * blockDim.x) {
        unsigned long long r = i;
        long long s = 0, d = 0;
        for (int k = (int)b.rank - 1; k >= 0; --k) {
            long long c = (long long)(r % (unsigned long long)b.n[k]);
            r /= (unsigned long long)b.n[k];
            s += c * b.is[k];
            d += c * b.os[k];
        }
        dst[d] = src[s];
        if (b.complex) dst[d + 1] = src[s + 1];
    }
}
template <typename V>
__device__ void tile(const V* src, V* dst, const TileBox& t) {
    __shared__ V tile[32][33];
    long long a0 = (long long)blockIdx.x * 32;
    long long tiles_b = (t.nb + 31) / 32;
    for (long long z = blockIdx.z; z < t.rest; z += gridDim.z) {
        long long s = 0, d = 0, r = z;
        for (int k = (int)t.rank - 1; k >= 0; --k) {
            long long c = r % t.n[k];
            r /= t.n[k];
            s += c * t.is[k];
            d += c * t.os[k];
        }
        for (long long by = blockIdx.y; by < tiles_b; by += gridDim.y) {
            long long b0 = by * 32;
            __syncthreads();
            long long a = a0 + threadIdx.x;
            for (int y = threadIdx.y; y < 32; y += blockDim.y) {
                long long b = b0 + y;
                if (a < t.na && b < t.nb) tile[y][threadIdx.x] = src[s + a + b * t.b_is];
            }
            __syncthreads();
            long long b = b0 + threadIdx.x;
            for (int y = threadIdx.y; y < 32; y += blockDim.y) {
                long long aa = a0 + y;
                if (aa < t.na && b < t.nb) dst[d + aa * t.a_os + b] = tile[threadIdx.x][y];
            }
        }
    }
}
extern "C" __global__ void fftx_copy_tile1(const real* src, real* dst, TileBox t) {
    tile<real>(src, dst, t);
}
extern "C" __global__ void fftx_copy_tile2(const pair* src, pair* dst, TileBox t) {
    tile<pair>(src, dst, t);
}
"#;

/// A card's copy kernels for one precision.
#[derive(Clone, Copy)]
pub(super) struct Kernels {
    each: cu::CUfunction,
    /// Tiles of real scalars, and of complex pairs.
    tile: [cu::CUfunction; 2],
}

impl Kernels {
    /// Compiles (once per card and precision: `compile_generated` caches) and loads them.
    pub(super) fn load(dev: &Device, real: &str) -> Result<Kernels> {
        let module = match compile_generated(dev, &SOURCE.replace("REAL", real), false)? {
            Generated::Module(m) => m,
            Generated::Lto(_) => return Err(Error::new(ErrorKind::Internal, "LTO-IR, not PTX")),
        };
        Ok(Kernels {
            each: generated_function(module, "fftx_copy")?,
            tile: [
                generated_function(module, "fftx_copy_tile1")?,
                generated_function(module, "fftx_copy_tile2")?,
            ],
        })
    }
}

/// How a box is copied.
#[derive(Debug, PartialEq, Eq)]
enum Plan {
    Nothing,
    /// One run of this many bytes.
    Run(usize),
    /// Rows of `bytes` contiguous on both sides, one `cuMemcpy2DAsync` over the last `outer`
    /// axis (its strides the pitches) per index of the others (strides in scalars).
    Rows {
        bytes: usize,
        outer: Vec<IoDim>,
    },
    /// Tiles over axes `a` (contiguous in the source) and `b` (in the destination), moving
    /// `pair`s (complex elements as one) or scalars.
    Tile {
        a: usize,
        b: usize,
        pair: bool,
    },
    Each,
}

/// Chooses how to copy `dims` (strides in scalars of `unit` bytes; `complex`: two scalars per
/// element) from `src` to `dst`; `engine`: long rows may go to the copy engine (an exchange
/// between devices).
fn plan(src: u64, dst: u64, dims: &[IoDim], complex: bool, unit: usize, engine: bool) -> Plan {
    if dims.iter().any(|d| d.n <= 0) {
        return Plan::Nothing;
    }
    let dims: Vec<IoDim> = dims.iter().filter(|d| d.n != 1).copied().collect();
    let step = 1 + complex as isize;
    let elements: usize = dims.iter().map(|d| d.n as usize).product();
    let run = |stride: fn(&IoDim) -> isize| {
        let mut expected = step;
        dims.iter().rev().all(|d| {
            let ok = stride(d) == expected;
            expected *= d.n;
            ok
        })
    };
    if run(|d| d.is) && run(|d| d.os) {
        return Plan::Run(elements * step as usize * unit);
    }
    if engine {
        if let Some(rows) = engine_rows(&dims, step, unit) {
            return rows;
        }
    }
    let pair = complex
        && [src, dst].iter().all(|&p| p % (2 * unit as u64) == 0)
        && dims.iter().all(|d| d.is % 2 == 0 && d.os % 2 == 0);
    if complex && !pair {
        return Plan::Each;
    }
    let a = dims.iter().position(|d| d.is == step);
    let b = dims.iter().position(|d| d.os == step);
    match (a, b) {
        // Indices into `dims` without its length-1 axes.
        (Some(a), Some(b)) if a != b && dims.len() <= MAX_RANK => Plan::Tile { a, b, pair },
        _ => Plan::Each,
    }
}

/// [`Plan::Rows`] for `dims` (length-1 axes dropped; `step` scalars of `unit` bytes an
/// element) where its innermost run, contiguous on both sides, is a long row and the outer axes
/// take few calls with pitches that keep rows apart.
fn engine_rows(dims: &[IoDim], step: isize, unit: usize) -> Option<Plan> {
    let mut row = step;
    let mut k = dims.len();
    while k > 0 && dims[k - 1].is == row && dims[k - 1].os == row {
        row *= dims[k - 1].n;
        k -= 1;
    }
    let bytes = row as usize * unit;
    let outer = &dims[..k];
    let (last, rest) = outer.split_last()?;
    let calls: usize = rest.iter().map(|d| d.n as usize).product();
    let apart = |s: isize| s >= row;
    let ok = bytes >= ENGINE_ROW_BYTES && calls <= ENGINE_CALLS && apart(last.is) && apart(last.os);
    ok.then(|| Plan::Rows {
        bytes,
        outer: outer.to_vec(),
    })
}

/// Copies the box `dims` from device address `src` to `dst` on `stream` of `dev` (the current
/// context; `src` may be a peer's), scalars of `unit` bytes; `engine`: the two sides are on
/// different devices of a program (long rows then go to the copy engine).
///
/// # Safety
/// Both sides must hold every element the box addresses.
pub(super) unsafe fn copy(
    k: &Kernels,
    dev: &Device,
    (src, dst): (u64, u64),
    dims: &[IoDim],
    (complex, unit, engine): (bool, usize, bool),
    stream: cu::CUstream,
) -> Result<()> {
    let kept: Vec<IoDim> = dims.iter().filter(|d| d.n != 1).copied().collect();
    match plan(src, dst, dims, complex, unit, engine) {
        Plan::Nothing => Ok(()),
        Plan::Run(bytes) => check(
            cu::cuMemcpyDtoDAsync_v2(dst, src, bytes, stream),
            "cuMemcpyDtoDAsync",
        ),
        Plan::Rows { bytes, outer } => rows(src, dst, bytes, &outer, unit, stream),
        Plan::Tile { a, b, pair } => tile(k, (src, dst), &kept, (a, b), pair, stream),
        Plan::Each => each(k, dev, (src, dst), &kept, complex, stream),
    }
}

/// [`Plan::Rows`]: one `cuMemcpy2DAsync` (unified addresses: either side may be a peer's) over
/// the last of `outer` per index of the others.
unsafe fn rows(
    src: u64,
    dst: u64,
    bytes: usize,
    outer: &[IoDim],
    unit: usize,
    stream: cu::CUstream,
) -> Result<()> {
    let (last, rest) = outer.split_last().expect("rows have an outer axis");
    let mut r = Ok(());
    for_each_in_box(rest, 0, 0, &mut |s, d| {
        if r.is_err() {
            return;
        }
        let c = cu::CUDA_MEMCPY2D {
            srcXInBytes: 0,
            srcY: 0,
            srcMemoryType: cu::CUmemorytype::CU_MEMORYTYPE_UNIFIED,
            srcHost: std::ptr::null(),
            srcDevice: (src as i64 + (s * unit as isize) as i64) as u64,
            srcArray: std::ptr::null_mut(),
            srcPitch: last.is as usize * unit,
            dstXInBytes: 0,
            dstY: 0,
            dstMemoryType: cu::CUmemorytype::CU_MEMORYTYPE_UNIFIED,
            dstHost: std::ptr::null_mut(),
            dstDevice: (dst as i64 + (d * unit as isize) as i64) as u64,
            dstArray: std::ptr::null_mut(),
            dstPitch: last.os as usize * unit,
            WidthInBytes: bytes,
            Height: last.n as usize,
        };
        r = check(cu::cuMemcpy2DAsync_v2(&c, stream), "cuMemcpy2DAsync");
    });
    r
}

unsafe fn tile(
    k: &Kernels,
    (src, dst): (u64, u64),
    dims: &[IoDim],
    (a, b): (usize, usize),
    pair: bool,
    stream: cu::CUstream,
) -> Result<()> {
    let per = 1 + pair as isize;
    let mut t = TileBox {
        na: dims[a].n as i64,
        a_os: (dims[a].os / per) as i64,
        nb: dims[b].n as i64,
        b_is: (dims[b].is / per) as i64,
        rest: 1,
        ..Default::default()
    };
    for (_, d) in dims.iter().enumerate().filter(|&(i, _)| i != a && i != b) {
        let r = t.rank as usize;
        (t.n[r], t.is[r], t.os[r]) = (d.n as i64, (d.is / per) as i64, (d.os / per) as i64);
        t.rank += 1;
        t.rest *= d.n as i64;
    }
    let grid_x = (t.na as u64).div_ceil(TILE as u64);
    let grid_y = (t.nb as u64).div_ceil(TILE as u64).min(GRID_YZ);
    let grid_z = (t.rest as u64).min(GRID_YZ);
    if grid_x > i32::MAX as u64 {
        return Err(Error::new(ErrorKind::Internal, "a copy of over 2^36 rows"));
    }
    let (mut s, mut d) = (src, dst);
    let mut params = [
        &mut s as *mut u64 as *mut c_void,
        &mut d as *mut u64 as *mut c_void,
        &mut t as *mut TileBox as *mut c_void,
    ];
    super::fault::at_launch()?;
    check(
        cu::cuLaunchKernel(
            k.tile[pair as usize],
            grid_x as u32,
            grid_y as u32,
            grid_z as u32,
            TILE,
            ROWS,
            1,
            0,
            stream,
            params.as_mut_ptr(),
            std::ptr::null_mut(),
        ),
        "cuLaunchKernel",
    )
}

unsafe fn each(
    k: &Kernels,
    dev: &Device,
    (src, dst): (u64, u64),
    dims: &[IoDim],
    complex: bool,
    stream: cu::CUstream,
) -> Result<()> {
    if dims.len() > MAX_RANK {
        return Err(Error::new(
            ErrorKind::Internal,
            format!("a device copy of {} axes (at most {MAX_RANK})", dims.len()),
        ));
    }
    let total = dims.iter().map(|d| d.n as u64).product::<u64>();
    let mut b = CopyBox {
        rank: dims.len() as i64,
        complex: complex as i64,
        ..Default::default()
    };
    for (k, d) in dims.iter().enumerate() {
        (b.n[k], b.is[k], b.os[k]) = (d.n as i64, d.is as i64, d.os as i64);
    }
    let (mut s, mut d, mut t) = (src, dst, total);
    let mut params = [
        &mut s as *mut u64 as *mut c_void,
        &mut d as *mut u64 as *mut c_void,
        &mut b as *mut CopyBox as *mut c_void,
        &mut t as *mut u64 as *mut c_void,
    ];
    launch(dev, k.each, total, stream, &mut params)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(n: isize, is: isize, os: isize) -> IoDim {
        IoDim::new(n, is, os)
    }

    #[test]
    fn runs_tiles_and_the_rest_are_told_apart() {
        // A packed complex run, length-1 axes ignored.
        assert_eq!(
            plan(0, 256, &[d(1, 99, 7), d(10, 2, 2)], true, 4, false),
            Plan::Run(80)
        );
        assert_eq!(
            plan(0, 256, &[d(3, 20, 20), d(10, 2, 2)], true, 8, false),
            Plan::Run(480)
        );
        // The distributed transpose's part: rows of the source become columns.
        assert_eq!(
            plan(0, 256, &[d(8, 64, 2), d(32, 2, 16)], true, 4, false),
            Plan::Tile {
                a: 1,
                b: 0,
                pair: true
            }
        );
        // Misaligned pairs: element-wise.
        assert_eq!(
            plan(4, 256, &[d(8, 64, 2), d(32, 2, 16)], true, 4, false),
            Plan::Each
        );
        assert_eq!(
            plan(0, 256, &[d(8, 65, 2), d(32, 2, 16)], true, 4, false),
            Plan::Each
        );
        // Real scalars transpose too; a box with no unit stride on one side is element-wise.
        assert_eq!(
            plan(0, 0, &[d(8, 32, 1), d(32, 1, 8)], false, 8, false),
            Plan::Tile {
                a: 1,
                b: 0,
                pair: false
            }
        );
        assert_eq!(
            plan(0, 0, &[d(8, 32, 3), d(32, 1, 24)], false, 8, false),
            Plan::Each
        );
        assert_eq!(plan(0, 0, &[d(0, 32, 1)], false, 8, false), Plan::Nothing);
    }

    #[test]
    fn long_rows_between_cards_go_to_the_copy_engine() {
        // A slab's part for another card: 4 planes of 8 x 1024 complex f32 (64 KiB rows), the
        // source planes 32 rows of 1024 apart, the destination packed.
        let part = [d(4, 32 * 2048, 8 * 2048), d(8, 2048, 2048), d(1024, 2, 2)];
        let rows = Plan::Rows {
            bytes: 8 * 1024 * 8,
            outer: vec![d(4, 32 * 2048, 8 * 2048)],
        };
        assert_eq!(plan(0, 0, &part, true, 4, true), rows);
        // On one card, the kernel.
        assert_eq!(plan(0, 0, &part, true, 4, false), Plan::Each);
        // Short rows stay with the kernel; so do rows whose pitch would overlap them.
        let short = [d(4, 32 * 64, 8 * 64), d(8, 64, 64), d(32, 2, 2)];
        assert_eq!(plan(0, 0, &short, true, 4, true), Plan::Each);
        let overlapping = [d(4, 2048, 16 * 2048), d(8, 2048, 2048), d(1024, 2, 2)];
        assert_ne!(plan(0, 0, &overlapping, true, 4, true), rows);
        // Outer axes beyond the last: one call per index.
        let batched = [
            d(3, 1 << 20, 1 << 19),
            d(4, 32 * 2048, 8 * 2048),
            d(8 * 1024, 2, 2),
        ];
        assert_eq!(
            plan(0, 0, &batched, true, 4, true),
            Plan::Rows {
                bytes: 8 * 1024 * 8,
                outer: vec![d(3, 1 << 20, 1 << 19), d(4, 32 * 2048, 8 * 2048)],
            }
        );
    }
}
