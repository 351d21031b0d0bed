//! FFTX: whole FFT pipelines described as plans of subplans (copies, transforms, pointwise
//! functions over the caller's arrays and FFTX temporaries), composed with `fftx_plan_compose`,
//! optimized as a graph (zero propagation, pruning, fusion) and lowered into a Program.
//!
//! Flow: `capi` (the C interface of `include/fftx.h`) -> `plan` (nodes, per-node checks) ->
//! `graph` -> `passes` (zeros, needed, prune, fuse) -> `exec` (the lowering into a
//! `program::Program`: plain transforms as `Fft` steps, copies, pointwise nodes and fused chains
//! as `Kernel` steps), which `exec::cpu` runs, or on the GPU, placed on the device
//! (`passes::place`), the CUDA executor of Programs `exec::cuda::program` (its `Kernel` steps
//! built by `exec::cuda::kernel`: cuFFT, LTO callbacks and the kernels `exec::cuda::cudagen`
//! writes), the CPU when the GPU fails.
//! `program::kernel` (chains, pointwise `Code`, the 1-D passes of a transform) and
//! `program::pencil` (a chain as batched passes) are shared by both executors. Pointwise
//! functions are recorded by `recorder` into `Code`; `decompose` counts a node's 1-D
//! transforms.
//!
//! Semantics are those of the FFTX paper's appendix (`y ≐ A x`: a copy assigns only the entries
//! it addresses; zero temporaries are zero at the start of every execute).
//!
//! Two precisions: `fftx_*` (`fftx_real` = `double`) and `fftxf_*` (`fftxf_real` = `float`), one
//! generic body (`capi::entry_points!`). A plan's precision is its buffers' (`graph::Buf`,
//! `graph::Temp`); one plan has one. The passes and the Program do not depend on it; the CPU
//! executor runs in it (`exec::cpu::program::CpuProgram`, `exec::cpu::kernel`, `Code::run` are
//! generic over `crate::real::Real`) and the generated CUDA is written over the precision's
//! types (`cudagen::prelude`).

pub mod capi;
pub mod decompose;
pub mod exec;
pub mod graph;
pub mod passes;
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
