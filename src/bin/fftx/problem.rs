//! FFTW's problem syntax, as FFTW's `bench` and `fftw-wisdom` read it (libbench2/problem.c of
//! FFTW 3.3.10): `[i|o][c|r|k][f|b]<n1>[x<n2>...][*<vector> | v<vector>]`, and the rest of
//! what `problem_parse` takes.
//!
//! - prefix letters, any order, case-insensitive: `i` in place, `o` out of place (default),
//!   `d` the input may be destroyed, `/` split arrays, `f` or `-` forward (default), `b` or `+`
//!   backward, `c` complex (default), `r` real (r2c forward, c2r backward), `k` r2r, `t` the
//!   output transposed (rank >= 2), `[`/`]` MPI scrambling (parsed, not supported here);
//! - a dimension: an integer with an optional `k` (x1024) or `m` (x1024^2) suffix, optional
//!   strides `:is` or `:is:os`, then for r2r its kind: `f` R2HC (default), `b` HC2R, `h` DHT,
//!   `e00`/`e01`/`e10`/`e11` REDFT00..11, `o00`/`o01`/`o10`/`o11` RODFT00..11; dimensions
//!   are joined by `x`;
//! - `*V` an "external" vector of transforms (each transform contiguous, one after another:
//!   `4096*4096` is 4096 transforms of 4096 points), `vV` an "internal" one (the vector
//!   interleaved innermost);
//! - strides left out are FFTW's defaults ("do what I mean"): row-major, with a real
//!   problem's last dimension padded to 2(n/2+1) reals in place and n/2+1 complex values on
//!   the complex side.
//!
//! Strides are in elements of each side's array: complex values on a complex side, reals on a
//! real side, exactly as FFTW's guru interface takes them.

use std::fmt;

/// The kind of a problem (FFTW's `problem_kind_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Complex,
    /// r2c (forward) or c2r (backward).
    Real,
    R2r,
}

/// FFTW's r2r kinds, with FFTW's numbering (`FFTW_R2HC` = 0 ... `FFTW_RODFT11` = 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// One dimension: length and strides (FFTW's `iodim`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dim {
    pub n: i64,
    pub is: i64,
    pub os: i64,
}

impl Dim {
    pub const fn new(n: i64, is: i64, os: i64) -> Dim {
        Dim { n, is, os }
    }
}

/// A parsed problem (FFTW's `bench_problem`, less its arrays).
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// The text it was parsed from.
    pub text: String,
    pub kind: Kind,
    /// -1 forward, +1 backward.
    pub sign: i32,
    pub in_place: bool,
    pub destroy_input: bool,
    pub split: bool,
    /// MPI scrambled input or output (`[`, `]`).
    pub scrambled: bool,
    /// Transform dimensions.
    pub sz: Vec<Dim>,
    /// Vector (loop) dimensions.
    pub vecsz: Vec<Dim>,
    /// r2r kinds, one per transform dimension (empty unless `kind` is R2r).
    pub kinds: Vec<R2rKind>,
}

/// Why a problem string did not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

struct Cursor<'a> {
    s: &'a [u8],
    at: usize,
    text: &'a str,
}

impl Cursor<'_> {
    fn peek(&self) -> u8 {
        self.s
            .get(self.at)
            .copied()
            .unwrap_or(0)
            .to_ascii_lowercase()
    }
    fn bump(&mut self) {
        self.at += 1;
    }
    fn error(&self, what: &str) -> ParseError {
        ParseError(format!(
            "problem \"{}\": {what} at position {} (\"{}\")",
            self.text,
            self.at + 1,
            &self.text[self.at.min(self.text.len())..]
        ))
    }

    /// FFTW's `parseint`: optional sign, digits, optional `k` then optional `m` multiplier.
    fn int(&mut self) -> Result<i64, ParseError> {
        let mut sign = 1;
        match self.peek() {
            b'-' => {
                sign = -1;
                self.bump();
            }
            b'+' => self.bump(),
            _ => {}
        }
        if !self.peek().is_ascii_digit() {
            return Err(self.error("a number was expected"));
        }
        let mut n: i64 = 0;
        while self.peek().is_ascii_digit() {
            n = n
                .checked_mul(10)
                .and_then(|n| n.checked_add((self.peek() - b'0') as i64))
                .ok_or_else(|| self.error("number too large"))?;
            self.bump();
        }
        n *= sign;
        if self.peek() == b'k' {
            n = n
                .checked_mul(1024)
                .ok_or_else(|| self.error("number too large"))?;
            self.bump();
        }
        if self.peek() == b'm' {
            n = n
                .checked_mul(1024 * 1024)
                .ok_or_else(|| self.error("number too large"))?;
            self.bump();
        }
        Ok(n)
    }

    /// FFTW's `parsetensor`: dimensions joined by `x`, each with optional strides and kind.
    fn tensor(&mut self) -> Result<(Vec<Dim>, Vec<R2rKind>), ParseError> {
        let mut dims = Vec::new();
        let mut kinds = Vec::new();
        loop {
            let n = self.int()?;
            let (mut is, mut os) = (0, 0);
            if self.peek() == b':' {
                self.bump();
                is = self.int()?;
                os = is;
                if self.peek() == b':' {
                    self.bump();
                    os = self.int()?;
                }
            }
            let kind = match self.peek() {
                b'f' => {
                    self.bump();
                    R2rKind::R2hc
                }
                b'b' => {
                    self.bump();
                    R2rKind::Hc2r
                }
                b'h' => {
                    self.bump();
                    R2rKind::Dht
                }
                c @ (b'e' | b'o') => {
                    self.bump();
                    let ab = self.int()?;
                    use R2rKind::*;
                    match (c, ab) {
                        (b'e', 0) => Redft00,
                        (b'e', 1) => Redft01,
                        (b'e', 10) => Redft10,
                        (b'e', 11) => Redft11,
                        (b'o', 0) => Rodft00,
                        (b'o', 1) => Rodft01,
                        (b'o', 10) => Rodft10,
                        (b'o', 11) => Rodft11,
                        _ => {
                            return Err(self.error(&format!(
                                "unknown r2r kind {}{ab:02} (00, 01, 10 or 11)",
                                c as char
                            )))
                        }
                    }
                }
                _ => R2rKind::R2hc,
            };
            dims.push(Dim::new(n, is, os));
            kinds.push(kind);
            if self.peek() == b'x' {
                self.bump();
                continue;
            }
            return Ok((dims, kinds));
        }
    }
}

/// How the last transform dimension of a real problem is stored (FFTW's `n_transform`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Nt {
    Same,
    Padded,
    Halfish,
}

fn transform_n(n: i64, nt: Nt) -> i64 {
    match nt {
        Nt::Same => n,
        Nt::Padded => 2 * (n / 2 + 1),
        Nt::Halfish => n / 2 + 1,
    }
}

/// The dimension the previous `dwim` ended on: FFTW's `last_iodim`, and whether it is the
/// transform's last dimension (`sz_last_iodim`, where the real padding applies).
#[derive(Clone, Copy)]
struct Last {
    d: Dim,
    is_sz_last: bool,
}

/// FFTW's `dwim`: fills strides left at 0, from the innermost dimension outwards, continuing
/// from `last`; returns the new `last` (the outermost dimension of `t`).
fn dwim(t: &mut [Dim], last: Last, nti: Nt, nto: Nt, t_holds_sz_last: bool) -> Last {
    if t.is_empty() {
        return last;
    }
    let mut d1 = last;
    for i in (0..t.len()).rev() {
        let (ni, no) = if d1.is_sz_last {
            (nti, nto)
        } else {
            (Nt::Same, Nt::Same)
        };
        if t[i].is == 0 {
            t[i].is = d1.d.is * transform_n(d1.d.n, ni);
        }
        if t[i].os == 0 {
            t[i].os = d1.d.os * transform_n(d1.d.n, no);
        }
        d1 = Last {
            d: t[i],
            is_sz_last: t_holds_sz_last && i == t.len() - 1,
        };
    }
    d1
}

fn transpose(t: &mut [Dim]) {
    if t.len() >= 2 {
        t[0].os = t[1].os;
        t[1].os = t[0].os * t[0].n;
    }
}

/// Parses one problem as FFTW's `problem_parse` does.
pub fn parse(text: &str) -> Result<Problem, ParseError> {
    let mut c = Cursor {
        s: text.as_bytes(),
        at: 0,
        text,
    };
    let mut p = Problem {
        text: text.to_string(),
        kind: Kind::Complex,
        sign: -1,
        in_place: false,
        destroy_input: false,
        split: false,
        scrambled: false,
        sz: Vec::new(),
        vecsz: Vec::new(),
        kinds: Vec::new(),
    };
    let mut transposed = false;
    loop {
        match c.peek() {
            b'i' => p.in_place = true,
            b'o' => p.in_place = false,
            b'd' => p.destroy_input = true,
            b'/' => p.split = true,
            b'f' | b'-' => p.sign = -1,
            b'b' | b'+' => p.sign = 1,
            b'r' => p.kind = Kind::Real,
            b'c' => p.kind = Kind::Complex,
            b'k' => p.kind = Kind::R2r,
            b't' => transposed = true,
            b'[' | b']' => p.scrambled = true,
            _ => break,
        }
        c.bump();
    }
    let (mut sz, kinds) = c.tensor()?;
    let (mut nti, mut nto) = (Nt::Same, Nt::Same);
    if p.kind == Kind::Real {
        let padded = if p.in_place { Nt::Padded } else { Nt::Same };
        if p.sign < 0 {
            (nti, nto) = (padded, Nt::Halfish);
        } else {
            (nti, nto) = (Nt::Halfish, padded);
        }
    }
    let start = Last {
        d: Dim::new(1, 1, 1),
        is_sz_last: false,
    };
    let mut vecsz = Vec::new();
    match c.peek() {
        b'*' => {
            c.bump();
            let last = dwim(&mut sz, start, nti, nto, true);
            vecsz = c.tensor()?.0;
            dwim(&mut vecsz, last, nti, nto, false);
        }
        b'v' => {
            c.bump();
            vecsz = c.tensor()?.0;
            let last = dwim(&mut vecsz, start, nti, nto, false);
            dwim(&mut sz, last, nti, nto, true);
        }
        _ => {
            dwim(&mut sz, start, nti, nto, true);
        }
    }
    if c.at != c.s.len() {
        return Err(c.error("unexpected characters"));
    }
    if transposed {
        transpose(&mut sz);
        transpose(&mut vecsz);
    }
    if p.kind == Kind::R2r {
        p.kinds = kinds;
    }
    p.sz = sz;
    p.vecsz = vecsz;
    Ok(p)
}

/// FFTW's bounds of a tensor on one side: (lowest, one past the highest) element offset.
pub fn bounds(dims: &[Dim], input: bool) -> (i64, i64) {
    let (mut lb, mut ub) = (0i64, 1i64);
    for d in dims {
        let s = if input { d.is } else { d.os };
        let reach = s * (d.n - 1).max(0);
        if d.n <= 0 {
            return (0, 0);
        }
        if s >= 0 {
            ub += reach;
        } else {
            lb += reach;
        }
    }
    (lb, ub)
}

impl Problem {
    /// Transform and vector dimensions, transform dimensions first.
    pub fn all_dims(&self) -> Vec<Dim> {
        self.sz.iter().chain(&self.vecsz).copied().collect()
    }

    /// Points per transform (FFTW's `tensor_sz(sz)`).
    pub fn transform_points(&self) -> i64 {
        self.sz.iter().map(|d| d.n).product()
    }

    /// Transforms (FFTW's `tensor_sz(vecsz)`).
    pub fn howmany(&self) -> i64 {
        self.vecsz.iter().map(|d| d.n).product()
    }

    /// Is this side's array complex?
    pub fn complex_side(&self, input: bool) -> bool {
        match self.kind {
            Kind::Complex => true,
            Kind::R2r => false,
            Kind::Real => (self.sign < 0) != input,
        }
    }

    /// Logical lengths of one side's dimensions (transform dims then vector dims): a real
    /// problem's complex side holds n/2+1 values along the last transform dimension.
    pub fn shape(&self, input: bool) -> Vec<i64> {
        let mut shape: Vec<i64> = self.all_dims().iter().map(|d| d.n).collect();
        if self.kind == Kind::Real && self.complex_side(input) {
            if let Some(last) = self.sz.len().checked_sub(1) {
                shape[last] = shape[last] / 2 + 1;
            }
        }
        shape
    }

    /// The same dims with this side's logical lengths.
    pub fn side_dims(&self, input: bool) -> Vec<Dim> {
        self.all_dims()
            .iter()
            .zip(self.shape(input))
            .map(|(d, n)| Dim::new(n, d.is, d.os))
            .collect()
    }

    /// Element offsets of one side, in logical (row-major) order.
    pub fn offsets(&self, input: bool) -> Vec<i64> {
        let dims = self.side_dims(input);
        let mut out = vec![0i64];
        for d in &dims {
            let s = if input { d.is } else { d.os };
            let mut next = Vec::with_capacity(out.len() * d.n.max(0) as usize);
            for &o in &out {
                for j in 0..d.n {
                    next.push(o + j * s);
                }
            }
            out = next;
        }
        out
    }
}

/// FFTW's canonical set of `fftw-wisdom -c`: powers of two and ten up to 2^20, and small 2-D
/// and 3-D sizes, each as complex and real, forward and backward, out of place and in place
/// (multi-dimensional ones in place only).
pub fn canonical() -> Vec<String> {
    const SIZES: [&str; 48] = [
        "1",
        "2",
        "4",
        "8",
        "16",
        "32",
        "64",
        "128",
        "256",
        "512",
        "1024",
        "2048",
        "4096",
        "8192",
        "16384",
        "32768",
        "65536",
        "131072",
        "262144",
        "524288",
        "1048576",
        "10",
        "100",
        "1000",
        "10000",
        "100000",
        "1000000",
        "2x2",
        "4x4",
        "8x8",
        "10x10",
        "16x16",
        "32x32",
        "64x64",
        "100x100",
        "128x128",
        "256x256",
        "512x512",
        "1000x1000",
        "1024x1024",
        "2x2x2",
        "4x4x4",
        "8x8x8",
        "10x10x10",
        "16x16x16",
        "32x32x32",
        "64x64x64",
        "100x100x100",
    ];
    const TYPES: [&str; 8] = ["cof", "cob", "cif", "cib", "rof", "rob", "rif", "rib"];
    let mut out = Vec::new();
    for s in SIZES {
        for t in TYPES {
            if !s.contains('x') || !t.contains('o') {
                out.push(format!("{t}{s}"));
            }
        }
    }
    out
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(n: i64, is: i64, os: i64) -> Dim {
        Dim::new(n, is, os)
    }

    #[test]
    fn plain_complex() {
        let p = parse("cf1024").unwrap();
        assert_eq!(p.kind, Kind::Complex);
        assert_eq!(p.sign, -1);
        assert!(!p.in_place);
        assert_eq!(p.sz, vec![d(1024, 1, 1)]);
        assert!(p.vecsz.is_empty());
        // Defaults: complex, forward, out of place.
        assert_eq!(parse("1024").unwrap().sz, p.sz);
        assert_eq!(parse("of1024").unwrap().kind, Kind::Complex);
        assert_eq!(parse("ib256").unwrap().sign, 1);
        assert!(parse("ib256").unwrap().in_place);
        assert_eq!(parse("+16").unwrap().sign, 1);
        assert_eq!(parse("-16").unwrap().sign, -1);
        assert_eq!(
            parse("CIB16").unwrap(),
            parse("cib16").unwrap().with_text("CIB16")
        );
    }

    impl Problem {
        fn with_text(mut self, t: &str) -> Problem {
            self.text = t.into();
            self
        }
    }

    #[test]
    fn multidimensional_row_major() {
        let p = parse("ib256x256").unwrap();
        assert_eq!(p.sz, vec![d(256, 256, 256), d(256, 1, 1)]);
        let p = parse("8x4x2").unwrap();
        assert_eq!(p.sz, vec![d(8, 8, 8), d(4, 2, 2), d(2, 1, 1)]);
    }

    #[test]
    fn real_padding() {
        // Out of place r2c: reals contiguous, n/2+1 complex values on the output side.
        let p = parse("rf256x256x256").unwrap();
        assert_eq!(p.kind, Kind::Real);
        assert_eq!(
            p.sz,
            vec![d(256, 256 * 256, 256 * 129), d(256, 256, 129), d(256, 1, 1)]
        );
        // In place r2c: the real rows padded to 2(n/2+1).
        let p = parse("irf8x6").unwrap();
        assert_eq!(p.sz, vec![d(8, 8, 4), d(6, 1, 1)]);
        let p = parse("irf8x7").unwrap();
        assert_eq!(p.sz, vec![d(8, 8, 4), d(7, 1, 1)]);
        // c2r: the other way round.
        let p = parse("rb8x6").unwrap();
        assert_eq!(p.sz, vec![d(8, 4, 6), d(6, 1, 1)]);
        let p = parse("irb8x6").unwrap();
        assert_eq!(p.sz, vec![d(8, 4, 8), d(6, 1, 1)]);
        assert!(p.complex_side(true) && !p.complex_side(false));
        assert_eq!(p.shape(true), vec![8, 4]);
        assert_eq!(p.shape(false), vec![8, 6]);
    }

    #[test]
    fn vectors() {
        // External: each transform contiguous, the vector outside.
        let p = parse("if4096*4096").unwrap();
        assert_eq!(p.sz, vec![d(4096, 1, 1)]);
        assert_eq!(p.vecsz, vec![d(4096, 4096, 4096)]);
        assert_eq!(p.howmany(), 4096);
        // Internal: the vector innermost.
        let p = parse("16v3").unwrap();
        assert_eq!(p.sz, vec![d(16, 3, 3)]);
        assert_eq!(p.vecsz, vec![d(3, 1, 1)]);
        // Real external vector: the next transform starts after the padded/halfish extent.
        let p = parse("rf8*5").unwrap();
        assert_eq!(p.sz, vec![d(8, 1, 1)]);
        assert_eq!(p.vecsz, vec![d(5, 8, 5)]);
        let p = parse("irf8*5").unwrap();
        assert_eq!(p.vecsz, vec![d(5, 10, 5)]);
        let p = parse("rf4x8*2x3").unwrap();
        assert_eq!(p.sz, vec![d(4, 8, 5), d(8, 1, 1)]);
        assert_eq!(p.vecsz, vec![d(2, 96, 60), d(3, 32, 20)]);
    }

    #[test]
    fn strides_and_suffixes() {
        let p = parse("16:2:3").unwrap();
        assert_eq!(p.sz, vec![d(16, 2, 3)]);
        let p = parse("16:-1").unwrap();
        assert_eq!(p.sz, vec![d(16, -1, -1)]);
        assert_eq!(parse("c1k").unwrap().sz, vec![d(1024, 1, 1)]);
        assert_eq!(parse("c2m").unwrap().sz, vec![d(2 << 20, 1, 1)]);
        assert_eq!(bounds(&parse("16:-1").unwrap().sz, true), (-15, 1));
        assert_eq!(bounds(&parse("4x8").unwrap().sz, true), (0, 32));
    }

    #[test]
    fn r2r_kinds() {
        let p = parse("ok64e10").unwrap();
        assert_eq!(p.kind, Kind::R2r);
        assert_eq!(p.kinds, vec![R2rKind::Redft10]);
        assert_eq!(p.sz, vec![d(64, 1, 1)]);
        let p = parse("k10hx12o11x6bx5fx3e00x4o01").unwrap();
        use R2rKind::*;
        assert_eq!(p.kinds, vec![Dht, Rodft11, Hc2r, R2hc, Redft00, Rodft01]);
        assert_eq!(parse("k8").unwrap().kinds, vec![R2hc]);
        assert_eq!(parse("k8e01").unwrap().kinds, vec![Redft01]);
        assert_eq!(parse("k8o00").unwrap().kinds, vec![Rodft00]);
        assert_eq!(parse("k8o10").unwrap().kinds, vec![Rodft10]);
        assert_eq!(parse("k8e11").unwrap().kinds, vec![Redft11]);
        assert!(parse("k8e2").is_err());
        // Kinds after a complex problem's dimensions are read and ignored, as FFTW does.
        assert!(parse("c8f").unwrap().kinds.is_empty());
    }

    #[test]
    fn flags_and_transpose() {
        let p = parse("d/ib12").unwrap();
        assert!(p.destroy_input && p.split && p.in_place);
        let p = parse("t4x6").unwrap();
        assert_eq!(p.sz, vec![d(4, 6, 1), d(6, 1, 4)]);
        assert!(parse("[4x4").unwrap().scrambled);
    }

    #[test]
    fn errors() {
        for bad in [
            "",
            "c",
            "cfx",
            "c16y",
            "16x",
            "16:",
            "16*",
            "k8e",
            "c99999999999999999999",
        ] {
            assert!(parse(bad).is_err(), "{bad} parsed");
        }
        let e = parse("c16y").unwrap_err().0;
        assert!(e.contains("position 4"), "{e}");
    }

    #[test]
    fn offsets_walk_the_layout() {
        let p = parse("rf4x6").unwrap();
        assert_eq!(p.offsets(true).len(), 24);
        let out = p.offsets(false);
        assert_eq!(out.len(), 16);
        assert_eq!(&out[..5], &[0, 1, 2, 3, 4]);
        let p = parse("16v3").unwrap();
        assert_eq!(&p.offsets(true)[..4], &[0, 1, 2, 3]);
        assert_eq!(p.offsets(true)[1], 1);
    }

    #[test]
    fn canonical_set() {
        let c = canonical();
        // 27 one-dimensional sizes x 8 types, 21 multi-dimensional ones x 4 in-place types.
        assert_eq!(c.len(), 27 * 8 + 21 * 4);
        assert!(c.contains(&"cof1048576".to_string()));
        assert!(c.contains(&"rib100x100x100".to_string()));
        assert!(!c.contains(&"rob100x100x100".to_string()));
        for s in &c {
            parse(s).unwrap();
        }
    }
}
