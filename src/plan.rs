//! A plan: the problem, the arrays it was made for, the program that computes it and that
//! program made ready for its executors (`exec::Executor`). `fftw_plan` / `fftwf_plan` point
//! at one of these.

use crate::error::Result;
use crate::exec::cpu::layout::ArrayPtr;
use crate::exec::cuda;
use crate::exec::Executable;
use crate::problem::{Kind, Problem};
use crate::program::Program;
use crate::wisdom::Choice;

pub struct Plan {
    pub problem: Problem,
    pub input: ArrayPtr,
    pub output: ArrayPtr,
    pub program: Program,
    pub exec: Executable,
    pub choice: Choice,
    /// The plan's own arrays are GPU memory (so only the GPU may touch them).
    pub device_arrays: bool,
}

/// Are these arrays in GPU memory? (Never, without a GPU; not asked with FFTX_BACKEND=cpu, nor
/// when the program has not loaded CUDA itself: CUDA stays untouched.)
pub fn on_device(input: ArrayPtr, output: ArrayPtr) -> bool {
    if crate::backend::backend_setting() == crate::backend::BackendSetting::Cpu
        || !cuda::device_pointers_possible()
    {
        return false;
    }
    let Some(g) = cuda::default_device() else {
        return false;
    };
    [input, output]
        .iter()
        .any(|a| cuda::memory_of(&g, a.base(), 1) == cuda::Memory::Device)
}

impl Plan {
    /// Runs the plan on its own arrays.
    ///
    /// # Safety
    /// The plan's arrays must still be valid for the problem's layout.
    pub unsafe fn execute(&self) -> Result<()> {
        if self.input.is_null() || self.output.is_null() {
            return Err("the plan was made on NULL arrays: execute it with fftw_execute_dft (or another new-array execute) on real arrays".into());
        }
        self.run(self.input, self.output, self.device_arrays)
    }

    /// Runs the plan on other arrays of the same layout (FFTW's new-array execute).
    ///
    /// # Safety
    /// The arrays must hold every element the problem addresses.
    pub unsafe fn execute_on(&self, input: ArrayPtr, output: ArrayPtr) -> Result<()> {
        let device = if (input, output) == (self.input, self.output) {
            self.device_arrays
        } else {
            on_device(input, output)
        };
        self.run(input, output, device)
    }

    unsafe fn run(&self, input: ArrayPtr, output: ArrayPtr, device: bool) -> Result<()> {
        self.exec.run(input, output, device)
    }

    /// Checks new arrays against the plan, as FFTW's new-array execute requires: same kind of
    /// arrays (real/complex, interleaved/split), non-NULL.
    pub fn check_new_arrays(&self, input: ArrayPtr, output: ArrayPtr) -> Result<()> {
        let same_kind =
            |a: &ArrayPtr, b: &ArrayPtr| std::mem::discriminant(a) == std::mem::discriminant(b);
        if !same_kind(&input, &self.input) || !same_kind(&output, &self.output) {
            return Err("the new arrays are not of the plan's kind (real/complex)".into());
        }
        if input.is_null() || output.is_null() {
            return Err("NULL array".into());
        }
        // A plan made for interleaved complex arrays has its strides doubled: on split arrays it
        // would step past their ends. (FFTW's execute_dft hands a split plan (in, in+1) or
        // (in+1, in): adjacent parts in either order are interleaved arrays.)
        let unit = self.problem.precision.bytes();
        let adjacent = |a: &ArrayPtr, either_order: bool| matches!(*a, ArrayPtr::Complex { re, im } if im == re + unit || (either_order && re == im + unit));
        for (new, old) in [(&input, &self.input), (&output, &self.output)] {
            if adjacent(old, false)
                && matches!(new, ArrayPtr::Complex { .. })
                && !adjacent(new, true)
            {
                return Err(
                    "split arrays given to a plan made for interleaved complex arrays".into(),
                );
            }
        }
        // In place or not may differ from the plan's (FFTW leaves that undefined): the
        // executors check at run time whether the output overlaps the input, and read all
        // input first when it does.
        Ok(())
    }

    /// (adds, multiplies, fused multiply-adds) of one execute, from the operation counts of the
    /// split-radix FFT: about 3 N log2 N additions and 2 N log2 N multiplications per complex
    /// transform of N points, half that for real data.
    pub fn flops(&self) -> (f64, f64, f64) {
        let p = &self.problem;
        let n: f64 = match &p.kind {
            Kind::R2r(kinds) => kinds
                .iter()
                .zip(&p.dims)
                .map(|(k, d)| k.logical_size(d.n).max(1) as f64)
                .product(),
            _ => p.transform_size() as f64,
        };
        let per = if n > 1.0 { n * n.log2() } else { 0.0 };
        let real = if matches!(p.kind, Kind::Dft { .. }) {
            1.0
        } else {
            0.5
        };
        let m = p.howmany() as f64 * real;
        (3.0 * per * m, 2.0 * per * m, 0.0)
    }

    pub fn describe(&self) -> String {
        let details = self.exec.details();
        let mut s = self.program.describe();
        for d in details {
            s.pop();
            s.push_str(&format!("\n  ({d}))"));
        }
        s
    }
}
