//! Wisdom: the planner's choices, keyed by problem, kept across plans and exportable as text.
//!
//! Exported text is two s-expressions. The first is FFTW 3.3.10's own wisdom, empty, headed
//! with the configuration signature of the FFTW installed on this machine (asked of it once,
//! through dlopen), so that FFTW reads a file fftx wrote without `error reading wisdom` (and
//! learns nothing from it); without an FFTW here it is left out. The second is fftx's, headed
//! `(fftw-3.3.10 fftx_wisdom` (`fftxf_wisdom` in single precision), one
//! `(choice "KEY" LEVEL THREADS COST BACKEND [FUSION])` per problem (BACKEND `cpu` or `gpu`;
//! wisdom without it means `cpu`; FUSION, for an FFTX chain on the GPU, how its loads and
//! stores run: `fused`, `callback` or `kernel`). Importing reads every s-expression of the
//! text: FFTW's own are well-formed and hold nothing fftx uses.

use crate::problem::Precision;
use crate::program::kernel::Fusion;
use crate::program::Backend;
use parking_lot::Mutex;
use std::collections::BTreeMap;

/// FFTW's planning rigor, in order: wisdom from a higher level serves a lower one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rigor {
    Estimate = 0,
    Measure = 1,
    Patient = 2,
    Exhaustive = 3,
}

impl Rigor {
    pub fn name(self) -> &'static str {
        match self {
            Rigor::Estimate => "estimate",
            Rigor::Measure => "measure",
            Rigor::Patient => "patient",
            Rigor::Exhaustive => "exhaustive",
        }
    }
    fn parse(s: &str) -> Option<Rigor> {
        [
            Rigor::Estimate,
            Rigor::Measure,
            Rigor::Patient,
            Rigor::Exhaustive,
        ]
        .into_iter()
        .find(|r| r.name() == s)
    }
}

/// What the planner chose for a problem.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    pub rigor: Rigor,
    pub threads: usize,
    /// Measured nanoseconds per execute; 0 when estimated.
    pub cost_ns: f64,
    /// Where the transform runs.
    pub backend: Backend,
    /// How an FFTX chain on the GPU runs (its key is `Chain::wisdom_key`).
    pub fusion: Option<Fusion>,
}

pub struct Wisdom {
    entries: Mutex<BTreeMap<String, Choice>>,
    precision: Precision,
}

static WISDOM_F32: Wisdom = Wisdom::new(Precision::F32);
static WISDOM_F64: Wisdom = Wisdom::new(Precision::F64);

pub fn of(p: Precision) -> &'static Wisdom {
    match p {
        Precision::F32 => &WISDOM_F32,
        Precision::F64 => &WISDOM_F64,
    }
}

impl Wisdom {
    const fn new(precision: Precision) -> Self {
        Wisdom {
            entries: Mutex::new(BTreeMap::new()),
            precision,
        }
    }

    fn tag(&self) -> &'static str {
        match self.precision {
            Precision::F32 => "fftxf_wisdom",
            Precision::F64 => "fftx_wisdom",
        }
    }

    /// The choice for `key` if it was made with at least `rigor`.
    pub fn lookup(&self, key: &str, rigor: Rigor) -> Option<Choice> {
        self.entries
            .lock()
            .get(key)
            .copied()
            .filter(|c| c.rigor >= rigor)
    }

    /// Records a choice, keeping an existing one made with more rigor.
    pub fn remember(&self, key: &str, choice: Choice) {
        let mut e = self.entries.lock();
        match e.get(key) {
            Some(old) if old.rigor > choice.rigor => {}
            _ => {
                e.insert(key.to_string(), choice);
            }
        }
    }

    pub fn forget(&self) {
        self.entries.lock().clear();
    }

    pub fn len(&self) -> usize {
        self.entries.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn export(&self) -> String {
        let mut s = fftw_empty_wisdom(self.precision).unwrap_or_default();
        s.push_str(&format!("(fftw-3.3.10 {}\n", self.tag()));
        for (k, c) in self.entries.lock().iter() {
            let fusion = c
                .fusion
                .map(|f| format!(" {}", f.name()))
                .unwrap_or_default();
            s.push_str(&format!(
                "  (choice \"{}\" {} {} {:.1} {}{fusion})\n",
                k,
                c.rigor.name(),
                c.threads,
                c.cost_ns,
                c.backend.name()
            ));
        }
        s.push_str(")\n");
        s
    }

    /// Imports wisdom text (one or more s-expressions; anything after them is ignored, as
    /// FFTW ignores what follows its one). Returns false, importing nothing, if an expression
    /// is malformed or is wisdom of the other precision.
    pub fn import(&self, text: &str) -> bool {
        let (ours, fftws) = match self.precision {
            Precision::F64 => ("fftx_wisdom", "fftw_wisdom"),
            Precision::F32 => ("fftxf_wisdom", "fftwf_wisdom"),
        };
        let mut chars = text.chars().peekable();
        let mut found = Vec::new();
        loop {
            while chars.next_if(|c| c.is_whitespace()).is_some() {}
            if chars.peek() != Some(&'(') {
                break;
            }
            let Some((tag, entries)) = read_sexpr(|| chars.next()).as_deref().and_then(parse)
            else {
                return false;
            };
            match tag.as_str() {
                t if t == fftws => crate::log::log_info!(
                    "imported FFTW's own wisdom: well-formed, nothing in it applies to fftx"
                ),
                t if t == ours => found.extend(entries),
                _ => return false,
            }
        }
        if found.is_empty() && !text.trim_start().starts_with('(') {
            return false;
        }
        for (k, c) in found {
            self.remember(&k, c);
        }
        true
    }
}

/// FFTW 3.3.10's empty wisdom for this machine, `(fftw-3.3.10 fftw_wisdom #x.. #x.. #x.. #x..\n)`:
/// the four numbers are FFTW's signature of its configuration (which solvers it registered,
/// which depends on how it was built and on the CPU), and FFTW refuses wisdom with another
/// signature. So the installed FFTW is asked once for its (empty) wisdom's first line; None
/// where no FFTW other than fftx can be loaded.
fn fftw_empty_wisdom(p: Precision) -> Option<String> {
    use once_cell::sync::OnceCell;
    static F64: OnceCell<Option<String>> = OnceCell::new();
    static F32: OnceCell<Option<String>> = OnceCell::new();
    let (cell, lib, export) = match p {
        Precision::F64 => (&F64, "libfftw3.so.3", "fftw_export_wisdom_to_string"),
        Precision::F32 => (&F32, "libfftw3f.so.3", "fftwf_export_wisdom_to_string"),
    };
    cell.get_or_init(|| {
        let header = system_fftw_wisdom(lib, export)?;
        let first = header.lines().next()?;
        (first.starts_with("(fftw-3.3.10 fftw") && first.matches("#x").count() == 4)
            .then(|| format!("{first}\n)\n"))
    })
    .clone()
}

/// The wisdom text of FFTW's `lib` (by soname, else in the usual system directories),
/// skipping fftx itself (installed under FFTW's names, or preloaded).
fn system_fftw_wisdom(lib: &str, export: &str) -> Option<String> {
    let dirs = [
        "",
        "/usr/lib/x86_64-linux-gnu/",
        "/lib/x86_64-linux-gnu/",
        "/usr/lib/aarch64-linux-gnu/",
        "/usr/lib64/",
        "/usr/lib/",
        "/usr/local/lib/",
    ];
    for dir in dirs {
        let Ok(path) = std::ffi::CString::new(format!("{dir}{lib}")) else {
            continue;
        };
        // SAFETY: dlopen/dlsym with valid C strings; the handle is kept open (FFTW stays
        // loaded, private to this lookup: RTLD_LOCAL, and RTLD_DEEPBIND binds its own symbols
        // first when it was not loaded already).
        unsafe {
            let h = libc::dlopen(
                path.as_ptr(),
                libc::RTLD_NOW | libc::RTLD_LOCAL | libc::RTLD_DEEPBIND,
            );
            if h.is_null() {
                continue;
            }
            if !libc::dlsym(h, c"fftx_init".as_ptr()).is_null() {
                continue; // this is fftx
            }
            let name = std::ffi::CString::new(export).ok()?;
            let f = libc::dlsym(h, name.as_ptr());
            if f.is_null() {
                continue;
            }
            let f: unsafe extern "C" fn() -> *mut libc::c_char = std::mem::transmute(f);
            let s = f();
            if s.is_null() {
                continue;
            }
            let text = std::ffi::CStr::from_ptr(s).to_string_lossy().into_owned();
            libc::free(s as *mut libc::c_void);
            return Some(text);
        }
    }
    None
}

/// Tokens of the wisdom s-expression.
#[derive(Debug, PartialEq)]
enum Tok {
    Open,
    Close,
    Atom(String),
    Str(String),
}

fn tokenize(text: &str) -> Option<Vec<Tok>> {
    let mut toks = Vec::new();
    let mut it = text.chars().peekable();
    while let Some(&c) = it.peek() {
        match c {
            '(' => {
                it.next();
                toks.push(Tok::Open)
            }
            ')' => {
                it.next();
                toks.push(Tok::Close)
            }
            '"' => {
                it.next();
                let mut s = String::new();
                loop {
                    match it.next()? {
                        '"' => break,
                        ch => s.push(ch),
                    }
                }
                toks.push(Tok::Str(s));
            }
            c if c.is_whitespace() => {
                it.next();
            }
            _ => {
                let mut s = String::new();
                while let Some(&ch) = it.peek() {
                    if ch.is_whitespace() || ch == '(' || ch == ')' || ch == '"' {
                        break;
                    }
                    s.push(ch);
                    it.next();
                }
                toks.push(Tok::Atom(s));
            }
        }
    }
    Some(toks)
}

type Parsed = (String, Vec<(String, Choice)>);

fn parse(text: &str) -> Option<Parsed> {
    let toks = tokenize(text)?;
    let mut it = toks.into_iter();
    if it.next()? != Tok::Open {
        return None;
    }
    match it.next()? {
        Tok::Atom(v) if v.starts_with("fftw-") => {}
        _ => return None,
    }
    let Tok::Atom(tag) = it.next()? else {
        return None;
    };
    let mut entries = Vec::new();
    loop {
        match it.next()? {
            Tok::Close => break,
            Tok::Open => {
                let mut items = Vec::new();
                loop {
                    match it.next()? {
                        Tok::Close => break,
                        Tok::Open => return None,
                        t => items.push(t),
                    }
                }
                if let [Tok::Atom(head), Tok::Str(key), Tok::Atom(rigor), Tok::Atom(threads), Tok::Atom(cost), rest @ ..] =
                    &items[..]
                {
                    if head == "choice" {
                        let (backend, fusion) = match rest {
                            [] => (Backend::Cpu, None),
                            [Tok::Atom(b)] => (Backend::parse(b)?, None),
                            [Tok::Atom(b), Tok::Atom(f)] => {
                                (Backend::parse(b)?, Some(Fusion::parse(f)?))
                            }
                            _ => return None,
                        };
                        let choice = Choice {
                            rigor: Rigor::parse(rigor)?,
                            threads: threads.parse().ok().filter(|&t| t >= 1)?,
                            cost_ns: cost.parse().ok()?,
                            backend,
                            fusion,
                        };
                        entries.push((key.clone(), choice));
                    }
                }
            }
            _ => {} // FFTW's header hashes (#x...) and anything else at top level
        }
    }
    Some((tag, entries))
}

/// Reads the wisdom at the front of a character source: one s-expression and every further one
/// that follows with only white space between (FFTW's wisdom, then fftx's). `unread` gets the
/// first character after them, if any was read.
pub fn read_wisdom(
    mut next: impl FnMut() -> Option<char>,
    unread: impl FnOnce(char),
) -> Option<String> {
    let mut text = read_sexpr(&mut next)?;
    loop {
        match next() {
            None => break,
            Some(c) if c.is_whitespace() => text.push(c),
            Some('(') => {
                let mut first = Some('(');
                text.push_str(&read_sexpr(|| first.take().or_else(&mut next))?);
            }
            Some(c) => {
                unread(c);
                break;
            }
        }
    }
    Some(text)
}

/// Reads one balanced s-expression from a character source (FFTW's import reads exactly one).
pub fn read_sexpr(mut next: impl FnMut() -> Option<char>) -> Option<String> {
    let mut s = String::new();
    let mut depth = 0usize;
    let mut in_str = false;
    loop {
        let c = next()?;
        s.push(c);
        match c {
            '"' => in_str = !in_str,
            '(' if !in_str => depth += 1,
            ')' if !in_str => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(s);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_rigor() {
        let w = Wisdom::new(Precision::F64);
        w.remember(
            "a",
            Choice {
                rigor: Rigor::Patient,
                threads: 2,
                cost_ns: 10.0,
                backend: Backend::Cpu,
                fusion: None,
            },
        );
        w.remember(
            "a",
            Choice {
                rigor: Rigor::Estimate,
                threads: 1,
                cost_ns: 0.0,
                backend: Backend::Cpu,
                fusion: None,
            },
        );
        assert_eq!(w.lookup("a", Rigor::Measure).unwrap().threads, 2);
        assert!(w.lookup("a", Rigor::Exhaustive).is_none());
        let text = w.export();
        let v = Wisdom::new(Precision::F64);
        assert!(v.import(&text));
        assert_eq!(v.lookup("a", Rigor::Patient), w.lookup("a", Rigor::Patient));
        let f = Wisdom::new(Precision::F32);
        assert!(!f.import(&text), "double wisdom is not single wisdom");
    }

    #[test]
    fn backend_round_trips_and_old_wisdom_means_cpu() {
        let w = Wisdom::new(Precision::F32);
        w.remember(
            "g",
            Choice {
                rigor: Rigor::Measure,
                threads: 4,
                cost_ns: 3.5e6,
                backend: Backend::Gpu,
                fusion: None,
            },
        );
        let text = w.export();
        assert!(text.contains(" gpu)"), "{text}");
        let v = Wisdom::new(Precision::F32);
        assert!(v.import(&text));
        assert_eq!(v.lookup("g", Rigor::Measure).unwrap().backend, Backend::Gpu);
        assert!(v.import("(fftw-3.3.10 fftxf_wisdom (choice \"s\" measure 2 10.0 gpus))"));
        assert_eq!(
            v.lookup("s", Rigor::Measure).unwrap().backend,
            Backend::Gpus
        );
        assert!(v.import("(fftw-3.3.10 fftxf_wisdom (choice \"old\" measure 2 10.0))"));
        assert_eq!(
            v.lookup("old", Rigor::Measure).unwrap().backend,
            Backend::Cpu
        );
        assert!(
            !v.import("(fftw-3.3.10 fftxf_wisdom (choice \"bad\" measure 2 10.0 tpu))"),
            "unknown backend"
        );
    }

    /// An FFTX chain's fusion follows its backend, and is kept through export and import;
    /// a name that is no fusion makes the text malformed.
    #[test]
    fn fusion_round_trips() {
        let w = Wisdom::new(Precision::F64);
        let chain = Choice {
            rigor: Rigor::Measure,
            threads: 1,
            cost_ns: 2.5e5,
            backend: Backend::Gpu,
            fusion: Some(Fusion::Callback),
        };
        w.remember("fftx-chain 8x8 #00ff", chain);
        w.remember(
            "plain",
            Choice {
                fusion: None,
                ..chain
            },
        );
        let text = w.export();
        assert!(text.contains(" gpu callback)"), "{text}");
        let v = Wisdom::new(Precision::F64);
        assert!(v.import(&text));
        assert_eq!(
            v.lookup("fftx-chain 8x8 #00ff", Rigor::Estimate),
            Some(chain)
        );
        assert_eq!(v.lookup("plain", Rigor::Measure).unwrap().fusion, None);
        for f in ["fused", "kernel"] {
            let one = format!("(fftw-3.3.10 fftx_wisdom (choice \"c\" measure 1 1.0 gpu {f}))");
            assert!(v.import(&one));
            assert_eq!(
                v.lookup("c", Rigor::Measure).unwrap().fusion,
                Fusion::parse(f)
            );
        }
        assert!(!v.import("(fftw-3.3.10 fftx_wisdom (choice \"c\" measure 1 1.0 gpu fast))"));
        assert!(!v.import("(fftw-3.3.10 fftx_wisdom (choice \"c\" measure 1 1.0 gpu kernel x))"));
    }

    #[test]
    fn rejects_malformed_and_accepts_fftws_own() {
        let w = Wisdom::new(Precision::F64);
        assert!(!w.import("(fftw-3.3.10 fftx_wisdom (choice \"a\" measure 1 1.0)"));
        assert!(!w.import("garbage"));
        assert!(!w.import("(fftw-3.3.10 fftx_wisdom (choice \"a\" bogus 1 1.0))"));
        assert!(
            !w.import("(fftw-3.3.10 fftw_wisdom #x1 #x2 #x3 #x4\n)\n(fftw-3.3.10 fftxf_wisdom)"),
            "the other precision's"
        );
        assert!(w.import("(fftw-3.3.10 fftw_wisdom #x458a31c8 #x92381c4c\n  (fftw_codelet_n1fv_4_avx 0 #x31bff #x31bff #x0 #x9dc9a52b)\n)"));
        assert!(w.is_empty());
    }

    #[test]
    fn reads_fftws_empty_wisdom_then_ours() {
        let w = Wisdom::new(Precision::F64);
        let text = "(fftw-3.3.10 fftw_wisdom #x458a31c8 #x92381c4c #x4f974889 #xcd46f97e\n)\n(fftw-3.3.10 fftx_wisdom\n  (choice \"k\" measure 2 5.0 cpu)\n)\nanything after";
        assert!(w.import(text));
        assert_eq!(w.lookup("k", Rigor::Measure).unwrap().threads, 2);
        // Our export starts with FFTW's when an FFTW is installed here.
        let out = w.export();
        assert!(out.contains("(fftw-3.3.10 fftx_wisdom\n"), "{out}");
        let v = Wisdom::new(Precision::F64);
        assert!(v.import(&out) && v.lookup("k", Rigor::Measure).is_some());
    }

    #[test]
    fn reads_consecutive_sexprs_and_gives_back_the_next_character() {
        let src = "(a) \n (b (c))\nz rest";
        let mut it = src.chars();
        let mut back = None;
        assert_eq!(
            read_wisdom(|| it.next(), |c| back = Some(c)).as_deref(),
            Some("(a) \n (b (c))\n")
        );
        assert_eq!(back, Some('z'));
    }

    #[test]
    fn reads_one_sexpr() {
        let src = "(a (b \")\") c) (next)";
        let mut it = src.chars();
        assert_eq!(read_sexpr(|| it.next()).as_deref(), Some("(a (b \")\") c)"));
    }
}
