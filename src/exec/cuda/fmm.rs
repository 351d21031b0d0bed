//! The FMM-FFT's stages ([`FmmStep`]) as NVRTC kernels, the operator tables of
//! `exec::cpu::fmm::table` (f64) in device memory, sums in double in the order of the CPU twins
//! (`exec::cpu::fmm`), which `tests/gpu.rs` compares them with. A thread computes 8 outputs
//! of S2M, S2T and L2T (S2T and L2T where the leaf is a multiple of 8; else one) and 4 of M2L,
//! each value it loads used for all of them (one output a thread loaded about three values per
//! multiply-add: S2T took 85% of the FMM-FFT's time); M2M, L2L and post one each.

use super::kernels::{compile_generated, generated_function, launch, Generated};
use super::{check, Device, Error, ErrorKind, Result};
use crate::exec::cpu::fmm::m2l_offsets;
use crate::program::{FmmGeom, FmmOp, FmmStep};
use cudarc::driver::sys as cu;
use std::ffi::c_void;

/// The kernels' arguments (layout shared with `FmmArgs` in [`SOURCE`]).
#[repr(C)]
#[derive(Clone, Copy, Default)]
struct Args {
    p: i64,
    leaf: i64,
    terms: i64,
    boxes: i64,
    first: i64,
    /// Boxes of the base ring (2^B).
    ring: i64,
    /// M2L: 1 at the base level (the ring), 0 for the cousins.
    base: i64,
    /// M2L: the offsets in the table (4, or 2^B − 3).
    noffs: i64,
    sign: i64,
}

const SOURCE: &str = r#"
typedef REAL real;
struct FmmArgs { long long p, leaf, terms, boxes, first, ring, base, noffs, sign; };
#define LOOP(i, total) for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x \
    + threadIdx.x; i < (total); i += (unsigned long long)gridDim.x * blockDim.x)
extern "C" __global__ void fftx_fmm_s2t(const real* src, real* dst, const double* t,
                                        FmmArgs a, unsigned long long total) {
    long long ml = a.leaf;
    LOOP(i, total) {
        long long p = i % a.p, r = i / a.p, ii = r % ml, b = r / ml;
        if (p == 0) { dst[2 * i] = src[2 * i]; dst[2 * i + 1] = src[2 * i + 1]; continue; }
        double re = 0, im = 0;
        const double* col = t + (2 * ml - 1 - ii) * a.p + p;
        for (long long j = -ml; j < 2 * ml; ++j) {
            double k = col[j * a.p];
            long long e = (b * ml + j) * a.p + p;
            re += k * (double)src[2 * e]; im += k * (double)src[2 * e + 1];
        }
        dst[2 * i] = (real)re; dst[2 * i + 1] = (real)im;
    }
}
// S2T blocked: a thread takes R consecutive targets ii0.. of one box and FFT index p, and
// walks the sources j of the three boxes in blocks of R. The kernel entry for (ii, j) is
// K[2·M_L − 1 − ii + j]: a block needs 2R − 1 of them, and each source and entry loaded is used
// R times (fftx_fmm_s2t loads three values per multiply-add). Same sums in the same order.
// A warp takes PW consecutive p (where P allows, else one) of 32 / PW boxes, the same targets:
// it loads PW distinct operator entries per value, not 32 (the operator, 4·M_L × P doubles, is
// read from L2 by every thread: measured 26 ms of S2T for 2^28 f32 on 2 H200), and its source
// loads still fill whole 32-byte sectors.
#define PW 8
template <int R>
__device__ void s2t_blocked(const real* src, real* dst, const double* t, const FmmArgs& a,
                            unsigned long long total) {
    long long ml = a.leaf, groups = ml / R, items = a.boxes * groups;
    long long pw = a.p % PW == 0 ? PW : 1, chunks = a.p / pw, gw = 32 / pw;
    LOOP(i, total) {
        long long lane = i % 32, w = i / 32;
        long long p = (w % chunks) * pw + lane % pw, item = (w / chunks) * gw + lane / pw;
        if (item >= items) continue;
        // Items box first: a warp's items share their targets ii0.. and so their entries.
        long long ii0 = (item / a.boxes) * R, b = item % a.boxes;
        long long o = (b * ml + ii0) * a.p + p;
        if (p == 0) {
            for (int k = 0; k < R; ++k) {
                dst[2 * (o + k * a.p)] = src[2 * (o + k * a.p)];
                dst[2 * (o + k * a.p) + 1] = src[2 * (o + k * a.p) + 1];
            }
            continue;
        }
        double re[R], im[R];
        for (int k = 0; k < R; ++k) { re[k] = 0; im[k] = 0; }
        const double* col = t + p;
        long long c = 2 * ml - 1 - ii0 - (R - 1);
        for (long long j0 = -ml; j0 < 2 * ml; j0 += R) {
            double kk[2 * R - 1], xr[R], xi[R];
#pragma unroll
            for (int u = 0; u < 2 * R - 1; ++u) kk[u] = col[(c + j0 + u) * a.p];
#pragma unroll
            for (int u = 0; u < R; ++u) {
                long long e = (b * ml + j0 + u) * a.p + p;
                xr[u] = (double)src[2 * e]; xi[u] = (double)src[2 * e + 1];
            }
#pragma unroll
            for (int u = 0; u < R; ++u) {
#pragma unroll
                for (int k = 0; k < R; ++k) {
                    double w = kk[u - k + R - 1];
                    re[k] += w * xr[u]; im[k] += w * xi[u];
                }
            }
        }
        for (int k = 0; k < R; ++k) {
            dst[2 * (o + k * a.p)] = (real)re[k]; dst[2 * (o + k * a.p) + 1] = (real)im[k];
        }
    }
}
extern "C" __global__ void fftx_fmm_s2t8(const real* src, real* dst, const double* t,
                                         FmmArgs a, unsigned long long total) {
    s2t_blocked<8>(src, dst, t, a, total);
}
// S2M blocked: a thread takes R expansion terms q0.. of one box and FFT index p, so that each
// source loaded serves R terms (the weights are the same for the whole warp).
template <int R>
__device__ void s2m_blocked(const real* src, real* dst, const double* t, const FmmArgs& a,
                            unsigned long long total) {
    long long pn = a.p - 1, groups = (a.terms + R - 1) / R;
    LOOP(i, total) {
        long long pm = i % pn, r = i / pn, q0 = (r % groups) * R, b = r / groups;
        double re[R], im[R];
        for (int k = 0; k < R; ++k) { re[k] = 0; im[k] = 0; }
        for (long long m = 0; m < a.leaf; ++m) {
            long long e = (b * a.leaf + m) * a.p + pm + 1;
            double xr = (double)src[2 * e], xi = (double)src[2 * e + 1];
#pragma unroll
            for (int k = 0; k < R; ++k) {
                double w = q0 + k < a.terms ? t[(q0 + k) * a.leaf + m] : 0.0;
                re[k] += w * xr; im[k] += w * xi;
            }
        }
        for (int k = 0; k < R && q0 + k < a.terms; ++k) {
            long long o = (b * a.terms + q0 + k) * pn + pm;
            dst[2 * o] = (real)re[k]; dst[2 * o + 1] = (real)im[k];
        }
    }
}
// L2T blocked: a thread takes R targets m0.. of one box and FFT index p (leaf a multiple of R),
// each local expansion term loaded serving R targets.
template <int R>
__device__ void l2t_blocked(const real* src, real* dst, const double* t, const FmmArgs& a,
                            unsigned long long total) {
    long long pn = a.p - 1, groups = a.leaf / R;
    LOOP(i, total) {
        long long p = i % a.p, r = i / a.p, m0 = (r % groups) * R, b = r / groups;
        if (p == 0) continue;
        long long o = (b * a.leaf + m0) * a.p + p;
        double re[R], im[R];
        for (int k = 0; k < R; ++k) {
            re[k] = dst[2 * (o + k * a.p)]; im[k] = dst[2 * (o + k * a.p) + 1];
        }
        for (long long q = 0; q < a.terms; ++q) {
            long long e = (b * a.terms + q) * pn + p - 1;
            double xr = (double)src[2 * e], xi = (double)src[2 * e + 1];
#pragma unroll
            for (int k = 0; k < R; ++k) {
                double w = t[q * a.leaf + m0 + k];
                re[k] += w * xr; im[k] += w * xi;
            }
        }
        for (int k = 0; k < R; ++k) {
            dst[2 * (o + k * a.p)] = (real)re[k]; dst[2 * (o + k * a.p) + 1] = (real)im[k];
        }
    }
}
extern "C" __global__ void fftx_fmm_s2m8(const real* src, real* dst, const double* t,
                                         FmmArgs a, unsigned long long total) {
    s2m_blocked<8>(src, dst, t, a, total);
}
extern "C" __global__ void fftx_fmm_l2t8(const real* src, real* dst, const double* t,
                                         FmmArgs a, unsigned long long total) {
    l2t_blocked<8>(src, dst, t, a, total);
}
extern "C" __global__ void fftx_fmm_m2m(const real* src, real* dst, const double* t,
                                        FmmArgs a, unsigned long long total) {
    long long pn = a.p - 1, q2 = 2 * a.terms;
    LOOP(i, total) {
        long long pm = i % pn, r = i / pn, q = r % a.terms, b = r / a.terms;
        double re = 0, im = 0;
        for (long long k = 0; k < q2; ++k) {
            double w = t[q * q2 + k];
            long long e = (2 * b * a.terms + k) * pn + pm;
            re += w * (double)src[2 * e]; im += w * (double)src[2 * e + 1];
        }
        dst[2 * i] = (real)re; dst[2 * i + 1] = (real)im;
    }
}
extern "C" __global__ void fftx_fmm_l2l(const real* src, real* dst, const double* t,
                                        FmmArgs a, unsigned long long total) {
    long long pn = a.p - 1, q2 = 2 * a.terms;
    LOOP(i, total) {
        long long pm = i % pn, r = i / pn, kk = r % q2, b = r / q2;
        double re = dst[2 * i], im = dst[2 * i + 1];
        for (long long k = 0; k < a.terms; ++k) {
            double w = t[k * q2 + kk];
            long long e = (b * a.terms + k) * pn + pm;
            re += w * (double)src[2 * e]; im += w * (double)src[2 * e + 1];
        }
        dst[2 * i] = (real)re; dst[2 * i + 1] = (real)im;
    }
}
extern "C" __global__ void fftx_fmm_l2t(const real* src, real* dst, const double* t,
                                        FmmArgs a, unsigned long long total) {
    long long pn = a.p - 1;
    LOOP(i, total) {
        long long p = i % a.p, r = i / a.p, m = r % a.leaf, b = r / a.leaf;
        if (p == 0) continue;
        double re = dst[2 * i], im = dst[2 * i + 1];
        for (long long q = 0; q < a.terms; ++q) {
            double w = t[q * a.leaf + m];
            long long e = (b * a.terms + q) * pn + p - 1;
            re += w * (double)src[2 * e]; im += w * (double)src[2 * e + 1];
        }
        dst[2 * i] = (real)re; dst[2 * i + 1] = (real)im;
    }
}
// M2L blocked: a thread takes R terms ii0.. of one box and FFT index p, each source term loaded
// serving R of them (the operator differs per term and p, so it is loaded once per use).
template <int R>
__device__ void m2l_blocked(const real* src, real* dst, const double* t, const FmmArgs& a,
                            unsigned long long total) {
    long long pn = a.p - 1, nq = a.terms, groups = (a.terms + R - 1) / R;
    LOOP(i, total) {
        long long pm = i % pn, r = i / pn, ii0 = (r % groups) * R, b = r / groups;
        long long gb = a.first + b;
        double re[R], im[R];
        for (int k = 0; k < R; ++k) { re[k] = 0; im[k] = 0; }
        for (long long si = 0; si < a.noffs; ++si) {
            long long from;
            if (a.base) {
                from = (gb + si + 2) % a.ring;
            } else {
                long long s = si < 2 ? si - 3 : si;
                if ((gb % 2 == 0 && s == -3) || (gb % 2 == 1 && s == 3)) continue;
                from = b + s;
            }
            const double* row = t + (si * nq + ii0) * nq * pn + pm;
            for (long long j = 0; j < nq; ++j) {
                long long e = (from * nq + j) * pn + pm;
                double xr = (double)src[2 * e], xi = (double)src[2 * e + 1];
#pragma unroll
                for (int k = 0; k < R; ++k) {
                    if (ii0 + k < nq) {
                        double w = row[(k * nq + j) * pn];
                        re[k] += w * xr; im[k] += w * xi;
                    }
                }
            }
        }
        for (int k = 0; k < R && ii0 + k < nq; ++k) {
            long long o = (b * nq + ii0 + k) * pn + pm;
            dst[2 * o] = (real)re[k]; dst[2 * o + 1] = (real)im[k];
        }
    }
}
extern "C" __global__ void fftx_fmm_m2l4(const real* src, real* dst, const double* t,
                                         FmmArgs a, unsigned long long total) {
    m2l_blocked<4>(src, dst, t, a, total);
}
extern "C" __global__ void fftx_fmm_reduce(const real* ring, double* r, FmmArgs a,
                                           unsigned long long total) {
    long long pn = a.p - 1;
    LOOP(pm, total) {
        double re = 0, im = 0;
        for (long long bq = 0; bq < a.ring * a.terms; ++bq) {
            re += (double)ring[2 * (bq * pn + pm)]; im += (double)ring[2 * (bq * pn + pm) + 1];
        }
        r[2 * pm] = re; r[2 * pm + 1] = im;
    }
}
extern "C" __global__ void fftx_fmm_post(const double* r, real* dst, const double* t,
                                         FmmArgs a, unsigned long long total) {
    double s = -(double)a.sign;
    LOOP(i, total) {
        long long p = i % a.p;
        if (p == 0) continue;
        double vr = dst[2 * i], vi = dst[2 * i + 1];
        double rr = r[2 * (p - 1)], ri = r[2 * (p - 1) + 1];
        double ar = vr - s * ri, ai = vi + s * rr;
        double pr = t[2 * p], pi = t[2 * p + 1];
        dst[2 * i] = (real)(ar * pr - ai * pi); dst[2 * i + 1] = (real)(ar * pi + ai * pr);
    }
}
"#;

/// The stages' kernels on one card.
#[derive(Clone, Copy)]
pub(super) struct Kernels {
    fns: [cu::CUfunction; 10],
}

/// Targets (terms) per thread of `fftx_fmm_s2t8` and `fftx_fmm_l2t8` (`fftx_fmm_s2m8`): a leaf
/// of a multiple of it takes those S2T and L2T kernels; S2M always takes its.
const BLOCK: u64 = 8;
/// Terms per thread of `fftx_fmm_m2l4`.
const M2L_BLOCK: u64 = 4;

// The kernels' places in `Kernels::fns`, in the order of NAMES.
const S2T: usize = 0;
const M2M: usize = 1;
const M2L4: usize = 2;
const L2L: usize = 3;
const L2T: usize = 4;
const REDUCE: usize = 5;
const POST: usize = 6;
const S2T8: usize = 7;
const S2M8: usize = 8;
const L2T8: usize = 9;
const NAMES: [&str; 10] = [
    "fftx_fmm_s2t",
    "fftx_fmm_m2m",
    "fftx_fmm_m2l4",
    "fftx_fmm_l2l",
    "fftx_fmm_l2t",
    "fftx_fmm_reduce",
    "fftx_fmm_post",
    "fftx_fmm_s2t8",
    "fftx_fmm_s2m8",
    "fftx_fmm_l2t8",
];

impl Kernels {
    /// Compiles (once per card and precision: `compile_generated` caches) and loads them.
    pub(super) fn load(dev: &Device, real: &str) -> Result<Kernels> {
        let module = match compile_generated(dev, &SOURCE.replace("REAL", real), false)? {
            Generated::Module(m) => m,
            Generated::Lto(_) => return Err(Error::new(ErrorKind::Internal, "LTO-IR, not PTX")),
        };
        let mut fns = [std::ptr::null_mut(); 10];
        for (f, name) in fns.iter_mut().zip(NAMES) {
            *f = generated_function(module, name)?;
        }
        Ok(Kernels { fns })
    }
}

/// Steps whose tables are the same: (S2M and L2T, M2M and L2L share theirs; M2L's depends on
/// the level).
pub(super) fn table_key(f: &FmmStep) -> (u8, FmmGeom, u32) {
    match f.op {
        FmmOp::S2m | FmmOp::L2t => (0, f.geom, 0),
        FmmOp::M2m | FmmOp::L2l => (1, f.geom, 0),
        FmmOp::S2t => (2, f.geom, 0),
        FmmOp::M2l => (3, f.geom, f.level),
        FmmOp::Post => (4, f.geom, 0),
    }
}

/// Copies a table to new device memory of the current context.
pub(super) fn upload(table: &[f64]) -> Result<u64> {
    let bytes = std::mem::size_of_val(table).max(8);
    let mut d = 0;
    // SAFETY: a new block of `bytes`, then a host-to-device copy of the table into it.
    unsafe {
        check(cu::cuMemAlloc_v2(&mut d, bytes), "cuMemAlloc")?;
        let r = check(
            cu::cuMemcpyHtoD_v2(
                d,
                table.as_ptr() as *const c_void,
                bytes.min(8 * table.len()),
            ),
            "cuMemcpyHtoD",
        );
        if let Err(e) = r {
            cu::cuMemFree_v2(d);
            return Err(e);
        }
    }
    Ok(d)
}

/// Launches the step on `stream` of `dev` (current context): `src`, `dst` the device addresses
/// of its `At`s, `table` its table's, `scratch` (post: 2·(P − 1) doubles) for the reduction.
///
/// # Safety
/// The addresses must hold what [`FmmStep::extents`] says around them.
pub(super) unsafe fn run(
    k: &Kernels,
    dev: &Device,
    f: &FmmStep,
    (src, dst, table, scratch): (u64, u64, u64, u64),
    stream: cu::CUstream,
) -> Result<()> {
    let g = &f.geom;
    let mut a = Args {
        p: g.p as i64,
        leaf: g.leaf as i64,
        terms: g.terms as i64,
        boxes: f.boxes as i64,
        first: f.first as i64,
        ring: 1 << g.base,
        base: i64::from(f.level == g.base),
        noffs: m2l_offsets(g, f.level).len() as i64,
        sign: g.sign as i64,
    };
    let (b, pn, q) = (f.boxes as u64, (g.p - 1) as u64, g.terms as u64);
    let points = b * g.leaf as u64 * g.p as u64;
    let blocked = (g.leaf as u64).is_multiple_of(BLOCK);
    let (func, total) = match f.op {
        FmmOp::S2m => (S2M8, b * q.div_ceil(BLOCK) * pn),
        FmmOp::S2t if blocked => {
            // Warps of 8 p (or 1) by 4 (or 32) items: whole warps over the items. Measured at
            // 2^28 on 2 H200 against warps of 32 p: S2T f32 26.4 -> 19.6 ms, but f64 23.5 ->
            // 26.6 ms (summed over the cards); a choice per precision is not measured yet.
            let pw: u64 = if g.p.is_multiple_of(8) { 8 } else { 1 };
            let items = b * g.leaf as u64 / BLOCK;
            let warps = items.div_ceil(32 / pw) * (g.p as u64 / pw);
            (S2T8, 32 * warps)
        }
        FmmOp::S2t => (S2T, points),
        FmmOp::M2m => (M2M, b * q * pn),
        FmmOp::M2l => (M2L4, b * q.div_ceil(M2L_BLOCK) * pn),
        FmmOp::L2l => (L2L, b * 2 * q * pn),
        FmmOp::L2t if blocked => (L2T8, points / BLOCK),
        FmmOp::L2t => (L2T, points),
        FmmOp::Post => (POST, points),
    };
    if f.op == FmmOp::Post {
        let (mut s, mut r, mut t) = (src, scratch, pn);
        let mut params = [
            &mut s as *mut u64 as *mut c_void,
            &mut r as *mut u64 as *mut c_void,
            &mut a as *mut Args as *mut c_void,
            &mut t as *mut u64 as *mut c_void,
        ];
        launch(dev, k.fns[REDUCE], pn, stream, &mut params)?;
    }
    let first = if f.op == FmmOp::Post { scratch } else { src };
    let (mut s, mut d, mut tb, mut t) = (first, dst, table, total);
    let mut params = [
        &mut s as *mut u64 as *mut c_void,
        &mut d as *mut u64 as *mut c_void,
        &mut tb as *mut u64 as *mut c_void,
        &mut a as *mut Args as *mut c_void,
        &mut t as *mut u64 as *mut c_void,
    ];
    launch(dev, k.fns[func], total, stream, &mut params)
}
