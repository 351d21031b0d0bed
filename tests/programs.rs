//! Programs run by the CPU program executor, against the system FFTW 3.3.10 on the same
//! problems: out-of-card ones (passes::out_of_card: four-step splits, slabs and pencils,
//! batches, with device budgets of a few KiB so that every decomposition runs at small sizes)
//! and distributed ones (passes::distribute over 1 to 4 virtual devices); both precisions, in
//! place and out of place, c2c, r2c and c2r.

mod common;

use common::{Float, P};
use fftx::exec::cpu::layout::ArrayPtr;
use fftx::exec::cpu::program::CpuProgram;
use fftx::fftw_iodim64 as Dim;
use fftx::passes::distribute;
use fftx::passes::out_of_card::{lower, Budget, HostArrays};
use fftx::problem::{IoDim, Kind, Precision, Problem};
use fftx::program::{Placement, Step};
use fftx::real::Real;
use rand::Rng;

/// Scalars after each array, and their value: the programs must leave them alone.
const GUARD: usize = 16;
const SENTINEL: f64 = 7.25;

/// A transform on interleaved complex arrays: dims and loops as (n, input stride, output
/// stride) in complex elements.
struct Case {
    dims: Vec<(isize, isize, isize)>,
    loops: Vec<(isize, isize, isize)>,
    sign: i32,
    in_place: bool,
    budget: usize,
    /// Distributed over this many virtual devices (0: out of card within `budget`).
    devices: usize,
    /// Distributed by pencils (`distribute::pencils`) rather than slabs.
    pencils: bool,
}

/// The program under test: out of card within `budget` bytes, or over `devices` devices.
fn lower_for(p: &Problem, budget: usize, devices: usize) -> fftx::program::Program {
    lower_with(p, budget, devices, false)
}

/// As [`lower_for`], by pencils when `pencils` (and devices > 0).
fn lower_with(p: &Problem, budget: usize, devices: usize, pencils: bool) -> fftx::program::Program {
    let prog = if devices > 0 && pencils {
        distribute::pencils(p, &(0..devices).collect::<Vec<_>>())
    } else if devices == 0 {
        lower(
            p,
            Budget {
                device: 0,
                bytes: budget,
            },
            HostArrays::Pageable,
        )
    } else if p.dims.len() == 1 {
        distribute::one_dimension(p, &(0..devices).collect::<Vec<_>>())
    } else {
        distribute::slabs(p, &(0..devices).collect::<Vec<_>>())
    }
    .unwrap_or_else(|e| panic!("lowering failed: {e:?}"));
    prog.validate().unwrap();
    if devices == 0 {
        let bytes = prog.device_scalars(0) * p.precision.bytes();
        assert!(bytes <= budget, "{bytes} > {budget}\n{}", prog.describe());
    }
    prog
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
            devices: 0,
            pencils: false,
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
    let prog = lower_with(&c.problem(precision), c.budget, c.devices, c.pencils);
    let unit = std::mem::size_of::<T>();
    let mut rng = common::rng(0x0ca7d);
    let n_in = 2 * c.len(true).max(c.len(false));
    let data: Vec<T> = (0..n_in)
        .map(|_| <T as Float>::of(rng.gen::<f64>() - 0.5))
        .collect();
    let guard = |mut v: Vec<T>| {
        v.resize(v.len() + GUARD, <T as Float>::of(SENTINEL));
        v
    };
    let (mut a, mut b) = (
        guard(data.clone()),
        guard(vec![<T as Float>::of(0.0); 2 * c.len(false)]),
    );
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
    for (v, len) in [(&a, n_in), (&b, 2 * c.len(false))] {
        assert!(
            v[len..].iter().all(|t| t.f() == SENTINEL),
            "wrote past the array\n{}",
            prog.describe()
        );
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

/// How many times the program moves the data across: elements read from the input and written
/// to the output, over the points.
fn crossings(p: &fftx::program::Program, points: usize) -> f64 {
    use fftx::program::{INPUT, OUTPUT};
    let moved: isize = p
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Transfer { from, to, dims, .. } if from.buf == INPUT || to.buf == OUTPUT => {
                Some(dims.iter().map(|d| d.n).product::<isize>())
            }
            _ => None,
        })
        .sum();
    moved as f64 / points as f64
}

#[test]
/// Data that fit the budget once but not with whole transforms beside them (passes::resident):
/// in once, every pass on the device in tiles (a long axis split four-step style), out once.
fn resident_data_cross_once_each_way() {
    for (ns, in_place, sign) in [
        (vec![1 << 16], false, -1),
        (vec![1 << 16], true, 1),
        (vec![3 * 5 * 7 * 64], true, -1),
        (vec![32, 32, 32], true, -1),
        (vec![24, 40, 18], false, 1),
    ] {
        let points: usize = ns.iter().product::<isize>() as usize;
        // The data and a fifth more: tiles of a few hundred elements.
        let mut c = Case::new(&ns, points * 16 * 6 / 5);
        c.in_place = in_place;
        c.sign = sign;
        let p = check::<f64>(&c);
        assert_eq!(crossings(&p, points), 2.0, "{}", p.describe());
        let whole = fftx::program::Role::Temp {
            scalars: 2 * points,
        };
        assert!(
            p.buffers.iter().any(|b| b.role == whole),
            "the data resident in one buffer: {}",
            p.describe()
        );
        if ns.len() == 1 {
            assert!(twiddles(&p) > 1, "a split axis in tiles: {}", p.describe());
        }
        let p = check::<f32>(&Case {
            budget: c.budget / 2,
            ..c
        });
        assert_eq!(crossings(&p, points), 2.0, "{}", p.describe());
    }
    // Batches of strided transforms whose output lies elsewhere.
    let mut c = Case::new(&[96], 0);
    c.dims = vec![(96, 3, 1)];
    c.loops = vec![(5, 1, 96)];
    c.budget = 96 * 5 * 16 * 6 / 5;
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
    let mut c = Case::new(&[16, 24, 20], 48 << 10);
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
fn interleaved_batches_in_place() {
    // 40 transforms of 300 points, batches one element apart (stride 40): tiles of transforms
    // interleave in memory, each writing back only its own elements.
    let mut c = Case::new(&[300], 64 << 10);
    c.dims = vec![(300, 40, 40)];
    c.loops = vec![(40, 1, 1)];
    c.in_place = true;
    let p = check::<f64>(&c);
    assert!(
        p.steps
            .iter()
            .filter(|s| matches!(s, Step::Fft { .. }))
            .count()
            > 1,
        "several tiles: {}",
        p.describe()
    );
    check::<f32>(&c);
    // An axis split in place (4096 = 64²: four-step rounds, then the transpose), 3 batches
    // interleaved with it.
    let mut c = Case::new(&[4096], 24 << 10);
    c.dims = vec![(4096, 3, 3)];
    c.loops = vec![(3, 1, 1)];
    c.in_place = true;
    let p = check::<f64>(&c);
    assert_eq!(rounds(&p), 3, "{}", p.describe());
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
        devices: 0,
        pencils: false,
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
        HostArrays::Pageable,
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
        HostArrays::Pageable,
    )
    .unwrap_err();
    assert!(format!("{e:?}").contains("too small"), "{e:?}");
    // Real-data transforms are not this pass's.
    let mut q = p(&Case::new(&[64], 1 << 10));
    q.kind = Kind::R2c;
    let budget = Budget {
        device: 0,
        bytes: 1 << 10,
    };
    assert!(lower(&q, budget, HostArrays::Pageable).is_err());
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
        HostArrays::Pageable,
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

/// An r2c (and back, c2r) of row-major arrays of shape `ns` in a loop of `howmany`: in place
/// with FFTW's padded layout, or out of place. Checks both against FFTW; returns the r2c and
/// c2r programs.
fn real_check<T: Float + Real>(
    ns: &[isize],
    howmany: isize,
    in_place: bool,
    budget: usize,
    devices: usize,
) -> (fftx::program::Program, fftx::program::Program) {
    real_check_with::<T>(ns, howmany, in_place, budget, devices, false)
}

/// As [`real_check`], distributed by pencils when `pencils`.
fn real_check_with<T: Float + Real>(
    ns: &[isize],
    howmany: isize,
    in_place: bool,
    budget: usize,
    devices: usize,
    pencils: bool,
) -> (fftx::program::Program, fftx::program::Program) {
    let rank = ns.len();
    let nh = ns[rank - 1] / 2 + 1;
    // Strides in real scalars: the complex array (n/2 + 1 along the last axis), the real one.
    let mut cs = vec![2isize; rank];
    let mut rs = vec![1isize; rank];
    for i in (0..rank - 1).rev() {
        let inner = if i + 1 == rank - 1 { nh } else { ns[i + 1] };
        cs[i] = cs[i + 1] * inner;
        let real_inner = if i + 1 == rank - 1 {
            if in_place {
                2 * nh
            } else {
                ns[rank - 1]
            }
        } else {
            ns[i + 1]
        };
        rs[i] = rs[i + 1] * real_inner;
    }
    let (cdist, rdist) = (cs[0] * ns[0], rs[0] * ns[0]);
    let (cdist, rdist) = if rank == 1 {
        (2 * nh, if in_place { 2 * nh } else { ns[0] })
    } else {
        (cdist, rdist)
    };
    let (clen, rlen) = ((cdist * howmany) as usize, (rdist * howmany) as usize);
    let precision = <T as Real>::PRECISION;
    let problem = |kind: Kind| {
        let r2c = kind == Kind::R2c;
        let d = |n, r: isize, c: isize| {
            if r2c {
                IoDim::new(n, r, c)
            } else {
                IoDim::new(n, c, r)
            }
        };
        Problem {
            kind,
            dims: (0..rank).map(|i| d(ns[i], rs[i], cs[i])).collect(),
            loops: vec![d(howmany, rdist, cdist)],
            precision,
            in_place,
        }
    };
    let unit = std::mem::size_of::<T>();
    let mut rng = common::rng(0x5ea1);
    let x: Vec<T> = (0..rlen.max(clen))
        .map(|_| <T as Float>::of(rng.gen::<f64>() - 0.5))
        .collect();
    let api = common::reference(if unit == 8 { "fftw_" } else { "fftwf_" });
    let fftw_dims = |div_r: isize, div_c: isize, r2c: bool| {
        let mut v: Vec<Dim> = (0..rank)
            .map(|i| {
                let (r, c) = (rs[i] / div_r, cs[i] / div_c);
                let (is, os) = if r2c { (r, c) } else { (c, r) };
                Dim { n: ns[i], is, os }
            })
            .collect();
        let (r, c) = (rdist / div_r, cdist / div_c);
        let (is, os) = if r2c { (r, c) } else { (c, r) };
        v.push(Dim { n: howmany, is, os });
        v
    };
    // FFTW's r2c of x, then its c2r of that spectrum: the references.
    let mut spectrum = vec![<T as Float>::of(0.0); clen.max(rlen)];
    let mut back = vec![<T as Float>::of(0.0); rlen.max(clen)];
    {
        let _lock = common::REFERENCE_LOCK
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let d = fftw_dims(1, 2, true);
        let mut xin = x.clone();
        unsafe {
            let out = if in_place {
                xin.as_mut_ptr()
            } else {
                spectrum.as_mut_ptr()
            } as P;
            let plan = (api.r2c)(
                rank as i32,
                d.as_ptr(),
                1,
                d[rank..].as_ptr(),
                xin.as_mut_ptr() as P,
                out,
                1 << 6,
            );
            assert!(!plan.is_null());
            (api.execute)(plan);
            (api.destroy)(plan);
        }
        if in_place {
            spectrum = xin;
        }
        let d = fftw_dims(1, 2, false);
        let mut sin = spectrum.clone();
        unsafe {
            let out = if in_place {
                sin.as_mut_ptr()
            } else {
                back.as_mut_ptr()
            } as P;
            let plan = (api.c2r)(
                rank as i32,
                d.as_ptr(),
                1,
                d[rank..].as_ptr(),
                sin.as_mut_ptr() as P,
                out,
                1 << 6,
            );
            assert!(!plan.is_null());
            (api.execute)(plan);
            (api.destroy)(plan);
        }
        if in_place {
            back = sin;
        }
    }
    let complex = |v: &mut Vec<T>| {
        let p = v.as_mut_ptr() as usize;
        ArrayPtr::Complex {
            re: p,
            im: p + unit,
        }
    };
    let real = |v: &mut Vec<T>| ArrayPtr::Real(v.as_mut_ptr() as usize);
    let run = |kind: Kind, input: &[T]| {
        let prog = lower_with(&problem(kind.clone()), budget, devices, pencils);
        let exec = CpuProgram::<T>::new(&prog, 1).unwrap();
        // Each array is followed by a guard of sentinels that nothing may write.
        let (len_in, len_out) = match (in_place, kind == Kind::R2c) {
            (true, _) => (rlen.max(clen), rlen.max(clen)),
            (false, true) => (rlen, clen),
            (false, false) => (clen, rlen),
        };
        let guarded = |v: &[T], len: usize| {
            let mut g = v[..len.min(v.len())].to_vec();
            g.resize(len, <T as Float>::of(0.0));
            g.resize(len + GUARD, <T as Float>::of(SENTINEL));
            g
        };
        let mut a = guarded(input, len_in);
        let mut b = guarded(&[], len_out);
        unsafe {
            let (i, o) = match (kind == Kind::R2c, in_place) {
                (true, true) => (real(&mut a), complex(&mut a)),
                (true, false) => (real(&mut a), complex(&mut b)),
                (false, true) => (complex(&mut a), real(&mut a)),
                (false, false) => (complex(&mut a), real(&mut b)),
            };
            exec.run(i, o).unwrap();
        }
        for v in [&a, &b] {
            let tail = &v[v.len() - GUARD..];
            assert!(
                tail.iter().all(|t| t.f() == SENTINEL),
                "wrote past the array\n{}",
                prog.describe()
            );
        }
        (if in_place { a } else { b }, prog)
    };
    let eps = if unit == 8 { 2e-16 } else { 1.2e-7 };
    let points: isize = ns.iter().product();
    let bound = 5.0 * eps * (points as f64).log2().max(1.0);
    let err = |got: &[T], want: &[T], offs: &dyn Fn(usize) -> bool| {
        let (mut num, mut den) = (0.0f64, 0.0f64);
        for i in (0..want.len()).filter(|&i| offs(i)) {
            let (g, w) = (got[i].f(), want[i].f());
            num += (g - w) * (g - w);
            den += w * w;
        }
        (num / den).sqrt()
    };
    // Scalars that belong to the arrays (not the padding of the in-place real rows).
    let in_real = |i: usize| {
        let row = 2 * nh as usize;
        !in_place || i % row < ns[rank - 1] as usize
    };
    let (got, r2c_prog) = run(Kind::R2c, &x);
    let e = err(&got, &spectrum, &|i| i < clen);
    assert!(
        e <= bound,
        "r2c {ns:?} x {howmany}: {e:.3e} > {bound:.3e}\n{}",
        r2c_prog.describe()
    );
    let (got, c2r_prog) = run(Kind::C2r, &spectrum);
    let e = err(&got, &back, &|i| i < rlen && in_real(i));
    assert!(
        e <= bound,
        "c2r {ns:?} x {howmany}: {e:.3e} > {bound:.3e}\n{}",
        c2r_prog.describe()
    );
    (r2c_prog, c2r_prog)
}

#[test]
fn real_data_three_dimensions_slabs_then_pencils() {
    for in_place in [false, true] {
        let (r2c, c2r) = real_check::<f64>(&[12, 10, 16], 1, in_place, 12 << 10, 0);
        assert!(rounds(&r2c) >= 2, "{}", r2c.describe());
        assert!(rounds(&c2r) >= 2, "{}", c2r.describe());
        real_check::<f32>(&[12, 10, 16], 1, in_place, 12 << 10, 0);
    }
}

#[test]
fn real_data_batches_and_a_split_outer_axis() {
    // Rows of 33 reals in a loop of 5, tiles of a few rows.
    real_check::<f64>(&[7, 33], 5, false, 4 << 10, 0);
    // The outer axis of 4096 is split four-step on the complex array (4096 = 64²).
    let (r2c, _) = real_check::<f64>(&[4096, 6], 1, false, 16 << 10, 0);
    assert!(twiddles(&r2c) > 0, "{}", r2c.describe());
    real_check::<f32>(&[4096, 6], 1, true, 16 << 10, 0);
}

#[test]
fn distributed_complex_over_one_to_four_devices() {
    for devices in 1..=4 {
        for (ns, in_place) in [
            (&[12, 10, 6][..], false),
            (&[7, 5][..], true),
            (&[9, 8, 3, 2][..], false),
        ] {
            let mut c = Case::new(ns, 0);
            c.devices = devices;
            c.in_place = in_place;
            c.sign = if devices % 2 == 0 { 1 } else { -1 };
            check::<f64>(&c);
            check::<f32>(&c);
        }
    }
    // Strided, transposed and batched.
    let mut c = Case::new(&[6, 10], 0);
    c.dims = vec![(6, 1, 10), (10, 6, 1)];
    c.loops = vec![(3, 60, 60)];
    c.devices = 3;
    check::<f64>(&c);
    // In place, 4 batches interleaved with the 2-D transforms (one element apart).
    let mut c = Case::new(&[6, 10], 0);
    c.dims = vec![(6, 40, 40), (10, 4, 4)];
    c.loops = vec![(4, 1, 1)];
    c.in_place = true;
    c.devices = 3;
    check::<f64>(&c);
}

#[test]
fn distributed_real_data_over_one_to_four_devices() {
    for devices in 1..=4 {
        real_check::<f64>(&[12, 10, 16], 2, false, 0, devices);
        real_check::<f64>(&[5, 9], 1, true, 0, devices);
        real_check::<f32>(&[6, 4, 7], 1, false, 0, devices);
    }
}

#[test]
fn distributed_programs_exchange_between_every_pair_of_devices() {
    let c = Case::new(&[8, 8, 4], 0);
    let p = lower_for(&c.problem(Precision::F64), 0, 3);
    let s = p.describe();
    for dev in 0..3 {
        assert!(s.contains(&format!("device{dev}")), "{s}");
    }
    // Slabs of 3, 3 and 2 planes, transformed a plane at a time (chunks of one plane: fewer
    // planes than EXCHANGE_CHUNKS); each chunk sends one part to every device: 3 slabs in, 3 x 8
    // parts, 3 pencils out.
    let transfers = p
        .steps
        .iter()
        .filter(|s| matches!(s, Step::Transfer { .. }))
        .count();
    assert_eq!(transfers, 3 + 3 * 8 + 3, "{s}");
    let device = |b: usize| match p.buffers[b].placement {
        Placement::Device(d) => Some(d),
        _ => None,
    };
    // Which stream records each event, and the FFT steps a stream ran before it.
    let mut recorded = std::collections::HashMap::new();
    let mut ffts = [0usize; 6];
    for step in &p.steps {
        match step {
            Step::Fft { stream, .. } => ffts[*stream] += 1,
            Step::Record { event, stream } => {
                recorded.insert(*event, (*stream, ffts[*stream]));
            }
            _ => {}
        }
    }
    for q in 0..3 {
        // Device q's parts go on its copy stream (3 + q): chunk by chunk, its own part first,
        // then round the ring, each after a wait for the event its source records once it
        // has transformed that chunk, and no later: the exchange runs beside the FFTs.
        let copies = 3 + q;
        let mut order = Vec::new();
        let mut waited = None;
        for step in &p.steps {
            match step {
                Step::Wait { event, stream } if *stream == copies => waited = Some(*event),
                Step::Transfer { from, stream, .. } if *stream == copies => {
                    let source = device(from.buf).expect("a slab");
                    let (by, after) = recorded[&waited.take().expect("a wait first")];
                    assert_eq!(by, source, "{s}");
                    order.push((source, after));
                }
                _ => {}
            }
        }
        let ring = |k: usize| (0..3).map(move |i| ((q + i) % 3, k));
        let expected: Vec<(usize, usize)> = ring(1)
            .chain(ring(2))
            .chain(ring(3).filter(|&(d, _)| d != 2))
            .collect();
        assert_eq!(order, expected, "{s}");
    }
    assert!(distribute::slabs(&Case::new(&[64], 0).problem(Precision::F64), &[0, 1]).is_err());
}

#[test]
fn a_distributed_c2r_sends_each_pencil_chunk_once_it_is_transformed() {
    let problem = Problem::packed(&[8, 6, 10], Kind::C2r, Precision::F64);
    let p = distribute::slabs(&problem, &[0, 1]).unwrap();
    let s = p.describe();
    let device = |b: usize| match p.buffers[b].placement {
        Placement::Device(d) => Some(d),
        _ => None,
    };
    // Events recorded by a compute stream (0 or 1) after how many of its FFTs.
    let mut ffts = [0usize; 4];
    let mut recorded = std::collections::HashMap::new();
    let mut parts = 0;
    let mut waited = None;
    for step in &p.steps {
        match step {
            Step::Fft { stream, .. } => ffts[*stream] += 1,
            Step::Record { event, stream } => {
                recorded.insert(*event, (*stream, ffts[*stream]));
            }
            Step::Wait { event, stream } if *stream >= 2 => waited = Some(*event),
            Step::Transfer { from, stream, .. } if *stream >= 2 => {
                // Each part leaves a device's pencils after the FFT of its chunk (of the second
                // axis's 6 columns each device holds 3, transformed in 3 chunks of one).
                let (by, after) = recorded[&waited.take().expect("a wait first")];
                assert_eq!(Some(by), device(from.buf), "{s}");
                assert!(after >= 1, "{s}");
                parts += 1;
            }
            _ => {}
        }
    }
    // Two destinations, each a part of each source's three chunks.
    assert_eq!(parts, 2 * 2 * 3, "{s}");
}

#[test]
fn distributed_one_dimension_four_step_over_one_to_four_devices() {
    for devices in 1..=4 {
        for n in [1 << 12, 3 * 5 * 7 * 8, 97, 1000] {
            let mut c = Case::new(&[n], 0);
            c.devices = devices;
            c.sign = if n % 2 == 0 { -1 } else { 1 };
            let p = check::<f64>(&c);
            if n == 1 << 12 {
                // Each device's 64 / devices planes (at least 16) in EXCHANGE_CHUNKS chunks.
                let chunks = devices * distribute::EXCHANGE_CHUNKS;
                assert!(twiddles(&p) == chunks, "{}", p.describe());
            }
            check::<f32>(&c);
        }
    }
    // In a loop, strided, in place.
    let mut c = Case::new(&[360], 0);
    // Two transforms interleaved element by element.
    c.dims = vec![(360, 2, 2)];
    c.loops = vec![(2, 1, 1)];
    c.in_place = true;
    c.devices = 3;
    check::<f64>(&c);
}

#[test]
fn pencil_grids_are_as_square_as_the_count_allows() {
    assert_eq!(distribute::pencil_grid(1), (1, 1));
    assert_eq!(distribute::pencil_grid(2), (2, 1));
    assert_eq!(distribute::pencil_grid(4), (2, 2));
    assert_eq!(distribute::pencil_grid(6), (3, 2));
    assert_eq!(distribute::pencil_grid(7), (7, 1));
    assert_eq!(distribute::pencil_grid(8), (4, 2));
}

#[test]
fn distributed_pencils_complex_over_one_to_eight_devices() {
    for devices in 1..=8 {
        for (ns, in_place) in [
            (&[12, 10, 6][..], false),
            (&[6, 5, 4][..], true),
            // Fewer planes than grid rows: empty shares.
            (&[3, 2, 8][..], false),
        ] {
            let mut c = Case::new(ns, 0);
            c.devices = devices;
            c.pencils = true;
            c.in_place = in_place;
            c.sign = if devices % 2 == 0 { 1 } else { -1 };
            check::<f64>(&c);
            check::<f32>(&c);
        }
    }
    // Strided, transposed and in a loop.
    let mut c = Case::new(&[6, 10, 4], 0);
    c.dims = vec![(6, 1, 40), (10, 6, 4), (4, 60, 1)];
    c.loops = vec![(3, 240, 240)];
    c.devices = 4;
    c.pencils = true;
    check::<f64>(&c);
}

#[test]
fn distributed_pencils_real_data_over_one_to_six_devices() {
    for devices in [1, 2, 3, 4, 6] {
        real_check_with::<f64>(&[12, 10, 16], 2, false, 0, devices, true);
        real_check_with::<f64>(&[5, 9, 6], 1, true, 0, devices, true);
        real_check_with::<f32>(&[6, 4, 7], 1, false, 0, devices, true);
    }
}

#[test]
fn pencils_exchange_within_rows_then_columns_of_the_grid() {
    let c = Case::new(&[8, 8, 4], 0);
    let p = distribute::pencils(&c.problem(Precision::F64), &[0, 1, 2, 3]).unwrap();
    p.validate().unwrap();
    let s = p.describe();
    let count = |f: &dyn Fn(&Step) -> bool| p.steps.iter().filter(|s| f(s)).count();
    // 4 pencils in; each device receives a part from 2 devices per exchange (its row, then its
    // column of the 2 x 2 grid), per chunk: both exchanges in 4 chunks of the first axis (a
    // device's 4 planes of it, the outermost axis of both phases' layouts); 4 pencils out.
    assert_eq!(
        count(&|s| matches!(s, Step::Transfer { .. })),
        4 + 4 * 2 * 4 + 4 * 2 * 4 + 4,
        "{s}"
    );
    // A wait before each part; each device's stream waits for its copy stream's last part,
    // twice; before the second exchange each copy stream waits for the other devices' copy
    // streams of the first (the last phase reuses the buffer the first exchange read).
    assert_eq!(
        count(&|s| matches!(s, Step::Wait { .. })),
        (32 + 32) + 2 * 4 + 4 * 3,
        "{s}"
    );
    // The first and middle phases' FFTs in 4 chunks each, the last's whole.
    assert_eq!(
        count(&|s| matches!(s, Step::Fft { .. })),
        4 * (4 + 4 + 1),
        "{s}"
    );
    // Each part leaves its device after that device recorded the chunk's event.
    let device = |b: usize| match p.buffers[b].placement {
        Placement::Device(d) => Some(d),
        _ => None,
    };
    let mut recorded = std::collections::HashMap::new();
    let mut waited = Vec::new();
    for step in &p.steps {
        match step {
            Step::Record { event, stream } => {
                recorded.insert(*event, *stream);
            }
            Step::Wait { event, stream } if *stream >= 4 => waited.push(*event),
            Step::Transfer { from, stream, .. } if *stream >= 4 => {
                let event = waited.pop().expect("a wait before each part");
                assert_eq!(device(from.buf), Some(recorded[&event]), "{s}");
            }
            _ => {}
        }
    }
    // Two pencil buffers per device, each a quarter of the problem.
    for d in 0..4 {
        assert_eq!(p.device_scalars(d), 2 * 2 * 8 * 8 * 4 / 4, "{s}");
    }
    let two = Case::new(&[8, 8], 0).problem(Precision::F64);
    assert!(distribute::pencils(&two, &[0, 1]).is_err());
}
