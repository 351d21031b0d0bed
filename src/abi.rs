//! The C types and constants of FFTW 3.3.10's `fftw3.h`, with FFTW's values.
//!
//! `include/fftw3.h` declares the same names for C; the values here and there must agree
//! (a test parses the header and compares).
#![allow(non_camel_case_types)]

use std::os::raw::{c_int, c_uint};

/// `fftw_complex`: `double[2]`, layout-compatible with C99 `double _Complex` and `std::complex<double>`.
pub type fftw_complex = [f64; 2];
/// `fftwf_complex`: `float[2]`.
pub type fftwf_complex = [f32; 2];

/// `fftw_iodim`: one dimension of a guru problem (strides in elements of the array's type).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct fftw_iodim {
    pub n: c_int,
    pub is: c_int,
    pub os: c_int,
}

/// `fftw_iodim64`: the guru64 form, `ptrdiff_t` sizes and strides.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct fftw_iodim64 {
    pub n: isize,
    pub is: isize,
    pub os: isize,
}

/// FFTW's single-precision iodims are the same types.
pub type fftwf_iodim = fftw_iodim;
pub type fftwf_iodim64 = fftw_iodim64;

/// `fftw_r2r_kind` is a C enum: an `int` in the ABI.
pub type fftw_r2r_kind = c_int;
pub type fftwf_r2r_kind = c_int;

pub const FFTW_R2HC: c_int = 0;
pub const FFTW_HC2R: c_int = 1;
pub const FFTW_DHT: c_int = 2;
pub const FFTW_REDFT00: c_int = 3;
pub const FFTW_REDFT01: c_int = 4;
pub const FFTW_REDFT10: c_int = 5;
pub const FFTW_REDFT11: c_int = 6;
pub const FFTW_RODFT00: c_int = 7;
pub const FFTW_RODFT01: c_int = 8;
pub const FFTW_RODFT10: c_int = 9;
pub const FFTW_RODFT11: c_int = 10;

pub const FFTW_FORWARD: c_int = -1;
pub const FFTW_BACKWARD: c_int = 1;

pub const FFTW_NO_TIMELIMIT: f64 = -1.0;

// Planner flags (fftw3.h).
pub const FFTW_MEASURE: c_uint = 0;
pub const FFTW_DESTROY_INPUT: c_uint = 1 << 0;
pub const FFTW_UNALIGNED: c_uint = 1 << 1;
pub const FFTW_CONSERVE_MEMORY: c_uint = 1 << 2;
pub const FFTW_EXHAUSTIVE: c_uint = 1 << 3;
pub const FFTW_PRESERVE_INPUT: c_uint = 1 << 4;
pub const FFTW_PATIENT: c_uint = 1 << 5;
pub const FFTW_ESTIMATE: c_uint = 1 << 6;
pub const FFTW_WISDOM_ONLY: c_uint = 1 << 21;
// Flags fftw3.h documents as "undocumented beyond-guru", accepted and ignored.
pub const FFTW_ESTIMATE_PATIENT: c_uint = 1 << 7;
pub const FFTW_BELIEVE_PCOST: c_uint = 1 << 8;
pub const FFTW_NO_DFT_R2HC: c_uint = 1 << 9;
pub const FFTW_NO_NONTHREADED: c_uint = 1 << 10;
pub const FFTW_NO_BUFFERING: c_uint = 1 << 11;
pub const FFTW_NO_INDIRECT_OP: c_uint = 1 << 12;
pub const FFTW_ALLOW_LARGE_GENERIC: c_uint = 1 << 13;
pub const FFTW_NO_RANK_SPLITS: c_uint = 1 << 14;
pub const FFTW_NO_VRANK_SPLITS: c_uint = 1 << 15;
pub const FFTW_NO_VRECURSE: c_uint = 1 << 16;
pub const FFTW_NO_SIMD: c_uint = 1 << 17;
pub const FFTW_NO_SLOW: c_uint = 1 << 18;
pub const FFTW_NO_FIXED_RADIX_LARGE_N: c_uint = 1 << 19;
pub const FFTW_ALLOW_PRUNING: c_uint = 1 << 20;

/// Every bit fftw3.h defines; a flag word with any other bit set is rejected.
pub const FFTW_KNOWN_FLAGS: c_uint = (1 << 22) - 1;

/// `fftw_write_char_func`: `void (*)(char c, void *)`.
pub type fftw_write_char_func =
    Option<unsafe extern "C" fn(c: std::os::raw::c_char, data: *mut libc::c_void)>;
/// `fftw_read_char_func`: `int (*)(void *)`, returning EOF at the end.
pub type fftw_read_char_func = Option<unsafe extern "C" fn(data: *mut libc::c_void) -> c_int>;
/// The work function handed to a `fftw_threads_set_callback` loop.
pub type fftw_work_func =
    Option<unsafe extern "C" fn(jobdata: *mut std::os::raw::c_char) -> *mut libc::c_void>;
/// `void (*parallel_loop)(void *(*work)(char *), char *jobdata, size_t elsize, int njobs, void *data)`.
pub type fftw_parallel_loop = Option<
    unsafe extern "C" fn(
        work: fftw_work_func,
        jobdata: *mut std::os::raw::c_char,
        elsize: usize,
        njobs: c_int,
        data: *mut libc::c_void,
    ),
>;

#[cfg(test)]
mod tests {
    use super::*;

    /// Evaluates the header's `#define FFTW_X (1U << n)` / `(-1)` / `(0U)` and enum values.
    fn header_constants() -> std::collections::HashMap<String, f64> {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/include/fftw3.h"))
            .unwrap();
        let mut out = std::collections::HashMap::new();
        for line in text.lines() {
            let line = line.split("/*").next().unwrap().trim();
            if let Some(rest) = line.strip_prefix("#define FFTW_") {
                let (name, value) = rest.split_once(' ').unwrap_or((rest, ""));
                let v = value
                    .trim()
                    .trim_start_matches('(')
                    .trim_end_matches(')')
                    .replace('U', "");
                let parsed = match v.split_once("<<") {
                    Some((a, b)) => Some(
                        (a.trim().parse::<u64>().unwrap() << b.trim().parse::<u32>().unwrap())
                            as f64,
                    ),
                    None => v.trim().trim_start_matches('+').parse::<f64>().ok(),
                };
                if let Some(p) = parsed {
                    out.insert(format!("FFTW_{name}"), p);
                }
            }
            for item in line.split(',') {
                if let Some((name, value)) = item.trim().split_once('=') {
                    let name = name
                        .trim()
                        .trim_start_matches("enum fftw_r2r_kind_do_not_use_me {")
                        .trim();
                    if name.starts_with("FFTW_") {
                        if let Ok(v) = value.trim().trim_end_matches("};").trim().parse::<f64>() {
                            out.insert(name.to_string(), v);
                        }
                    }
                }
            }
        }
        out
    }

    #[test]
    fn header_and_abi_agree() {
        let h = header_constants();
        let ours: &[(&str, f64)] = &[
            ("FFTW_FORWARD", FFTW_FORWARD as f64),
            ("FFTW_BACKWARD", FFTW_BACKWARD as f64),
            ("FFTW_NO_TIMELIMIT", FFTW_NO_TIMELIMIT),
            ("FFTW_MEASURE", FFTW_MEASURE as f64),
            ("FFTW_DESTROY_INPUT", FFTW_DESTROY_INPUT as f64),
            ("FFTW_UNALIGNED", FFTW_UNALIGNED as f64),
            ("FFTW_CONSERVE_MEMORY", FFTW_CONSERVE_MEMORY as f64),
            ("FFTW_EXHAUSTIVE", FFTW_EXHAUSTIVE as f64),
            ("FFTW_PRESERVE_INPUT", FFTW_PRESERVE_INPUT as f64),
            ("FFTW_PATIENT", FFTW_PATIENT as f64),
            ("FFTW_ESTIMATE", FFTW_ESTIMATE as f64),
            ("FFTW_WISDOM_ONLY", FFTW_WISDOM_ONLY as f64),
            ("FFTW_ALLOW_PRUNING", FFTW_ALLOW_PRUNING as f64),
            ("FFTW_NO_SIMD", FFTW_NO_SIMD as f64),
            ("FFTW_ESTIMATE_PATIENT", FFTW_ESTIMATE_PATIENT as f64),
            ("FFTW_R2HC", FFTW_R2HC as f64),
            ("FFTW_HC2R", FFTW_HC2R as f64),
            ("FFTW_DHT", FFTW_DHT as f64),
            ("FFTW_REDFT00", FFTW_REDFT00 as f64),
            ("FFTW_REDFT11", FFTW_REDFT11 as f64),
            ("FFTW_RODFT00", FFTW_RODFT00 as f64),
            ("FFTW_RODFT11", FFTW_RODFT11 as f64),
        ];
        for (name, v) in ours {
            assert_eq!(h.get(*name), Some(v), "{name}");
        }
        // Every flag bit the header defines is a known flag.
        for (name, v) in &h {
            if name.starts_with("FFTW_") && *v >= 1.0 && v.fract() == 0.0 && *v as u64 > 10 {
                assert_eq!(*v as u32 & !FFTW_KNOWN_FLAGS, 0, "{name}");
            }
        }
    }
}
