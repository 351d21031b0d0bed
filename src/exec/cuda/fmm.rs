//! The FMM-FFT's stages ([`FmmStep`]) as NVRTC kernels: one thread per output element, the
//! operator tables of `exec::cpu::fmm::table` (f64) in device memory, sums in double like the
//! CPU twins (`exec::cpu::fmm`), which `tests/gpu.rs` compares them with.

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
extern "C" __global__ void fftx_fmm_s2m(const real* src, real* dst, const double* t,
                                        FmmArgs a, unsigned long long total) {
    long long pn = a.p - 1;
    LOOP(i, total) {
        long long pm = i % pn, r = i / pn, q = r % a.terms, b = r / a.terms;
        double re = 0, im = 0;
        for (long long m = 0; m < a.leaf; ++m) {
            double w = t[q * a.leaf + m];
            long long e = (b * a.leaf + m) * a.p + pm + 1;
            re += w * (double)src[2 * e]; im += w * (double)src[2 * e + 1];
        }
        dst[2 * i] = (real)re; dst[2 * i + 1] = (real)im;
    }
}
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
extern "C" __global__ void fftx_fmm_m2l(const real* src, real* dst, const double* t,
                                        FmmArgs a, unsigned long long total) {
    long long pn = a.p - 1, nq = a.terms;
    LOOP(i, total) {
        long long pm = i % pn, r = i / pn, ii = r % nq, b = r / nq, gb = a.first + b;
        double re = 0, im = 0;
        for (long long si = 0; si < a.noffs; ++si) {
            long long from;
            if (a.base) {
                from = (gb + si + 2) % a.ring;
            } else {
                long long s = si < 2 ? si - 3 : si;
                if ((gb % 2 == 0 && s == -3) || (gb % 2 == 1 && s == 3)) continue;
                from = b + s;
            }
            const double* row = t + (si * nq + ii) * nq * pn + pm;
            for (long long j = 0; j < nq; ++j) {
                long long e = (from * nq + j) * pn + pm;
                double w = row[j * pn];
                re += w * (double)src[2 * e]; im += w * (double)src[2 * e + 1];
            }
        }
        dst[2 * i] = (real)re; dst[2 * i + 1] = (real)im;
    }
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
    fns: [cu::CUfunction; 8],
}

const NAMES: [&str; 8] = [
    "fftx_fmm_s2m",
    "fftx_fmm_s2t",
    "fftx_fmm_m2m",
    "fftx_fmm_m2l",
    "fftx_fmm_l2l",
    "fftx_fmm_l2t",
    "fftx_fmm_reduce",
    "fftx_fmm_post",
];

impl Kernels {
    /// Compiles (once per card and precision: `compile_generated` caches) and loads them.
    pub(super) fn load(dev: &Device, real: &str) -> Result<Kernels> {
        let module = match compile_generated(dev, &SOURCE.replace("REAL", real), false)? {
            Generated::Module(m) => m,
            Generated::Lto(_) => return Err(Error::new(ErrorKind::Internal, "LTO-IR, not PTX")),
        };
        let mut fns = [std::ptr::null_mut(); 8];
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
    let (func, total) = match f.op {
        FmmOp::S2m => (0, b * q * pn),
        FmmOp::S2t => (1, points),
        FmmOp::M2m => (2, b * q * pn),
        FmmOp::M2l => (3, b * q * pn),
        FmmOp::L2l => (4, b * 2 * q * pn),
        FmmOp::L2t => (5, points),
        FmmOp::Post => (7, points),
    };
    if f.op == FmmOp::Post {
        let (mut s, mut r, mut t) = (src, scratch, pn);
        let mut params = [
            &mut s as *mut u64 as *mut c_void,
            &mut r as *mut u64 as *mut c_void,
            &mut a as *mut Args as *mut c_void,
            &mut t as *mut u64 as *mut c_void,
        ];
        launch(dev, k.fns[6], pn, stream, &mut params)?;
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
