//! FFTX: whole FFT pipelines described as plans of subplans (copies, transforms, pointwise
//! functions over the caller's arrays and FFTX temporaries), composed with `fftx_plan_compose`,
//! optimized as a graph (zero propagation, pruning, fusion) and run on the CPU executor.
//!
//! Flow: `capi` (the C interface of `include/fftx.h`) -> `plan` (nodes, per-node checks) ->
//! `graph` -> `passes` (zeros, needed, prune, fuse) -> `exec` (lowering; plain transforms go
//! through the FFTW planner and executor, fused chains through the pencil engine) or `gpu` (the
//! GPU lowering, with `cudagen`/`fftgen` for its kernels). `decompose` (a transform as 1-D passes
//! over pencils) and `pencil` (a chain as such passes) are shared by both lowerings. Pointwise
//! functions are recorded by `recorder` into instruction lists.
//!
//! Semantics are those of the FFTX paper's appendix (`y ≐ A x`: a copy assigns only the entries
//! it addresses; zero temporaries are zero at the start of every execute).
//!
//! Two precisions: `fftx_*` (`fftx_real` = `double`) and `fftxf_*` (`fftxf_real` = `float`), one
//! generic body (`capi::entry_points!`). A plan's precision is its buffers' (`graph::Buf`,
//! `graph::Temp`); one plan has one. The passes do not depend on it; the CPU executor runs in
//! it (`exec`, `pencil::run_cpu`, `recorder::Program::run` are generic over `crate::real::Real`)
//! and the generated CUDA is written over the precision's types (`cudagen::prelude`).

pub mod capi;
pub mod cudagen;
pub mod decompose;
pub mod exec;
pub mod fftgen;
pub mod gpu;
pub mod graph;
pub mod passes;
pub mod pencil;
pub mod plan;
pub mod recorder;

#[cfg(test)]
mod tests {
    /// The committed header is what build.rs generates from `capi.rs`.
    #[test]
    fn committed_header_is_fresh() {
        let generated = include_str!(concat!(env!("OUT_DIR"), "/fftx.h"));
        let committed =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/include/fftx.h"))
                .unwrap_or_default();
        assert!(
            generated == committed,
            "include/fftx.h is stale: run `FFTX_BLESS_HEADER=1 cargo build` and commit it"
        );
    }
}
