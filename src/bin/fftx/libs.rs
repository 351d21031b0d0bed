//! The FFTW-API libraries the tool drives, as one untyped call table each: fftx itself (this
//! binary links the library), the system's FFTW 3.3.10 and NVIDIA's cuFFTW. FFTW and cuFFTW
//! are loaded with `dlopen(RTLD_LOCAL | RTLD_DEEPBIND)`, as tests/common/mod.rs does, so their
//! symbols bind to themselves and never mix with fftx's (all three export `fftw_*`).
#![allow(clippy::missing_transmute_annotations)]

use fftx::fftw_iodim64 as Dim;
use std::ffi::{c_void, CStr, CString};
use std::os::raw::{c_char, c_int, c_uint};

pub type P = *mut c_void;
type Dp = *const Dim;

/// Precision of a run: FFTW's `fftw_` (double) or `fftwf_` (single) interface.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    F64,
    F32,
}

impl Precision {
    pub fn prefix(self) -> &'static str {
        match self {
            Precision::F64 => "fftw_",
            Precision::F32 => "fftwf_",
        }
    }
    pub fn bytes(self) -> usize {
        match self {
            Precision::F64 => 8,
            Precision::F32 => 4,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Precision::F64 => "double",
            Precision::F32 => "single",
        }
    }
    /// FFTW's library of this precision.
    fn fftw_soname(self) -> &'static str {
        match self {
            Precision::F64 => "libfftw3.so.3",
            Precision::F32 => "libfftw3f.so.3",
        }
    }
    fn fftw_threads_soname(self) -> &'static str {
        match self {
            Precision::F64 => "libfftw3_threads.so.3",
            Precision::F32 => "libfftw3f_threads.so.3",
        }
    }
}

/// The entry points of one precision of one library.
pub struct Api {
    /// "fftx", "FFTW" or "cuFFTW".
    pub name: &'static str,
    /// Where it was loaded from (fftx: this program).
    pub path: String,
    /// Its version as it reports it.
    pub version: String,
    pub dft: unsafe extern "C" fn(c_int, Dp, c_int, Dp, P, P, c_int, c_uint) -> P,
    pub r2c: unsafe extern "C" fn(c_int, Dp, c_int, Dp, P, P, c_uint) -> P,
    pub c2r: unsafe extern "C" fn(c_int, Dp, c_int, Dp, P, P, c_uint) -> P,
    pub r2r: unsafe extern "C" fn(c_int, Dp, c_int, Dp, P, P, *const c_int, c_uint) -> P,
    pub execute: unsafe extern "C" fn(P),
    pub destroy: unsafe extern "C" fn(P),
    pub malloc: unsafe extern "C" fn(usize) -> P,
    pub free: unsafe extern "C" fn(P),
    pub init_threads: Option<unsafe extern "C" fn() -> c_int>,
    pub plan_with_nthreads: Option<unsafe extern "C" fn(c_int)>,
    pub sprint_plan: Option<unsafe extern "C" fn(P) -> *mut c_char>,
    pub cleanup: Option<unsafe extern "C" fn()>,
}

macro_rules! ours {
    ($p:ident) => { paste::paste! {
        // SAFETY: the same C ABI; the array pointer types differ only in their pointee.
        unsafe {
            Api {
                name: "fftx",
                path: std::env::current_exe().map(|p| p.display().to_string()).unwrap_or_default(),
                version: format!("fftx {} ({})", env!("CARGO_PKG_VERSION"),
                    CStr::from_bytes_until_nul(&fftx::[<$p version>]).map(|c| c.to_string_lossy().into_owned()).unwrap_or_default()),
                dft: std::mem::transmute(fftx::[<$p plan_guru64_dft>] as *const ()),
                r2c: std::mem::transmute(fftx::[<$p plan_guru64_dft_r2c>] as *const ()),
                c2r: std::mem::transmute(fftx::[<$p plan_guru64_dft_c2r>] as *const ()),
                r2r: std::mem::transmute(fftx::[<$p plan_guru64_r2r>] as *const ()),
                execute: std::mem::transmute(fftx::[<$p execute>] as *const ()),
                destroy: std::mem::transmute(fftx::[<$p destroy_plan>] as *const ()),
                malloc: std::mem::transmute(fftx::[<$p malloc>] as *const ()),
                free: std::mem::transmute(fftx::[<$p free>] as *const ()),
                init_threads: Some(std::mem::transmute(fftx::[<$p init_threads>] as *const ())),
                plan_with_nthreads: Some(std::mem::transmute(fftx::[<$p plan_with_nthreads>] as *const ())),
                sprint_plan: Some(std::mem::transmute(fftx::[<$p sprint_plan>] as *const ())),
                cleanup: Some(std::mem::transmute(fftx::[<$p cleanup>] as *const ())),
            }
        }
    }};
}

/// fftx's own entry points (linked into this program).
pub fn fftx(p: Precision) -> Api {
    match p {
        Precision::F64 => ours!(fftw_),
        Precision::F32 => ours!(fftwf_),
    }
}

/// Opens a library privately, its own symbols first (None, with dlerror's text, if it fails).
pub fn dlopen(path: &str) -> Result<P, String> {
    let c = CString::new(path).map_err(|e| e.to_string())?;
    // SAFETY: dlopen with a NUL-terminated name; dlerror's text is copied at once.
    unsafe {
        let h = libc::dlopen(
            c.as_ptr(),
            libc::RTLD_NOW | libc::RTLD_LOCAL | libc::RTLD_DEEPBIND,
        );
        if h.is_null() {
            let e = libc::dlerror();
            Err(if e.is_null() {
                format!("cannot load {path}")
            } else {
                CStr::from_ptr(e).to_string_lossy().into_owned()
            })
        } else {
            Ok(h)
        }
    }
}

/// A symbol of a dlopened library as a function pointer of type `F` (None if absent).
pub fn sym<F: Copy>(h: P, name: &str) -> Option<F> {
    let c = CString::new(name).ok()?;
    // SAFETY: dlsym on a live handle; the caller names the symbol's true type as F.
    let f = unsafe { libc::dlsym(h, c.as_ptr()) };
    if f.is_null() {
        return None;
    }
    assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<P>());
    Some(unsafe { std::mem::transmute_copy(&f) })
}

/// The file a loaded symbol lives in.
pub fn path_of(addr: *const c_void) -> Option<String> {
    // SAFETY: dladdr fills `info` for an address in a loaded object.
    unsafe {
        let mut info: libc::Dl_info = std::mem::zeroed();
        if libc::dladdr(addr, &mut info) == 0 || info.dli_fname.is_null() {
            return None;
        }
        Some(
            CStr::from_ptr(info.dli_fname)
                .to_string_lossy()
                .into_owned(),
        )
    }
}

fn table(h: P, name: &'static str, prefix: &str, version: String) -> Result<Api, String> {
    let need = |n: &str| -> Result<P, String> {
        sym::<P>(h, &format!("{prefix}{n}")).ok_or_else(|| format!("{name} has no {prefix}{n}"))
    };
    let path = path_of(need("execute")?).unwrap_or_default();
    // SAFETY: each symbol is FFTW's function of that name, with FFTW's C signature.
    unsafe {
        Ok(Api {
            name,
            path,
            version,
            dft: std::mem::transmute(need("plan_guru64_dft")?),
            r2c: std::mem::transmute(need("plan_guru64_dft_r2c")?),
            c2r: std::mem::transmute(need("plan_guru64_dft_c2r")?),
            r2r: std::mem::transmute(need("plan_guru64_r2r")?),
            execute: std::mem::transmute(need("execute")?),
            destroy: std::mem::transmute(need("destroy_plan")?),
            malloc: std::mem::transmute(need("malloc")?),
            free: std::mem::transmute(need("free")?),
            init_threads: sym(h, &format!("{prefix}init_threads")),
            plan_with_nthreads: sym(h, &format!("{prefix}plan_with_nthreads")),
            sprint_plan: sym(h, &format!("{prefix}sprint_plan")),
            cleanup: sym(h, &format!("{prefix}cleanup")),
        })
    }
}

/// A library's `fftw_version` string (an array, not a function).
fn version_string(h: P, prefix: &str) -> Option<String> {
    let c = CString::new(format!("{prefix}version")).ok()?;
    // SAFETY: FFTW's fftw_version is a NUL-terminated char array.
    unsafe {
        let v = libc::dlsym(h, c.as_ptr());
        (!v.is_null()).then(|| {
            CStr::from_ptr(v as *const c_char)
                .to_string_lossy()
                .into_owned()
        })
    }
}

/// Where Debian and others keep FFTW, for when `libfftw3.so.3` on the search path is fftx
/// itself (an fftx install on LD_LIBRARY_PATH).
const FFTW_DIRS: [&str; 5] = [
    "/usr/lib/x86_64-linux-gnu",
    "/usr/lib/aarch64-linux-gnu",
    "/usr/lib64",
    "/usr/lib",
    "/usr/local/lib",
];

/// The system's FFTW 3.3.10 (`path`: a file to load instead of searching).
pub fn fftw(p: Precision, path: Option<&str>) -> Result<Api, String> {
    let mut tried = Vec::new();
    let mut candidates: Vec<String> = match path {
        Some(f) => vec![f.to_string()],
        None => vec![p.fftw_soname().to_string()],
    };
    if path.is_none() {
        candidates.extend(FFTW_DIRS.iter().map(|d| format!("{d}/{}", p.fftw_soname())));
    }
    for c in candidates {
        if path.is_none() && c.starts_with('/') && !std::path::Path::new(&c).exists() {
            continue;
        }
        let h = match dlopen(&c) {
            Ok(h) => h,
            Err(e) => {
                tried.push(e);
                continue;
            }
        };
        let version = version_string(h, p.prefix()).unwrap_or_else(|| "unknown".into());
        if version.contains("fftx") {
            tried.push(format!("{c} is fftx ({version}), not FFTW"));
            continue;
        }
        let mut api = table(h, "FFTW", p.prefix(), version)?;
        if api.init_threads.is_none() {
            // Debian's FFTW keeps the threads interface in a library of its own.
            let dir = std::path::Path::new(&api.path)
                .parent()
                .map(|d| d.display().to_string())
                .unwrap_or_default();
            let t = format!("{dir}/{}", p.fftw_threads_soname());
            if let Ok(th) = dlopen(&t).or_else(|_| dlopen(p.fftw_threads_soname())) {
                api.init_threads = sym(th, &format!("{}init_threads", p.prefix()));
                api.plan_with_nthreads = sym(th, &format!("{}plan_with_nthreads", p.prefix()));
            }
        }
        return Ok(api);
    }
    Err(format!(
        "FFTW 3.3.10 not found ({}); install it (Debian: libfftw3-dev) or pass --fftw FILE",
        tried.join("; ")
    ))
}

/// cuFFTW's candidate files: the CUDA toolkit's, then whatever the search path finds.
pub fn cufftw_candidates() -> Vec<String> {
    let mut out = Vec::new();
    for dir in [
        "/usr/local/cuda/lib64",
        "/usr/local/cuda/targets/x86_64-linux/lib",
    ] {
        if let Ok(rd) = std::fs::read_dir(dir) {
            let mut names: Vec<String> = rd
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with("libcufftw.so"))
                .collect();
            names.sort();
            out.extend(names.into_iter().map(|n| format!("{dir}/{n}")));
        }
    }
    out.extend(
        [
            "libcufftw.so",
            "libcufftw.so.12",
            "libcufftw.so.11",
            "libcufftw.so.13",
        ]
        .map(String::from),
    );
    out
}

/// NVIDIA's cuFFTW, when present (`path`: a file to load instead of searching).
pub fn cufftw(p: Precision, path: Option<&str>) -> Result<Api, String> {
    let candidates = match path {
        Some(f) => vec![f.to_string()],
        None => cufftw_candidates(),
    };
    let mut last = String::from("no libcufftw.so found");
    for c in candidates {
        match dlopen(&c) {
            Ok(h) => {
                let mut v = 0 as c_int;
                let cufft = sym::<unsafe extern "C" fn(*mut c_int) -> c_int>(h, "cufftGetVersion")
                    // SAFETY: cufftGetVersion(int *) from the libcufft cuFFTW depends on.
                    .filter(|f| unsafe { f(&mut v) } == 0)
                    .map(|_| format!("cuFFT {v}"))
                    .unwrap_or_else(|| "cuFFT version unknown".into());
                return table(h, "cuFFTW", p.prefix(), format!("cuFFTW ({cufft})"));
            }
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// `fftw_sprint_plan`'s text (None where the library has none or returns NULL).
pub fn sprint(api: &Api, plan: P) -> Option<String> {
    let f = api.sprint_plan?;
    // SAFETY: a live plan of this library; the string is malloc'ed and ours to free.
    unsafe {
        let s = f(plan);
        if s.is_null() {
            return None;
        }
        let t = CStr::from_ptr(s).to_string_lossy().into_owned();
        libc::free(s as *mut c_void);
        Some(t)
    }
}
