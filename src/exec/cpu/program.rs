//! Runs any [`Program`] on the host: steps one after another (a valid order by the program's
//! contract), device and pinned buffers as host memory, transfers as strided copies, FFT steps
//! through [`CpuTransform`], twiddles by their definition, kernels through `kernel`. So CI runs
//! every out-of-card and multi-buffer schedule the CUDA executor runs, and the two can be
//! compared on the device. FFTX plans keep a [`Workspace`] (their temporaries and kernel work
//! buffers) from one run to the next.

use super::kernel::{CpuKernel, WorkBuffers};
use super::layout::ArrayPtr;
use super::CpuTransform;
use crate::problem::IoDim;
use crate::program::{box_offsets, for_each_in_box, At, Axis, FmmStep, Program, Role, Step};
use crate::real::Real;
use num_complex::Complex;
use std::f64::consts::PI;

/// A program made ready: its FFT steps planned.
pub struct CpuProgram<T: Real> {
    program: Program,
    /// Per step: the transform of an `Fft` or `Transform` step.
    transforms: Vec<Option<CpuTransform<T>>>,
    /// Per step: a `Kernel` step made ready.
    kernels: Vec<Option<CpuKernel<T>>>,
    /// Per step: the operator table of an `Fmm` step.
    fmm_tables: Vec<Vec<f64>>,
}

/// What one run writes besides the caller's arrays: the temporaries, the kernels' work buffers.
pub struct Workspace<T> {
    temps: Vec<Vec<T>>,
    work: Vec<Option<WorkBuffers<T>>>,
}

/// Where a buffer's real and imaginary parts start (bytes addresses; scalars of `T` apart).
#[derive(Clone, Copy)]
pub(crate) struct Base {
    pub re: usize,
    pub im: usize,
}

impl Base {
    /// A caller's array of reals of `unit` bytes (a real array's "imaginary part" is the next
    /// scalar: boxes of real elements never read it).
    pub fn of(a: ArrayPtr, unit: usize) -> Base {
        match a {
            ArrayPtr::Real(p) => Base {
                re: p,
                im: p + unit,
            },
            ArrayPtr::Complex { re, im } => Base { re, im },
        }
    }
}

impl<T: Real> CpuProgram<T> {
    pub fn new(program: &Program, threads: usize) -> crate::error::Result<Self> {
        program.validate()?;
        let transforms = program
            .steps
            .iter()
            .map(|s| match s {
                Step::Fft { problem, .. } | Step::Transform { problem, .. } => {
                    Some(CpuTransform::new(problem, threads))
                }
                _ => None,
            })
            .collect();
        let kernels = program
            .steps
            .iter()
            .map(|s| match s {
                Step::Kernel { kernel, .. } => CpuKernel::new(kernel, threads).map(Some),
                _ => Ok(None),
            })
            .collect::<crate::error::Result<_>>()?;
        let fmm_tables = program
            .steps
            .iter()
            .map(|s| match s {
                Step::Fmm(f) => super::fmm::table(f),
                _ => Vec::new(),
            })
            .collect();
        Ok(CpuProgram {
            program: program.clone(),
            transforms,
            kernels,
            fmm_tables,
        })
    }

    /// The program's temporaries (zero) and kernel work buffers.
    pub fn workspace(&self) -> crate::error::Result<Workspace<T>> {
        let mut temps: Vec<Vec<T>> = Vec::new();
        for b in &self.program.buffers {
            if let Role::Temp { scalars } | Role::ZeroTemp { scalars } = b.role {
                let mut v = Vec::new();
                v.try_reserve_exact(scalars).map_err(|_| {
                    crate::error::Error::out_of_host_memory(format!(
                        "no memory for a temporary of {scalars} scalars"
                    ))
                })?;
                v.resize(scalars, T::zero());
                temps.push(v);
            }
        }
        let work = self
            .kernels
            .iter()
            .map(|k| k.as_ref().map(|k| k.work_buffers()).transpose())
            .collect::<crate::error::Result<_>>()?;
        Ok(Workspace { temps, work })
    }

    /// Runs the program on the caller's arrays (complex ones, interleaved or split).
    ///
    /// # Safety
    /// The arrays must hold every element the program's steps address in them.
    pub unsafe fn run(&self, input: ArrayPtr, output: ArrayPtr) -> crate::error::Result<()> {
        self.run_in(input, output, &mut self.workspace()?)
    }

    /// [`CpuProgram::run`] in a workspace kept from earlier runs (its `ZeroTemp`s are zeroed).
    ///
    /// # Safety
    /// As [`CpuProgram::run`]; `w` must be this program's.
    pub unsafe fn run_in(
        &self,
        input: ArrayPtr,
        output: ArrayPtr,
        w: &mut Workspace<T>,
    ) -> crate::error::Result<()> {
        let bases = self.bases(input, output, &mut w.temps);
        let addrs: Vec<usize> = bases.iter().map(|b| b.re).collect();
        let steps = self.program.steps.iter().zip(&self.transforms);
        for (k, (step, transform)) in steps.enumerate() {
            match step {
                Step::Transform { .. } => {
                    transform
                        .as_ref()
                        .expect("planned")
                        .execute(input, output)?;
                }
                Step::Fft {
                    problem,
                    input: i,
                    output: o,
                    ..
                } => {
                    let ptr = |a: &At, complex: bool| match complex_at::<T>(bases[a.buf], a.offset)
                    {
                        ArrayPtr::Complex { re, .. } if !complex => ArrayPtr::Real(re),
                        c => c,
                    };
                    let (ci, co) = (
                        problem.kind.input_is_complex(),
                        problem.kind.output_is_complex(),
                    );
                    transform
                        .as_ref()
                        .expect("planned")
                        .execute(ptr(i, ci), ptr(o, co))?;
                }
                Step::Transfer {
                    from,
                    to,
                    dims,
                    complex,
                    ..
                } => host_transfer::<T>(
                    (bases[from.buf], from.offset),
                    (bases[to.buf], to.offset),
                    dims,
                    *complex,
                ),
                Step::Twiddle {
                    at,
                    rows,
                    cols,
                    first_col,
                    rest,
                    n,
                    sign,
                    ..
                } => twiddle::<T>(
                    bases[at.buf],
                    at.offset,
                    *rows,
                    *cols,
                    *first_col,
                    rest,
                    *n,
                    *sign,
                ),
                Step::Record { .. } | Step::Wait { .. } => {}
                Step::Kernel { .. } => {
                    let kernel = self.kernels[k].as_ref().expect("made ready");
                    kernel.run(&addrs, w.work[k].as_mut().expect("one per kernel"));
                }
                Step::Collective { parts, .. } => {
                    for p in parts {
                        let (f, t) = (&p.from, &p.to);
                        host_transfer::<T>(
                            (bases[f.buf], f.offset),
                            (bases[t.buf], t.offset),
                            &p.dims,
                            true,
                        );
                    }
                }
                Step::Fmm(f) => self.fmm(f, &self.fmm_tables[k], &bases),
            }
        }
        Ok(())
    }

    /// Where each buffer's elements are for one run: the caller's arrays, the workspace's
    /// temporaries (its `ZeroTemp`s zeroed first), the FFTX arrays at their addresses.
    fn bases(&self, input: ArrayPtr, output: ArrayPtr, temps: &mut [Vec<T>]) -> Vec<Base> {
        let unit = std::mem::size_of::<T>();
        let temp_roles = self.program.buffers.iter().filter_map(|b| match b.role {
            Role::Temp { .. } => Some(false),
            Role::ZeroTemp { .. } => Some(true),
            _ => None,
        });
        for (v, zero) in temps.iter_mut().zip(temp_roles) {
            if zero {
                v.fill(T::zero());
            }
        }
        let caller = |a: ArrayPtr| Base::of(a, unit);
        let at = |p: usize| Base {
            re: p,
            im: p + unit,
        };
        let mut next_temp = temps.iter_mut();
        let buffers = self.program.buffers.iter();
        buffers
            .map(|b| match b.role {
                Role::Input => caller(input),
                Role::Output => caller(output),
                Role::Temp { .. } | Role::ZeroTemp { .. } => {
                    at(next_temp.next().expect("one per temp").as_mut_ptr() as usize)
                }
                Role::Array { addr } => at(addr),
            })
            .collect()
    }

    /// An FMM stage on its two temporaries (distinct, the extents within them: `validate`).
    ///
    /// # Safety
    /// `bases` are the program's buffers.
    unsafe fn fmm(&self, f: &FmmStep, table: &[f64], bases: &[Base]) {
        let ((sl, sh), (dl, dh)) = f.extents();
        let at = |a: &At, lo: isize| (bases[a.buf].re as *mut T).offset(a.offset + lo);
        let src = std::slice::from_raw_parts(at(&f.src, sl), (sh - sl) as usize);
        let dst = std::slice::from_raw_parts_mut(at(&f.dst, dl), (dh - dl) as usize);
        super::fmm::apply(f, table, src, dst);
    }
}

fn complex_at<T>(b: Base, offset: isize) -> ArrayPtr {
    let unit = std::mem::size_of::<T>() as isize;
    ArrayPtr::Complex {
        re: (b.re as isize + offset * unit) as usize,
        im: (b.im as isize + offset * unit) as usize,
    }
}

/// A transfer between host memory (device buffers too, on the CPU; the CUDA executor's
/// gathers and scatters through its pinned staging).
///
/// Between two buffers, a box whose last axis is contiguous on both sides (interleaved complex
/// elements count as pairs of scalars) copies runs with `memcpy`, and a large box is split among
/// the threads by runs, or by pieces of runs where it has fewer runs than threads (one
/// contiguous block is one run): the out-of-card Programs move their whole data through here
/// twice a round (element by element on one thread, c2c f32 2^28 with a 1 GiB budget took
/// 9.5 s on the H100 box).
///
/// # Safety
/// Both boxes must lie in their buffers.
pub(crate) unsafe fn host_transfer<T: Real>(
    from: (Base, isize),
    to: (Base, isize),
    dims: &[IoDim],
    complex: bool,
) {
    let threads = crate::exec::parallel::cores();
    host_transfer_on::<T>(from, to, dims, complex, threads, Stores::Cached)
}

/// How a host copy writes its destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stores {
    /// Through the cache: the destination is read soon (the CPU executor's next step).
    Cached,
    /// Past the cache (non-temporal stores) in runs of [`STREAMED_RUN_BYTES`] or more: for a
    /// destination nothing on this core reads next (a staging block the DMA reads, the caller's
    /// array after a copy out). A cached store first reads the line it writes, so this saves a
    /// third of the copy's memory traffic, which the DMA of the same run shares.
    Streaming,
}

/// The shortest run that [`Stores::Streaming`] writes past the cache.
const STREAMED_RUN_BYTES: usize = 64 << 10;

/// Copies `bytes` from `src` to `dst` (apart), as `stores` says.
///
/// # Safety
/// Both ranges are valid and do not overlap.
unsafe fn copy_run(src: *const u8, dst: *mut u8, bytes: usize, stores: Stores) {
    #[cfg(target_arch = "x86_64")]
    if stores == Stores::Streaming && bytes >= STREAMED_RUN_BYTES {
        use std::arch::x86_64::*;
        // SSE2 is part of x86_64: 16-byte stores from the first aligned destination byte.
        let head = (16 - (dst as usize & 15)) & 15;
        std::ptr::copy_nonoverlapping(src, dst, head);
        let mut i = head;
        while i + 64 <= bytes {
            let lanes = [0, 16, 32, 48].map(|k| _mm_loadu_si128(src.add(i + k) as *const __m128i));
            for (k, v) in [0, 16, 32, 48].into_iter().zip(lanes) {
                _mm_stream_si128(dst.add(i + k) as *mut __m128i, v);
            }
            i += 64;
        }
        std::ptr::copy_nonoverlapping(src.add(i), dst.add(i), bytes - i);
        // The streamed stores are visible to other cores (and to the DMA the run queues after
        // this copy's job is done) once fenced.
        _mm_sfence();
        return;
    }
    let _ = stores;
    std::ptr::copy_nonoverlapping(src, dst, bytes);
}

/// [`host_transfer`] on at most `threads` threads (1: on the calling thread alone, as the CUDA
/// executor's copy threads do, each moving its own part of a block), writing as `stores` says.
///
/// # Safety
/// As [`host_transfer`].
pub(crate) unsafe fn host_transfer_on<T: Real>(
    from: (Base, isize),
    to: (Base, isize),
    dims: &[IoDim],
    complex: bool,
    threads: usize,
    stores: Stores,
) {
    let unit = std::mem::size_of::<T>();
    let interleaved = |b: Base| b.im == b.re + unit;
    let step = 1 + complex as isize;
    let run = match dims.split_last() {
        Some((d, _))
            if d.is == step
                && d.os == step
                && (!complex || interleaved(from.0) && interleaved(to.0)) =>
        {
            d.n as usize * step as usize
        }
        _ => 0,
    };
    let elements: usize = dims.iter().map(|d| d.n as usize).product();
    if from.0.re == to.0.re || run < 2 || elements < 1 << 15 {
        let p = |a: usize| a as *mut T;
        let (fre, fim, tre, tim) = (p(from.0.re), p(from.0.im), p(to.0.re), p(to.0.im));
        for_each_in_box(dims, from.1, to.1, &mut |i, o| {
            *tre.offset(o) = *fre.offset(i);
            if complex {
                *tim.offset(o) = *fim.offset(i);
            }
        });
        return;
    }
    let outer = &dims[..dims.len() - 1];
    let (src, dst) = (from.0.re, to.0.re);
    // Jobs are pieces of runs: a run split in `pieces` where there are fewer runs than
    // threads (a contiguous box is one run), each piece at least `MIN_PIECE` scalars.
    const MIN_PIECE: usize = 1 << 16;
    let rows: usize = outer.iter().map(|d| d.n as usize).product();
    let pieces = if rows >= threads {
        1
    } else {
        threads.div_ceil(rows).min(run.div_ceil(MIN_PIECE)).max(1)
    };
    let piece = run.div_ceil(pieces);
    let copy_pieces = |jobs: std::ops::Range<usize>| {
        for job in jobs {
            let (row, k) = (job / pieces, job % pieces);
            let (i, o) = box_offsets(outer, row);
            let first = k * piece;
            let len = piece.min(run.saturating_sub(first));
            let (i, o) = (from.1 + i + first as isize, to.1 + o + first as isize);
            // SAFETY: both runs lie in their (different) buffers, as the caller promises.
            unsafe {
                copy_run(
                    (src as *const T).offset(i) as *const u8,
                    (dst as *mut T).offset(o) as *mut u8,
                    len * unit,
                    stores,
                )
            };
        }
    };
    crate::exec::parallel::parallel_for(threads, rows * pieces, &copy_pieces);
}

/// exp(sign · 2πi · m / n) for m in 0..n, in f64 (then rounded to T once).
fn root(sign: i32, m: usize, n: usize) -> Complex<f64> {
    let a = sign as f64 * 2.0 * PI * m as f64 / n as f64;
    Complex::new(a.cos(), a.sin())
}

/// # Safety
/// The box must lie in the buffer.
#[allow(clippy::too_many_arguments)]
unsafe fn twiddle<T: Real>(
    b: Base,
    offset: isize,
    rows: Axis,
    cols: Axis,
    first_col: usize,
    rest: &[Axis],
    n: usize,
    sign: i32,
) {
    let (re, im) = (b.re as *mut T, b.im as *mut T);
    let dims: Vec<IoDim> = rest
        .iter()
        .map(|a| IoDim::new(a.n as isize, a.stride, 0))
        .collect();
    for k in 0..rows.n {
        for j in 0..cols.n {
            // k·(first_col + j) mod n keeps the angle exact however large the indices.
            let m = ((k as u128 * (first_col + j) as u128) % n as u128) as usize;
            let w = root(sign, m, n);
            let (wr, wi) = (T::cast(w.re), T::cast(w.im));
            let at = offset + k as isize * rows.stride + j as isize * cols.stride;
            for_each_in_box(&dims, at, 0, &mut |o, _| {
                let (x, y) = (*re.offset(o), *im.offset(o));
                *re.offset(o) = x * wr - y * wi;
                *im.offset(o) = x * wi + y * wr;
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The element-by-element meaning of a transfer, the reference for the fast paths.
    fn reference(
        src: &[f64],
        dst: &mut [f64],
        from: (usize, usize),
        to: (usize, usize),
        dims: &[IoDim],
        complex: bool,
    ) {
        for_each_in_box(dims, 0, 0, &mut |i, o| {
            dst[(to.0 as isize + o) as usize] = src[(from.0 as isize + i) as usize];
            if complex {
                dst[(to.1 as isize + o) as usize] = src[(from.1 as isize + i) as usize];
            }
        });
    }

    /// Runs (memcpy, threads) agree with the element loop: real, interleaved and split complex
    /// boxes, large enough for the fast path, with a strided outer axis (a four-step tile of
    /// columns) and a 3-D box.
    #[test]
    fn transfers_by_runs_and_threads_match_the_element_loop() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        // (dims as (n, is, os) in scalars, complex, interleaved)
        let cases: Vec<(Vec<IoDim>, bool, bool)> = vec![
            (
                vec![IoDim::new(256, 2 * 1024, 2 * 300), IoDim::new(300, 2, 2)],
                true,
                true,
            ),
            (
                vec![IoDim::new(256, 1024, 300), IoDim::new(300, 1, 1)],
                false,
                false,
            ),
            (
                vec![IoDim::new(256, 1024, 300), IoDim::new(300, 1, 1)],
                true,
                false,
            ),
            (
                vec![
                    IoDim::new(7, 2 * 64 * 90, 2 * 60 * 80),
                    IoDim::new(60, 2 * 90, 2 * 80),
                    IoDim::new(80, 2, 2),
                ],
                true,
                true,
            ),
            (vec![IoDim::new(40000, 2, 2)], true, true),
            // Fewer runs than threads: runs split in pieces (of unequal lengths).
            (vec![IoDim::new(150001, 1, 1)], false, false),
            (
                vec![IoDim::new(2, 2 * 70005, 2 * 70000), IoDim::new(70000, 2, 2)],
                true,
                true,
            ),
        ];
        for (dims, complex, interleaved) in cases {
            let extent = |f: fn(&IoDim) -> isize| {
                dims.iter().map(|d| (d.n - 1) * f(d)).sum::<isize>() as usize + 2
            };
            let (ni, no) = (extent(|d| d.is), extent(|d| d.os));
            // Split complex arrays: the imaginary parts a whole array further on.
            let (fi, ti) = if interleaved { (1, 1) } else { (ni, no) };
            let src: Vec<f64> = (0..2 * ni).map(|_| rng.gen_range(-1.0..1.0)).collect();
            let mut want = vec![0.0; 2 * no];
            let mut got = vec![0.0; 2 * no];
            reference(&src, &mut want, (0, fi), (0, ti), &dims, complex);
            let base = |p: usize, im: usize| Base {
                re: p,
                im: p + im * 8,
            };
            for (threads, stores) in [
                (crate::exec::parallel::cores(), Stores::Cached),
                (1, Stores::Streaming),
                (3, Stores::Streaming),
            ] {
                got.fill(0.0);
                let (from, to) = (src.as_ptr() as usize, got.as_mut_ptr() as usize);
                let (from, to) = ((base(from, fi), 0), (base(to, ti), 0));
                // SAFETY: the boxes lie in the vectors (extents computed above).
                unsafe { host_transfer_on::<f64>(from, to, &dims, complex, threads, stores) };
                assert_eq!(
                    got, want,
                    "{dims:?} complex {complex} interleaved {interleaved} {threads} threads {stores:?}"
                );
            }
        }
    }

    /// Streamed runs copy exactly their bytes whatever the alignment of either side and the
    /// length (a head before the first 16-byte-aligned destination byte, 64-byte steps, a tail).
    #[test]
    fn streamed_runs_copy_their_bytes_alone() {
        let src: Vec<u8> = (0..(200usize << 10))
            .map(|i| (i * 7 + i / 251) as u8)
            .collect();
        for (s, d, len) in [
            (0, 0, 64 << 10),
            (3, 5, (64 << 10) + 37),
            (16, 1, 150_001),
            (7, 0, 70_000),
        ] {
            let mut dst = vec![0xa5u8; len + d + 9];
            // SAFETY: both ranges lie in their vectors.
            unsafe {
                copy_run(
                    src.as_ptr().add(s),
                    dst.as_mut_ptr().add(d),
                    len,
                    Stores::Streaming,
                )
            };
            assert_eq!(
                &dst[d..d + len],
                &src[s..s + len],
                "from {s} to {d}, {len} bytes"
            );
            assert!(dst[..d].iter().chain(&dst[d + len..]).all(|&b| b == 0xa5));
        }
    }
}
