//! Out-of-card programs (passes::out_of_card) run by the CPU program executor, against the
//! system FFTW 3.3.10 on the same problems: four-step splits, slabs and pencils, batches, both
//! precisions, in place and out of place, with device budgets of a few KiB so that every
//! decomposition runs at small sizes.

mod common;

use common::{Float, P};
use fftx::exec::cpu::layout::ArrayPtr;
use fftx::exec::cpu::program::CpuProgram;
use fftx::fftw_iodim64 as Dim;
use fftx::passes::out_of_card::{lower, Budget};
use fftx::problem::{IoDim, Kind, Precision, Problem};
use fftx::program::Step;
use fftx::real::Real;
use rand::Rng;

/// A transform on interleaved complex arrays: dims and loops as (n, input stride, output
/// stride) in complex elements.
struct Case {
    dims: Vec<(isize, isize, isize)>,
    loops: Vec<(isize, isize, isize)>,
    sign: i32,
    in_place: bool,
    budget: usize,
}

fn row_major(ns: &[isize]) -> Vec<(isize, isize, isize)> {
    let mut s = 1;
    let mut out: Vec<_> = ns
        .iter()
        .rev()
        .map(|&n| {
            let d = (n, s, s);
            s *= n;
            d
        })
        .collect();
    out.reverse();
    out
}

impl Case {
    fn new(ns: &[isize], budget: usize) -> Case {
        Case {
            dims: row_major(ns),
            loops: vec![],
            sign: -1,
            in_place: false,
            budget,
        }
    }
    fn problem(&self, precision: Precision) -> Problem {
        let d = |&(n, is, os): &(isize, isize, isize)| IoDim::new(n, 2 * is, 2 * os);
        Problem {
            kind: Kind::Dft { sign: self.sign },
            dims: self.dims.iter().map(d).collect(),
            loops: self.loops.iter().map(d).collect(),
            precision,
            in_place: self.in_place,
        }
    }
    /// Complex elements each array needs (strides are positive here).
    fn len(&self, input: bool) -> usize {
        let span = |(n, is, os): (isize, isize, isize)| (n - 1) * if input { is } else { os };
        1 + self
            .dims
            .iter()
            .chain(&self.loops)
            .map(|&d| span(d))
            .sum::<isize>() as usize
    }
    fn points(&self) -> usize {
        self.dims.iter().map(|d| d.0 as usize).product()
    }
}

fn fftw_dims(d: &[(isize, isize, isize)]) -> Vec<Dim> {
    d.iter().map(|&(n, is, os)| Dim { n, is, os }).collect()
}

/// Runs the case through the out-of-card program and through the system FFTW; returns the
/// relative L2 difference and the program.
fn run<T: Float + Real>(c: &Case) -> (f64, fftx::program::Program) {
    let precision = <T as Real>::PRECISION;
    let prog = lower(
        &c.problem(precision),
        Budget {
            device: 0,
            bytes: c.budget,
        },
    )
    .unwrap_or_else(|e| panic!("lowering failed: {e:?}"));
    prog.validate().unwrap();
    let unit = std::mem::size_of::<T>();
    assert!(
        prog.device_scalars(0) * unit <= c.budget,
        "device buffers of {} bytes exceed the budget of {}",
        prog.device_scalars(0) * unit,
        c.budget
    );
    let mut rng = common::rng(0x0ca7d);
    let n_in = 2 * c.len(true).max(c.len(false));
    let data: Vec<T> = (0..n_in)
        .map(|_| <T as Float>::of(rng.gen::<f64>() - 0.5))
        .collect();
    let (mut a, mut b) = (data.clone(), vec![<T as Float>::of(0.0); 2 * c.len(false)]);
    let ptr = |v: &mut Vec<T>| {
        let p = v.as_mut_ptr() as usize;
        ArrayPtr::Complex {
            re: p,
            im: p + unit,
        }
    };
    let exec = CpuProgram::<T>::new(&prog, 1).unwrap();
    unsafe {
        if c.in_place {
            exec.run(ptr(&mut a), ptr(&mut a)).unwrap();
        } else {
            exec.run(ptr(&mut a), ptr(&mut b)).unwrap();
        }
    }
    let ours = if c.in_place { a } else { b };
    // The reference.
    let api = common::reference(if unit == 8 { "fftw_" } else { "fftwf_" });
    let (mut ra, mut rb) = (data.clone(), vec![<T as Float>::of(0.0); 2 * c.len(false)]);
    let (dims, loops) = (fftw_dims(&c.dims), fftw_dims(&c.loops));
    let out: P = if c.in_place {
        ra.as_mut_ptr() as P
    } else {
        rb.as_mut_ptr() as P
    };
    // FFTW's planner is not thread-safe; tests run on several threads.
    let _lock = common::REFERENCE_LOCK
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    unsafe {
        let plan = (api.dft)(
            dims.len() as i32,
            dims.as_ptr(),
            loops.len() as i32,
            loops.as_ptr(),
            ra.as_mut_ptr() as P,
            out,
            c.sign,
            1 << 6,
        );
        assert!(!plan.is_null());
        if !c.in_place {
            // FFTW_ESTIMATE never touches the arrays; the input stays as it was.
            ra.copy_from_slice(&data);
        }
        (api.execute)(plan);
        (api.destroy)(plan);
    }
    let want = if c.in_place { ra } else { rb };
    // Compare the elements the output addresses.
    let mut offs = vec![0isize];
    for &(n, _, os) in c.dims.iter().chain(&c.loops) {
        offs = offs
            .iter()
            .flat_map(|&o| (0..n).map(move |k| o + k * os))
            .collect();
    }
    let (mut num, mut den) = (0.0f64, 0.0f64);
    for o in offs {
        for part in 0..2 {
            let i = 2 * o as usize + part;
            let (x, y) = (ours[i].f(), want[i].f());
            num += (x - y) * (x - y);
            den += y * y;
        }
    }
    ((num / den).sqrt(), prog)
}

fn check<T: Float + Real>(c: &Case) -> fftx::program::Program {
    let (err, prog) = run::<T>(c);
    let eps = if std::mem::size_of::<T>() == 8 {
        2e-16
    } else {
        1.2e-7
    };
    let bound = 5.0 * eps * (c.points() as f64).log2().max(1.0);
    assert!(
        err <= bound,
        "relative L2 error {err:.3e} > {bound:.3e} for dims {:?} loops {:?}\n{}",
        c.dims,
        c.loops,
        prog.describe()
    );
    prog
}

fn rounds(p: &fftx::program::Program) -> usize {
    1 + p
        .steps
        .iter()
        .filter(|s| matches!(s, Step::Wait { .. }))
        .count()
        / 2
}

fn twiddles(p: &fftx::program::Program) -> usize {
    p.steps
        .iter()
        .filter(|s| matches!(s, Step::Twiddle { .. }))
        .count()
}

#[test]
fn one_dimension_2_16_in_a_64_kib_budget_is_four_step() {
    let c = Case::new(&[1 << 16], 64 << 10);
    let p = check::<f64>(&c);
    assert_eq!(rounds(&p), 2, "{}", p.describe());
    assert!(twiddles(&p) > 1, "tiles of columns: {}", p.describe());
    check::<f32>(&c);
}

#[test]
fn one_dimension_in_place_is_four_step_then_a_transpose() {
    for (n, budget) in [(1 << 16, 64 << 10), (99 * 99, 16 << 10)] {
        let mut c = Case::new(&[n], budget);
        c.in_place = true;
        let p = check::<f64>(&c);
        assert_eq!(rounds(&p), 3, "{}", p.describe());
        check::<f32>(&c);
    }
    // In a loop of 2, beside two more dimensions.
    let mut c = Case::new(&[3, 4096, 5], 24 << 10);
    c.in_place = true;
    c.loops = vec![(2, 3 * 4096 * 5, 3 * 4096 * 5)];
    check::<f64>(&c);
}

#[test]
fn one_dimension_not_a_power_of_two_backward() {
    let mut c = Case::new(&[3 * 5 * 7 * 64], 16 << 10);
    c.sign = 1;
    check::<f64>(&c);
    check::<f32>(&c);
}

#[test]
fn two_dimensions_by_rows_then_columns_in_and_out_of_place() {
    for in_place in [false, true] {
        let mut c = Case::new(&[128, 96], 48 << 10);
        c.in_place = in_place;
        let p = check::<f64>(&c);
        assert_eq!(rounds(&p), 2, "{}", p.describe());
        assert_eq!(twiddles(&p), 0);
        check::<f32>(&c);
    }
}

#[test]
fn three_dimensions_slabs_then_pencils_in_place() {
    let mut c = Case::new(&[16, 24, 20], 24 << 10);
    c.in_place = true;
    let p = check::<f64>(&c);
    assert_eq!(rounds(&p), 2, "{}", p.describe());
    check::<f32>(&c);
}

#[test]
fn a_split_axis_beside_a_whole_one() {
    let c = Case::new(&[4096, 6], 48 << 10);
    let p = check::<f64>(&c);
    assert_eq!(rounds(&p), 3, "{}", p.describe());
    check::<f32>(&c);
}

#[test]
fn batches_that_fit_stream_in_tiles_of_transforms() {
    let mut c = Case::new(&[300], 64 << 10);
    // 10 transforms, 7 elements apart in the input (padded), 300 apart in the output.
    c.dims = vec![(300, 1, 1)];
    c.loops = vec![(10, 307, 300)];
    let p = check::<f64>(&c);
    assert_eq!(rounds(&p), 1, "{}", p.describe());
    let ffts = p
        .steps
        .iter()
        .filter(|s| matches!(s, Step::Fft { .. }))
        .count();
    assert!(ffts > 1, "several tiles: {}", p.describe());
    check::<f32>(&c);
}

#[test]
fn strided_transposed_layouts() {
    // A 2-D transform whose output is the transpose of its input layout, in a loop of 3.
    let c = Case {
        dims: vec![(40, 50, 1), (50, 1, 40)],
        loops: vec![(3, 2000, 2000)],
        sign: -1,
        in_place: false,
        budget: 12 << 10,
    };
    check::<f64>(&c);
    check::<f32>(&c);
}

#[test]
fn what_cannot_be_lowered_says_why() {
    let p = |c: &Case| c.problem(Precision::F64);
    // In place, a split needs a square N = M² (2^15 is not one).
    let mut c = Case::new(&[1 << 15], 64 << 10);
    c.in_place = true;
    let e = lower(
        &p(&c),
        Budget {
            device: 0,
            bytes: c.budget,
        },
    )
    .unwrap_err();
    assert!(format!("{e:?}").contains("N = M²"), "{e:?}");
    // A prime longer than a tile has no four-step split.
    let c = Case::new(&[65537], 64 << 10);
    let e = lower(
        &p(&c),
        Budget {
            device: 0,
            bytes: c.budget,
        },
    )
    .unwrap_err();
    assert!(format!("{e:?}").contains("too small"), "{e:?}");
    // Real-data transforms are not this pass's.
    let mut q = p(&Case::new(&[64], 1 << 10));
    q.kind = Kind::R2c;
    assert!(lower(
        &q,
        Budget {
            device: 0,
            bytes: 1 << 10
        }
    )
    .is_err());
}

#[test]
fn programs_print_their_buffers_and_steps() {
    let c = Case::new(&[1 << 12], 8 << 10);
    let p = lower(
        &c.problem(Precision::F64),
        Budget {
            device: 0,
            bytes: c.budget,
        },
    )
    .unwrap();
    let s = p.describe();
    for word in [
        "(buffer b2 temp",
        "device0",
        "(transfer s0 b0+0 -> b2+0",
        "(fft s1",
        "(twiddle",
        "(wait s0 e1)",
    ] {
        assert!(s.contains(word), "{word} not in\n{s}");
    }
}
