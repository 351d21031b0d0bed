//! A plan: the problem, the arrays it was made for, the program that computes it and that
//! program made ready for its executor. `fftw_plan` / `fftwf_plan` point at one of these.

use crate::exec::cpu::layout::ArrayPtr;
use crate::exec::cpu::CpuTransform;
use crate::problem::{Kind, Problem};
use crate::program::{Program, Step};
use crate::real::Real;
use crate::wisdom::Choice;

/// The program's steps, ready to run, in the plan's precision.
pub enum Executable {
    F32(Vec<CpuTransform<f32>>),
    F64(Vec<CpuTransform<f64>>),
}

pub struct Plan {
    pub problem: Problem,
    pub input: ArrayPtr,
    pub output: ArrayPtr,
    pub program: Program,
    pub exec: Executable,
    pub choice: Choice,
}

/// Builds the executable form of a program.
pub fn prepare<T: Real>(program: &Program) -> Vec<CpuTransform<T>> {
    program
        .steps
        .iter()
        .map(|s| match s {
            Step::Transform { problem, threads, .. } => CpuTransform::new(problem, *threads),
        })
        .collect()
}

impl Plan {
    /// Runs the plan on its own arrays.
    ///
    /// # Safety
    /// The plan's arrays must still be valid for the problem's layout.
    pub unsafe fn execute(&self) {
        self.execute_on(self.input, self.output);
    }

    /// Runs the plan on other arrays of the same layout (FFTW's new-array execute).
    ///
    /// # Safety
    /// The arrays must hold every element the problem addresses.
    pub unsafe fn execute_on(&self, input: ArrayPtr, output: ArrayPtr) {
        match &self.exec {
            Executable::F32(steps) => steps.iter().for_each(|s| s.execute(input, output)),
            Executable::F64(steps) => steps.iter().for_each(|s| s.execute(input, output)),
        }
    }

    /// Checks new arrays against the plan, as FFTW's new-array execute requires: same kind of
    /// arrays, non-NULL, and in-place exactly when the plan is.
    pub fn check_new_arrays(&self, input: ArrayPtr, output: ArrayPtr) -> Result<(), String> {
        let same_kind = |a: &ArrayPtr, b: &ArrayPtr| std::mem::discriminant(a) == std::mem::discriminant(b);
        if !same_kind(&input, &self.input) || !same_kind(&output, &self.output) {
            return Err("the new arrays are not of the plan's kind (real/complex)".into());
        }
        if input.is_null() || output.is_null() {
            return Err("NULL array".into());
        }
        // A plan made for interleaved complex arrays has its strides doubled: on split arrays it
        // would step past their ends.
        let unit = self.problem.precision.bytes();
        let interleaved = |a: &ArrayPtr| matches!(*a, ArrayPtr::Complex { re, im } if im == re + unit);
        for (new, old) in [(&input, &self.input), (&output, &self.output)] {
            if matches!(old, ArrayPtr::Complex { .. }) && interleaved(old) && !interleaved(new) {
                return Err("split arrays given to a plan made for interleaved complex arrays".into());
            }
        }
        if (input.base() == output.base()) != self.problem.in_place {
            return Err(format!(
                "the plan is {} but the new arrays are {}",
                if self.problem.in_place { "in-place" } else { "out-of-place" },
                if input.base() == output.base() { "the same array" } else { "different arrays" }
            ));
        }
        Ok(())
    }

    /// (adds, multiplies, fused multiply-adds) of one execute, from the operation counts of the
    /// split-radix FFT: about 3 N log2 N additions and 2 N log2 N multiplications per complex
    /// transform of N points, half that for real data.
    pub fn flops(&self) -> (f64, f64, f64) {
        let p = &self.problem;
        let n: f64 = match &p.kind {
            Kind::R2r(kinds) => kinds.iter().zip(&p.dims).map(|(k, d)| k.logical_size(d.n).max(1) as f64).product(),
            _ => p.transform_size() as f64,
        };
        let per = if n > 1.0 { n * n.log2() } else { 0.0 };
        let real = if matches!(p.kind, Kind::Dft { .. }) { 1.0 } else { 0.5 };
        let m = p.howmany() as f64 * real;
        (3.0 * per * m, 2.0 * per * m, 0.0)
    }

    pub fn describe(&self) -> String {
        self.program.describe()
    }
}
