//! A transform problem in FFTW's guru form: what to compute, independent of how.
//!
//! Every FFTW entry point (basic, advanced, guru, guru64, split) normalizes to a [`Problem`].
//! Arrays are described as FFTW does internally: a real array is one pointer; a complex array is a
//! pair of pointers (real parts, imaginary parts) with strides counted in real scalars, so that
//! interleaved `fftw_complex` arrays (`im = re + 1`, strides doubled) and split arrays are one case.

use std::fmt;

/// One dimension: length and the input/output strides, in real scalars of the array it indexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IoDim {
    pub n: isize,
    pub is: isize,
    pub os: isize,
}

impl IoDim {
    pub fn new(n: isize, is: isize, os: isize) -> Self {
        IoDim { n, is, os }
    }
}

/// FFTW's eleven real-to-real kinds, with FFTW's enum values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum R2rKind {
    R2hc = 0,
    Hc2r = 1,
    Dht = 2,
    Redft00 = 3,
    Redft01 = 4,
    Redft10 = 5,
    Redft11 = 6,
    Rodft00 = 7,
    Rodft01 = 8,
    Rodft10 = 9,
    Rodft11 = 10,
}

impl R2rKind {
    pub const ALL: [R2rKind; 11] = [
        R2rKind::R2hc,
        R2rKind::Hc2r,
        R2rKind::Dht,
        R2rKind::Redft00,
        R2rKind::Redft01,
        R2rKind::Redft10,
        R2rKind::Redft11,
        R2rKind::Rodft00,
        R2rKind::Rodft01,
        R2rKind::Rodft10,
        R2rKind::Rodft11,
    ];

    pub fn from_c(k: i32) -> Option<R2rKind> {
        R2rKind::ALL.get(usize::try_from(k).ok()?).copied()
    }

    pub fn name(self) -> &'static str {
        match self {
            R2rKind::R2hc => "r2hc",
            R2rKind::Hc2r => "hc2r",
            R2rKind::Dht => "dht",
            R2rKind::Redft00 => "redft00",
            R2rKind::Redft01 => "redft01",
            R2rKind::Redft10 => "redft10",
            R2rKind::Redft11 => "redft11",
            R2rKind::Rodft00 => "rodft00",
            R2rKind::Rodft01 => "rodft01",
            R2rKind::Rodft10 => "rodft10",
            R2rKind::Rodft11 => "rodft11",
        }
    }

    /// FFTW's logical transform size N for a dimension of length n (FFTW manual §4.8.3); used for
    /// flop counts and by callers that normalize.
    pub fn logical_size(self, n: isize) -> isize {
        match self {
            R2rKind::R2hc | R2rKind::Hc2r | R2rKind::Dht => n,
            R2rKind::Redft00 => 2 * (n - 1),
            R2rKind::Rodft00 => 2 * (n + 1),
            _ => 2 * n,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Complex to complex, `sign` = FFTW_FORWARD (-1) or FFTW_BACKWARD (+1).
    Dft { sign: i32 },
    /// Real input, complex half-spectrum output (last dimension n/2+1).
    R2c,
    /// Complex half-spectrum input, real output; the dims' `n` are the logical (real) sizes.
    C2r,
    /// Real to real, one kind per transform dimension.
    R2r(Vec<R2rKind>),
}

impl Kind {
    /// Short name: dft-forward, dft-backward, dft-r2c, dft-c2r, r2r-<kind>-<kind>...
    pub fn name(&self) -> String {
        match self {
            Kind::Dft { sign } => format!("dft-{}", if *sign < 0 { "forward" } else { "backward" }),
            Kind::R2c => "dft-r2c".into(),
            Kind::C2r => "dft-c2r".into(),
            Kind::R2r(kinds) => format!(
                "r2r-{}",
                kinds.iter().map(|k| k.name()).collect::<Vec<_>>().join("-")
            ),
        }
    }

    pub fn input_is_complex(&self) -> bool {
        matches!(self, Kind::Dft { .. } | Kind::C2r)
    }
    pub fn output_is_complex(&self) -> bool {
        matches!(self, Kind::Dft { .. } | Kind::R2c)
    }

    /// The exponent sign of the DFTs this transform is made of (-1 forward): the dft's own sign,
    /// -1 for r2c, +1 for c2r; None for r2r (each of its kinds has its own).
    pub fn sign(&self) -> Option<i32> {
        match self {
            Kind::Dft { sign } => Some(*sign),
            Kind::R2c => Some(-1),
            Kind::C2r => Some(1),
            Kind::R2r(_) => None,
        }
    }

    /// The 1-D transform along one axis when this transform is done one axis at a time: the
    /// real-data transform of r2c and c2r is along the last axis (`last`), every other axis is a
    /// complex DFT of the same sign. None for r2r.
    pub fn along_axis(&self, last: bool) -> Option<Kind1d> {
        Some(match self {
            Kind::R2c if last => Kind1d::R2c,
            Kind::C2r if last => Kind1d::C2r,
            _ => Kind1d::Dft { sign: self.sign()? },
        })
    }
}

/// A 1-D complex-data transform: what one batched pass of a multi-dimensional DFT computes (the
/// FFTX pencil passes, each cuFFT plan). The 1-D, r2r-free counterpart of [`Kind`], with the same
/// variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind1d {
    /// Complex to complex, `sign` = -1 (forward) or +1 (backward).
    Dft { sign: i32 },
    /// `n` reals to `n/2 + 1` complex (sign -1).
    R2c,
    /// `n/2 + 1` complex (Hermitian half) to `n` reals (sign +1).
    C2r,
}

impl Kind1d {
    /// The exponent sign: the dft's own, -1 for r2c, +1 for c2r.
    pub fn sign(self) -> i32 {
        match self {
            Kind1d::Dft { sign } => sign,
            Kind1d::R2c => -1,
            Kind1d::C2r => 1,
        }
    }
    /// Elements read per transform of logical size `n`.
    pub fn len_in(self, n: usize) -> usize {
        if self == Kind1d::C2r {
            n / 2 + 1
        } else {
            n
        }
    }
    /// Elements written per transform of logical size `n`.
    pub fn len_out(self, n: usize) -> usize {
        if self == Kind1d::R2c {
            n / 2 + 1
        } else {
            n
        }
    }
    pub fn real_in(self) -> bool {
        self == Kind1d::R2c
    }
    pub fn real_out(self) -> bool {
        self == Kind1d::C2r
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Precision {
    F32,
    F64,
}

impl Precision {
    pub fn name(self) -> &'static str {
        match self {
            Precision::F32 => "f32",
            Precision::F64 => "f64",
        }
    }
    pub fn bytes(self) -> usize {
        match self {
            Precision::F32 => 4,
            Precision::F64 => 8,
        }
    }
}

/// What to compute: FFTW's guru problem.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Problem {
    pub kind: Kind,
    /// Transform dimensions, row-major (the last varies fastest in the logical array).
    pub dims: Vec<IoDim>,
    /// Loop ("howmany") dimensions: independent transforms.
    pub loops: Vec<IoDim>,
    pub precision: Precision,
    /// Input and output are the same memory.
    pub in_place: bool,
}

/// Why a problem is not a valid FFTW problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProblemError(pub String);

impl fmt::Display for ProblemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn err<T>(msg: impl Into<String>) -> Result<T, ProblemError> {
    Err(ProblemError(msg.into()))
}

impl Problem {
    /// An out-of-place problem on packed row-major arrays of shape `ns` (strides in real
    /// scalars: complex elements are two; r2c input and c2r output are real arrays of the
    /// logical shape, the complex side has n/2 + 1 along the last axis).
    pub fn packed(ns: &[isize], kind: Kind, precision: Precision) -> Problem {
        let last = *ns.last().expect("rank >= 1");
        let half = last / 2 + 1;
        let strides = |inner: isize, scalars: isize| {
            let mut s = scalars;
            let mut out = vec![0; ns.len()];
            for k in (0..ns.len()).rev() {
                out[k] = s;
                s *= if k + 1 == ns.len() { inner } else { ns[k] };
            }
            out
        };
        let (is, os) = match kind {
            Kind::R2c => (strides(last, 1), strides(half, 2)),
            Kind::C2r => (strides(half, 2), strides(last, 1)),
            _ => (strides(last, 2), strides(last, 2)),
        };
        Problem {
            kind,
            dims: (0..ns.len())
                .map(|k| IoDim::new(ns[k], is[k], os[k]))
                .collect(),
            loops: vec![],
            precision,
            in_place: false,
        }
    }

    /// Lengths of the transform's input array along each dim (complex half-length for c2r's last).
    pub fn input_shape(&self) -> Vec<isize> {
        self.shape(matches!(self.kind, Kind::C2r))
    }

    /// Lengths of the transform's output array along each dim (complex half-length for r2c's last).
    pub fn output_shape(&self) -> Vec<isize> {
        self.shape(matches!(self.kind, Kind::R2c))
    }

    fn shape(&self, halved_last: bool) -> Vec<isize> {
        let mut s: Vec<isize> = self.dims.iter().map(|d| d.n).collect();
        if halved_last {
            if let Some(l) = s.last_mut() {
                *l = *l / 2 + 1;
            }
        }
        s
    }

    /// Product of transform lengths (logical size of one transform).
    pub fn transform_size(&self) -> usize {
        self.dims.iter().map(|d| d.n as usize).product()
    }

    /// Number of independent transforms.
    pub fn howmany(&self) -> usize {
        self.loops.iter().map(|d| d.n as usize).product()
    }

    /// Checks what FFTW's planner checks before planning: sizes, overflow, kinds, in-place layout.
    pub fn validate(&self) -> Result<(), ProblemError> {
        for (i, d) in self.dims.iter().enumerate() {
            if d.n <= 0 {
                return err(format!(
                    "transform dimension {i} has n = {} (must be >= 1)",
                    d.n
                ));
            }
        }
        for (i, d) in self.loops.iter().enumerate() {
            if d.n < 0 {
                return err(format!(
                    "howmany dimension {i} has n = {} (must be >= 0)",
                    d.n
                ));
            }
        }
        if let Kind::R2r(kinds) = &self.kind {
            if kinds.len() != self.dims.len() {
                return err("r2r needs one kind per transform dimension");
            }
            // (No transforms at all is a valid no-op whatever the kinds, as in FFTW.)
            for (k, d) in kinds
                .iter()
                .zip(&self.dims)
                .filter(|_| self.loops.iter().all(|l| l.n != 0))
            {
                if *k == R2rKind::Redft00 && d.n < 2 {
                    return err("FFTW_REDFT00 needs n >= 2 (its logical size is 2(n-1))");
                }
            }
        }
        // Every count and every extent must fit in isize, so the executor's offset arithmetic
        // cannot overflow.
        let mut count: isize = 1;
        for d in self.dims.iter().chain(&self.loops) {
            count = count
                .checked_mul(d.n.max(1))
                .ok_or_else(|| ProblemError("total size overflows".into()))?;
        }
        let bytes = (count as i128) * 2 * self.precision.bytes() as i128;
        if bytes > isize::MAX as i128 {
            return err("total size in bytes overflows");
        }
        for d in self.dims.iter().chain(&self.loops) {
            for s in [d.is, d.os] {
                if (d.n as i128 - 1).max(0) * (s as i128).abs() * 2 > isize::MAX as i128 {
                    return err(format!("dimension n = {} with stride {} overflows", d.n, s));
                }
            }
        }
        Ok(())
    }

    /// The lowest and highest offsets, in real scalars from the array's pointer, of the elements
    /// one side (`input` or output) addresses; a complex side ends with its last imaginary part.
    pub fn extent(&self, input: bool) -> (isize, isize) {
        let (shape, complex) = if input {
            (self.input_shape(), self.kind.input_is_complex())
        } else {
            (self.output_shape(), self.kind.output_is_complex())
        };
        let stride = |d: &IoDim| if input { d.is } else { d.os };
        let dims = shape.iter().copied().zip(self.dims.iter().map(stride));
        let (mut lo, mut hi) = (0isize, 0isize);
        for (n, s) in dims.chain(self.loops.iter().map(|d| (d.n, stride(d)))) {
            let span = (n - 1).max(0) * s;
            if span < 0 {
                lo += span
            } else {
                hi += span
            }
        }
        (lo, hi + complex as isize)
    }

    /// In place, may the transforms run a batch at a time? True when every transform reads and
    /// writes the same locations as FFTW's in-place layouts do (equal strides on every loop and
    /// every transform dimension but the last of r2c/c2r, in the same units), and no two
    /// transforms' footprints overlap; otherwise a transform's output could overwrite input
    /// another batch has not read yet, and the executor reads all input first.
    pub fn batches_independent_in_place(&self) -> bool {
        let mixed = matches!(self.kind, Kind::R2c | Kind::C2r);
        let rank = self.dims.len();
        let aligned_dims = self
            .dims
            .iter()
            .enumerate()
            .all(|(i, d)| d.is == d.os || (mixed && i + 1 == rank));
        if !aligned_dims || self.loops.iter().any(|d| d.n > 1 && d.is != d.os) {
            return false;
        }
        // One transform's footprint (both sides) spans `span` reals; the loops place copies of
        // it.
        let ((ilo, ihi), (olo, ohi)) = (self.transform_extent(true), self.transform_extent(false));
        let span = ihi.max(ohi) - ilo.min(olo) + 1;
        footprints_apart(self.loops.iter().map(|d| (d.n, d.is)), span)
    }

    /// In place, may a program read and write the arrays a part at a time (a batch, a tile of
    /// loops and dimensions, a block of pencils), each part only its own locations? Where
    /// batches are apart ([`Problem::batches_independent_in_place`]) or every element stays
    /// where it is ([`Problem::elements_stay_in_place`]); otherwise all input must be read
    /// before any output is written.
    pub fn in_place_piecewise(&self) -> bool {
        self.batches_independent_in_place() || self.elements_stay_in_place()
    }

    /// In place, does every element keep its location, apart from every other's? True for c2c
    /// and r2r with equal input and output strides on every loop and dimension whose elements
    /// (complex ones two scalars wide) are distinct, even where batches interleave (a loop of
    /// stride 1 over pencils of stride n, which FFTW plans in place): a program may then move
    /// and transform any box of loops and dimensions on its own, as the CPU passes do block by
    /// block and the GPU's tiles do. (r2c and c2r rows change layout in place: see
    /// [`Problem::batches_independent_in_place`].)
    pub fn elements_stay_in_place(&self) -> bool {
        let scalars = match self.kind {
            Kind::Dft { .. } => 2,
            Kind::R2r(_) => 1,
            Kind::R2c | Kind::C2r => return false,
        };
        let all = || self.loops.iter().chain(&self.dims);
        all().all(|d| d.is == d.os) && footprints_apart(all().map(|d| (d.n, d.is)), scalars)
    }

    /// [`Problem::extent`] of one transform (the loops left out).
    fn transform_extent(&self, input: bool) -> (isize, isize) {
        Problem {
            loops: vec![],
            ..self.clone()
        }
        .extent(input)
    }

    /// The problem as text, no pointers: the wisdom key, and what the plan printout shows.
    pub fn describe(&self) -> String {
        let dims = |v: &[IoDim]| {
            v.iter()
                .map(|d| format!("{}:{}:{}", d.n, d.is, d.os))
                .collect::<Vec<_>>()
                .join(" ")
        };
        format!(
            "{} {} dims=[{}] howmany=[{}]{}",
            self.kind.name(),
            self.precision.name(),
            dims(&self.dims),
            dims(&self.loops),
            if self.in_place { " in-place" } else { "" }
        )
    }
}

/// Row-major indices, in the r2c output `[n0, .., n_last/2+1]` of logical `shape`, of the bins
/// equal to their own conjugates: index 0, or n/2 for even n, along every dimension.
pub fn self_conjugate_bins(shape: &[usize]) -> Vec<usize> {
    let mut bins = vec![0usize];
    for (d, &n) in shape.iter().enumerate() {
        let len = if d + 1 == shape.len() { n / 2 + 1 } else { n };
        let along: &[usize] = if n % 2 == 0 { &[0, n / 2] } else { &[0] };
        bins = bins
            .iter()
            .flat_map(|&b| along.iter().map(move |&i| b * len + i))
            .collect();
    }
    bins
}

/// Do the copies of a footprint `width` scalars wide, placed by `dims` (length, stride in
/// scalars), never overlap? A sufficient test, which FFTW's layouts pass: the strides,
/// smallest first, each step past everything placed inside them.
pub fn footprints_apart(dims: impl IntoIterator<Item = (isize, isize)>, width: isize) -> bool {
    let mut by_stride: Vec<(isize, isize)> = dims
        .into_iter()
        .filter(|&(n, _)| n > 1)
        .map(|(n, s)| (s.abs(), n))
        .collect();
    by_stride.sort_unstable();
    let mut width = width;
    for (stride, n) in by_stride {
        if stride < width {
            return false;
        }
        width += stride * (n - 1);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dft(dims: Vec<IoDim>, loops: Vec<IoDim>) -> Problem {
        Problem {
            kind: Kind::Dft { sign: -1 },
            dims,
            loops,
            precision: Precision::F64,
            in_place: false,
        }
    }

    #[test]
    fn rejects_bad_sizes_and_signs() {
        assert!(dft(vec![IoDim::new(0, 2, 2)], vec![]).validate().is_err());
        assert!(dft(vec![IoDim::new(4, 2, 2)], vec![IoDim::new(-1, 8, 8)])
            .validate()
            .is_err());
        assert!(dft(vec![IoDim::new(4, 2, 2)], vec![IoDim::new(0, 8, 8)])
            .validate()
            .is_ok());
    }

    #[test]
    fn rejects_overflow() {
        let big = isize::MAX / 4;
        assert!(
            dft(vec![IoDim::new(big, 2, 2), IoDim::new(big, 2, 2)], vec![])
                .validate()
                .is_err()
        );
        assert!(dft(vec![IoDim::new(3, isize::MAX / 3, 2)], vec![])
            .validate()
            .is_err());
    }

    #[test]
    fn in_place_batches_need_matching_disjoint_layouts() {
        // FFTW's padded in-place r2c: n = 6 reals in rows of 8, 4 complex out; 3 rows.
        let mut p = dft(vec![IoDim::new(6, 1, 2)], vec![IoDim::new(3, 8, 8)]);
        p.kind = Kind::R2c;
        p.in_place = true;
        assert!(p.batches_independent_in_place());
        // Rows of 7 reals: each row's 4 complex outputs (8 reals) reach into the next row.
        p.loops = vec![IoDim::new(3, 7, 7)];
        assert!(!p.batches_independent_in_place());
        // An in-place transpose: loops with different input and output strides.
        let t = dft(vec![], vec![IoDim::new(3, 2, 8), IoDim::new(4, 6, 2)]);
        assert!(!t.batches_independent_in_place());
        let mut c = dft(vec![IoDim::new(8, 2, 4)], vec![]);
        assert!(!c.batches_independent_in_place());
        c.dims[0].os = 2;
        assert!(c.batches_independent_in_place());
    }

    #[test]
    fn elements_stay_in_place_where_strides_match_and_elements_are_apart() {
        // 128-point columns of 8320 interleaved batches: apart, though batches interleave.
        let cols = dft(
            vec![IoDim::new(128, 2 * 8320, 2 * 8320)],
            vec![IoDim::new(8320, 2, 2)],
        );
        assert!(cols.elements_stay_in_place() && !cols.batches_independent_in_place());
        // Complex elements one scalar apart overlap; so do batches one element apart whose
        // pencils are longer than the batch stride.
        assert!(!dft(vec![IoDim::new(8, 1, 1)], vec![]).elements_stay_in_place());
        let overlapping = dft(vec![IoDim::new(8, 2, 2)], vec![IoDim::new(4, 4, 4)]);
        assert!(!overlapping.elements_stay_in_place());
        // Strides that differ between the sides move elements.
        let transposed = dft(vec![IoDim::new(4, 2, 8)], vec![IoDim::new(4, 8, 2)]);
        assert!(!transposed.elements_stay_in_place());
        // r2r: one scalar an element; r2c rows change layout.
        let mut r = cols.clone();
        r.kind = Kind::R2r(vec![R2rKind::Redft10]);
        r.dims = vec![IoDim::new(128, 8320, 8320)];
        r.loops = vec![IoDim::new(8320, 1, 1)];
        assert!(r.elements_stay_in_place());
        r.kind = Kind::R2c;
        assert!(!r.elements_stay_in_place());
    }

    #[test]
    fn self_conjugate_bins_of_even_and_odd_sizes() {
        assert_eq!(self_conjugate_bins(&[8]), vec![0, 4]);
        assert_eq!(self_conjugate_bins(&[7]), vec![0]);
        // [4, 6] -> output [4, 4]: rows 0 and 2, columns 0 and 3.
        assert_eq!(self_conjugate_bins(&[4, 6]), vec![0, 3, 8, 11]);
        assert_eq!(self_conjugate_bins(&[3, 5, 2]), vec![0, 1]);
        assert_eq!(self_conjugate_bins(&[]), vec![0]);
    }

    #[test]
    fn extent_counts_negative_strides_and_the_imaginary_part() {
        let p = dft(vec![IoDim::new(4, -2, 2)], vec![IoDim::new(3, 10, 10)]);
        assert_eq!(p.extent(true), (-6, 21));
        assert_eq!(p.extent(false), (0, 27));
    }

    #[test]
    fn redft00_needs_two_points() {
        let p = Problem {
            kind: Kind::R2r(vec![R2rKind::Redft00]),
            dims: vec![IoDim::new(1, 1, 1)],
            loops: vec![],
            precision: Precision::F64,
            in_place: false,
        };
        assert!(p.validate().is_err());
    }
}
