//! `fftx info`: what fftx finds on this machine (library, CPU, GPUs and the CUDA libraries,
//! MPI) and where its planner puts a few typical problems, with the planner's own reasons (its
//! `FFTX_LOG=info` lines, captured while planning).

use crate::libs::{self, P};
use crate::problem::{self, Problem};
use crate::run::{Arrays, Layout};
use fftx::backend::{backend_setting, BackendSetting};
use fftx::exec::cuda;
use fftx::log::Level;
use std::ffi::{c_void, CString};
use std::os::raw::{c_char, c_int, c_uint};

pub const USAGE: &str = "\
usage: fftx info [PROBLEM...]

Prints the fftx version, the CPU (model, SIMD features, threads), each GPU (memory, driver,
cuFFT, NVRTC and nvJitLink versions, whether cuFFT LTO callbacks work), whether an MPI library
is installed (and which one the FFTW-MPI interface loads), and which backend the planner picks for typical problems (or the PROBLEMs given,
in FFTW's syntax: see fftx bench --help), with the planner's reasons as FFTX_LOG=info shows them.
Planning is FFTW_ESTIMATE with as many threads as the machine has; in-place problems are
planned on NULL arrays (as ordinary host arrays), out-of-place ones on fftw_malloc arrays.
With FFTX_BACKEND=cpu, CUDA is never started.";

/// The typical problems planned when none is given: small and large 1-D, 2-D, 3-D, a batch.
const TYPICAL: [&str; 6] = [
    "icf1024",
    "icf1048576",
    "irf1024x1024",
    "icf256x256x256",
    "icf4096*4096",
    "irf512x512x512",
];

/// The CPU's model name (/proc/cpuinfo), or the architecture.
pub fn cpu_model() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    for key in ["model name", "Model", "Hardware", "cpu model"] {
        if let Some(v) = info
            .lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_once(':'))
        {
            return v.1.trim().to_string();
        }
    }
    std::env::consts::ARCH.to_string()
}

/// SIMD features the FFT kernels can use, and the path rustfft takes with them.
fn cpu_simd() -> (Vec<&'static str>, &'static str) {
    #[cfg(target_arch = "x86_64")]
    {
        let mut f = Vec::new();
        macro_rules! probe {
            ($($n:tt),*) => { $( if std::arch::is_x86_feature_detected!($n) { f.push($n); } )* };
        }
        probe!("sse2", "sse3", "ssse3", "sse4.1", "sse4.2", "avx", "avx2", "fma", "avx512f");
        let path = if f.contains(&"avx") && f.contains(&"fma") {
            "AVX+FMA"
        } else if f.contains(&"sse4.1") {
            "SSE4.1"
        } else {
            "scalar"
        };
        (f, path)
    }
    #[cfg(target_arch = "aarch64")]
    {
        if std::arch::is_aarch64_feature_detected!("neon") {
            (vec!["neon"], "NEON")
        } else {
            (vec![], "scalar")
        }
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        (vec![], "scalar")
    }
}

/// A CUDA library opened the way cudarc opens it (the same names, in the same order).
fn open_cuda_lib(name: &str) -> Option<P> {
    let mut names = cudarc::get_lib_name_candidates(name);
    // nvJitLink is not one of cudarc's; its sonames carry the CUDA major version.
    names.extend(["13", "12"].map(|m| format!("lib{name}.so.{m}")));
    names.into_iter().find_map(|n| {
        let c = CString::new(n).ok()?;
        // SAFETY: dlopen by name, private; the library stays loaded (as cudarc keeps it).
        let h = unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
        (!h.is_null()).then_some(h)
    })
}

/// "name X.Y (path)" of a CUDA library, asked through `f`, or why not.
fn lib_version(
    lib: &str,
    symbol: &str,
    ask: impl Fn(P) -> Option<String>,
) -> Result<String, String> {
    let Some(h) = open_cuda_lib(lib) else {
        return Err(format!("not found (lib{lib}.so)"));
    };
    let path = libs::sym::<P>(h, symbol)
        .and_then(|s| libs::path_of(s as *const c_void))
        .unwrap_or_else(|| format!("lib{lib}.so"));
    match ask(h) {
        Some(v) => Ok(format!("{v} ({path})")),
        None => Ok(format!("version unknown ({path})")),
    }
}

fn driver_version() -> Result<String, String> {
    lib_version("cuda", "cuDriverGetVersion", |h| {
        let f = libs::sym::<unsafe extern "C" fn(*mut c_int) -> c_int>(h, "cuDriverGetVersion")?;
        let mut v = 0;
        // SAFETY: cuDriverGetVersion(int *), which needs no cuInit.
        (unsafe { f(&mut v) } == 0).then(|| format!("CUDA {}.{}", v / 1000, (v % 1000) / 10))
    })
}

fn cufft_version() -> Result<String, String> {
    lib_version("cufft", "cufftGetVersion", |h| {
        let f = libs::sym::<unsafe extern "C" fn(*mut c_int) -> c_int>(h, "cufftGetVersion")?;
        let mut v = 0;
        // SAFETY: cufftGetVersion(int *).
        (unsafe { f(&mut v) } == 0)
            .then(|| format!("cuFFT {}.{}.{} ({v})", v / 10000, (v / 100) % 100, v % 100))
    })
}

fn nvrtc_version() -> Result<String, String> {
    lib_version("nvrtc", "nvrtcVersion", |h| {
        let f =
            libs::sym::<unsafe extern "C" fn(*mut c_int, *mut c_int) -> c_int>(h, "nvrtcVersion")?;
        let (mut a, mut b) = (0, 0);
        // SAFETY: nvrtcVersion(int *, int *).
        (unsafe { f(&mut a, &mut b) } == 0).then(|| format!("NVRTC {a}.{b}"))
    })
}

fn nvjitlink_version() -> Result<String, String> {
    lib_version("nvJitLink", "nvJitLinkVersion", |h| {
        let f = libs::sym::<unsafe extern "C" fn(*mut c_uint, *mut c_uint) -> c_int>(
            h,
            "nvJitLinkVersion",
        )?;
        let (mut a, mut b) = (0, 0);
        // SAFETY: nvJitLinkVersion(unsigned *, unsigned *) (CUDA 12.3 and later).
        (unsafe { f(&mut a, &mut b) } == 0).then(|| format!("nvJitLink {a}.{b}"))
    })
}

/// A GPU the driver sees: ordinal, name, bytes, multiprocessors, compute capability.
type Device = (i32, String, usize, i32, (i32, i32));

fn devices() -> Vec<Device> {
    use cudarc::driver::sys as cu;
    let mut out = Vec::new();
    // SAFETY: driver queries after fftx initialized the driver (a GPU is usable).
    unsafe {
        let mut count = 0;
        if cu::cuDeviceGetCount(&mut count) != cu::CUresult::CUDA_SUCCESS {
            return out;
        }
        for i in 0..count {
            let mut dev = 0;
            if cu::cuDeviceGet(&mut dev, i) != cu::CUresult::CUDA_SUCCESS {
                continue;
            }
            let mut name = [0 as c_char; 256];
            cu::cuDeviceGetName(name.as_mut_ptr(), 256, dev);
            let mut mem = 0usize;
            cu::cuDeviceTotalMem_v2(&mut mem, dev);
            let attr = |a| {
                let mut v = 0;
                cu::cuDeviceGetAttribute(&mut v, a, dev);
                v
            };
            use cu::CUdevice_attribute as A;
            out.push((
                i,
                std::ffi::CStr::from_ptr(name.as_ptr())
                    .to_string_lossy()
                    .into_owned(),
                mem,
                attr(A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
                (
                    attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
                    attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
                ),
            ));
        }
    }
    out
}

/// MPI libraries on the library search path (LD_LIBRARY_PATH, the loader's cache, the usual
/// directories): found by name, never loaded.
fn mpi_libraries() -> Vec<String> {
    let mut dirs: Vec<String> = std::env::var("LD_LIBRARY_PATH")
        .unwrap_or_default()
        .split(':')
        .filter(|d| !d.is_empty())
        .map(String::from)
        .collect();
    dirs.extend(
        [
            "/usr/lib/x86_64-linux-gnu",
            "/usr/lib/aarch64-linux-gnu",
            "/usr/lib64",
            "/usr/lib",
            "/usr/local/lib",
            "/opt/openmpi/lib",
        ]
        .map(String::from),
    );
    let mut found: Vec<String> = Vec::new();
    for d in &dirs {
        if let Ok(rd) = std::fs::read_dir(d) {
            for e in rd.flatten() {
                let n = e.file_name().to_string_lossy().into_owned();
                if n.starts_with("libmpi.so") || n.starts_with("libmpich.so") {
                    found.push(format!("{d}/{n}"));
                }
            }
        }
    }
    // The loader's cache (ldconfig -p) knows directories listed in /etc/ld.so.conf.d.
    for ldconfig in ["/sbin/ldconfig", "/usr/sbin/ldconfig"] {
        if let Ok(out) = std::process::Command::new(ldconfig).arg("-p").output() {
            for l in String::from_utf8_lossy(&out.stdout).lines() {
                let l = l.trim();
                if l.starts_with("libmpi.so") || l.starts_with("libmpich.so") {
                    if let Some((_, p)) = l.split_once("=> ") {
                        found.push(p.trim().to_string());
                    }
                }
            }
            break;
        }
    }
    // One entry per file: links (libmpi.so.40 -> libmpi.so.40.30.4, /lib -> /usr/lib) resolved.
    let mut files: Vec<String> = found
        .iter()
        .filter_map(|p| std::fs::canonicalize(p).ok())
        .map(|p| p.display().to_string())
        .collect();
    files.sort();
    files.dedup();
    files
}

/// The log level in force now.
fn current_level() -> Level {
    [Level::Debug, Level::Info, Level::Warn, Level::Error]
        .into_iter()
        .find(|&l| fftx::log::enabled(l))
        .unwrap_or(Level::Off)
}

/// Runs `f` with fftx's log at `info` (at least) and its stderr going to a temporary file;
/// returns what the library wrote there.
pub fn capture_log<R>(f: impl FnOnce() -> R) -> (R, String) {
    let before = current_level();
    fftx::log::set_level(before.max(Level::Info));
    // SAFETY: fd 2 is saved, pointed at a temporary file while `f` runs, and restored; the
    // library's log writes to fd 2 unbuffered (eprintln).
    unsafe {
        let tmp = libc::tmpfile();
        if tmp.is_null() {
            let r = f();
            fftx::log::set_level(before);
            return (r, String::new());
        }
        let fd = libc::fileno(tmp);
        let saved = libc::dup(2);
        libc::dup2(fd, 2);
        let r = f();
        libc::dup2(saved, 2);
        libc::close(saved);
        fftx::log::set_level(before);
        libc::lseek(fd, 0, libc::SEEK_SET);
        let mut text = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            let n = libc::read(fd, buf.as_mut_ptr() as *mut c_void, buf.len());
            if n <= 0 {
                break;
            }
            text.extend_from_slice(&buf[..n as usize]);
        }
        libc::fclose(tmp);
        (r, String::from_utf8_lossy(&text).into_owned())
    }
}

/// Plans `p` with fftx under FFTW_ESTIMATE; returns where it runs and the planner's log lines.
fn plan_and_explain(p: &Problem) -> Result<(String, Vec<String>), String> {
    let api = libs::fftx(libs::Precision::F64);
    let flags = fftx::FFTW_ESTIMATE | crate::run::input_flags(p);
    let (plan, log) = if p.in_place {
        // NULL arrays: FFTW_ESTIMATE never touches them (in place: both pointers equal).
        let null = std::ptr::null_mut();
        // SAFETY: ESTIMATE over NULL arrays (an in-place problem: both pointers equal).
        capture_log(|| unsafe { crate::run::plan_at(&api, p, flags, null, null) })
    } else {
        let arrays = Arrays::new(&api, libs::Precision::F64, Layout::of(p))?;
        let (plan, log) = capture_log(|| arrays.plan(p, flags));
        (plan, log)
    };
    let lines: Vec<String> = log
        .lines()
        .filter_map(|l| {
            l.strip_prefix("fftx[info]: ")
                .or(l.strip_prefix("fftx[warn]: "))
        })
        .map(String::from)
        .collect();
    if plan.is_null() {
        return Err(format!("no plan ({})", lines.join("; ")));
    }
    let printed = libs::sprint(&api, plan).unwrap_or_default();
    // SAFETY: a plan of fftx, destroyed once.
    unsafe { (api.destroy)(plan) };
    Ok((crate::bench::ran_on(&printed), lines))
}

/// Runs `fftx info`; returns the exit status (1 when a problem could not be planned).
pub fn run(args: &[String]) -> i32 {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return 0;
    }
    let problems = match problems(args) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("fftx info: {e}");
            return 1;
        }
    };
    let backend = print_library();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    print_cpu(threads);
    let gpu_usable = print_gpu(backend);
    print_mpi();
    print_planner(&problems, threads, gpu_usable, backend)
}

/// The problems given (parsed), or the typical ones when none is.
fn problems(args: &[String]) -> Result<Vec<Problem>, String> {
    let mut problems = Vec::new();
    for a in args {
        match problem::parse(a) {
            Ok(p) if !p.split && !p.scrambled => problems.push(p),
            Ok(_) => return Err(format!("{a}: split and MPI problems are not planned here")),
            Err(e) => return Err(format!("{e}\n\n{USAGE}")),
        }
    }
    if problems.is_empty() {
        problems = TYPICAL.iter().map(|s| problem::parse(s).unwrap()).collect();
    }
    Ok(problems)
}

/// Prints fftx's version, the library's path and the FFTX_BACKEND setting, which it returns.
fn print_library() -> BackendSetting {
    println!("fftx {}", env!("CARGO_PKG_VERSION"));
    println!(
        "  library: {} (fftw_version \"{}\"), double and single precision",
        std::env::current_exe()
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
        libs::fftx(libs::Precision::F64)
            .version
            .split('(')
            .nth(1)
            .unwrap_or("")
            .trim_end_matches(')')
    );
    let backend = backend_setting();
    println!(
        "  FFTX_BACKEND: {}",
        match backend {
            BackendSetting::Auto => "auto (the planner picks CPU or GPU per problem)",
            BackendSetting::Cpu => "cpu (never touch CUDA)",
            BackendSetting::Gpu => "gpu (every problem the GPU can run goes there)",
        }
    );
    backend
}

/// Prints the CPU section: model, `threads`, SIMD features.
fn print_cpu(threads: usize) {
    let (features, path) = cpu_simd();
    println!("CPU");
    println!("  model: {}", cpu_model());
    println!(
        "  threads: {threads} (std::thread::available_parallelism; FFTW's default is 1, fftw_plan_with_nthreads sets more)"
    );
    println!("  SIMD: {} (rustfft's path: {path})", features.join(" "));
}

/// Prints the GPU section (unless FFTX_BACKEND=cpu, the CUDA libraries and the GPUs);
/// returns whether fftx has a usable GPU.
fn print_gpu(backend: BackendSetting) -> bool {
    println!("GPU");
    if backend == BackendSetting::Cpu {
        println!("  not probed: FFTX_BACKEND=cpu, so the library never starts CUDA");
        return false;
    }
    for (what, v) in [
        ("driver", driver_version()),
        ("cuFFT", cufft_version()),
        ("NVRTC", nvrtc_version()),
        ("nvJitLink", nvjitlink_version()),
    ] {
        match v {
            Ok(v) => println!("  {what}: {v}"),
            Err(e) => println!("  {what}: {e}"),
        }
    }
    match cuda::why_no_gpu() {
        Some(why) => {
            println!("  no usable GPU: {why}; every plan runs on the CPU");
            false
        }
        None => {
            print_devices();
            true
        }
    }
}

/// Prints each GPU the driver sees, those fftx spreads work over (and why), and whether
/// cuFFT's LTO callbacks work.
fn print_devices() {
    let used = cuda::default_device().map(|g| g.ordinal);
    for (i, name, mem, sms, cc) in devices() {
        println!(
            "  device {i}: {name}, {} MiB, {sms} SMs, compute capability {}.{}{}",
            mem >> 20,
            cc.0,
            cc.1,
            if Some(i) == used {
                " (fftx uses this one: FFTX_DEVICE)"
            } else {
                ""
            }
        );
    }
    let chosen: Vec<i32> = cuda::devices().iter().map(|d| d.ordinal).collect();
    let selection = std::env::var("FFTX_DEVICES").unwrap_or_default();
    let why = if selection.trim().is_empty() {
        "FFTX_DEVICES unset: the default device".to_string()
    } else {
        match cuda::parse_selection(&selection, cuda::device_count()) {
            Ok(_) => format!("FFTX_DEVICES={selection}"),
            Err(e) => format!("{e}; the default device instead"),
        }
    };
    println!("  distributed work: device(s) {chosen:?} ({why})");
    match fftx::cufft_lto_callbacks_usable() {
        Ok(()) => println!(
            "  cuFFT LTO callbacks: usable (FFTX chains can fuse pointwise steps into cuFFT plans)"
        ),
        Err(e) => println!("  cuFFT LTO callbacks: not usable: {e}"),
    }
}

/// Prints the MPI section: the MPI libraries found and the one the FFTW-MPI interface loads.
fn print_mpi() {
    println!("MPI");
    let mpi = mpi_libraries();
    if mpi.is_empty() {
        println!("  no MPI library (libmpi.so) on the library path");
    } else {
        println!("  found: {}", mpi.join(", "));
    }
    println!(
        "  FFTW-MPI interface: fftw_mpi_* and fftwf_mpi_* (libfftw3_mpi.so.3, fftw3-mpi.h); it loads {} at its first call",
        match std::env::var("FFTX_MPI_LIBRARY") {
            Ok(l) if !l.is_empty() => format!("{l} (FFTX_MPI_LIBRARY)"),
            _ => "Open MPI's libmpi.so.40 (or the program's own copy)".to_string(),
        }
    );
}

/// Prints the planner section: where each problem runs with `threads` threads, and why;
/// returns the exit status (1 when a problem got no plan).
fn print_planner(
    problems: &[Problem],
    threads: usize,
    gpu_usable: bool,
    backend: BackendSetting,
) -> i32 {
    println!(
        "Planner (FFTW_ESTIMATE, {threads} thread(s) allowed, double precision{})",
        match (gpu_usable, backend) {
            (_, BackendSetting::Cpu) => "; FFTX_BACKEND=cpu: CPU only",
            (false, _) => "; no usable GPU: CPU only",
            _ => "",
        }
    );
    fftx::fftw_init_threads();
    fftx::fftw_plan_with_nthreads(threads as c_int);
    let mut status = 0;
    for p in problems {
        match plan_and_explain(p) {
            Ok((on, lines)) => {
                println!("  {:<16} -> {on}", p.text);
                for l in &lines {
                    println!("      {l}");
                }
                let considered_gpu = lines.iter().any(|l| l.contains(" gpu:"));
                if gpu_usable && !considered_gpu && !on.contains("gpu") {
                    println!("      (the GPU was not a candidate: by the cost model even its best case, arrays already on the device, cannot beat the CPU here)");
                }
            }
            Err(e) => {
                println!("  {:<16} -> {e}", p.text);
                status = 1;
            }
        }
    }
    status
}
