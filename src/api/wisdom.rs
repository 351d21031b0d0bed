//! Wisdom import and export (FFTW manual §4.7): strings, `FILE*`, file names, character
//! callbacks, and the system wisdom file (`/etc/fftw/wisdom`, `/etc/fftw/wisdomf` for single
//! precision; `FFTX_SYSTEM_WISDOM_DIR` names another directory).

use super::guard;
use crate::abi::{fftw_read_char_func, fftw_write_char_func};
use crate::problem::Precision;
use crate::wisdom::{of, read_wisdom};
use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_int};
use std::ptr::null_mut;

pub(crate) fn system_wisdom_path(p: Precision) -> std::path::PathBuf {
    let dir = std::env::var_os("FFTX_SYSTEM_WISDOM_DIR").unwrap_or_else(|| "/etc/fftw".into());
    std::path::Path::new(&dir).join(match p {
        Precision::F64 => "wisdom",
        Precision::F32 => "wisdomf",
    })
}

/// Reads the wisdom s-expressions from a C stream, leaving it just after them.
unsafe fn read_file(f: *mut libc::FILE) -> Option<String> {
    read_wisdom(
        || {
            let c = libc::fgetc(f);
            (c != libc::EOF).then_some(c as u8 as char)
        },
        |c| {
            libc::ungetc(c as c_int, f);
        },
    )
}

unsafe fn write_file(f: *mut libc::FILE, s: &str) -> crate::error::Result<()> {
    let c = CString::new(s).map_err(|e| e.to_string())?;
    if libc::fputs(c.as_ptr(), f) < 0 {
        return Err("write failed".into());
    }
    Ok(())
}

macro_rules! wisdom_api {
    ($prec:expr, $p:ident) => { paste::paste! {
        #[no_mangle]
        pub extern "C" fn [<$p forget_wisdom>]() {
            of($prec).forget();
        }
        #[no_mangle]
        pub extern "C" fn [<$p export_wisdom_to_string>]() -> *mut c_char {
            guard(stringify!([<$p export_wisdom_to_string>]), null_mut(), || {
                let s = CString::new(of($prec).export()).map_err(|e| e.to_string())?;
                let bytes = s.as_bytes_with_nul();
                // The caller frees it with free(), as FFTW documents.
                let p = unsafe { libc::malloc(bytes.len()) } as *mut c_char;
                if p.is_null() {
                    return Err("out of memory".into());
                }
                unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr() as *const c_char, p, bytes.len()) };
                Ok(p)
            })
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p export_wisdom_to_file>](f: *mut libc::FILE) {
            guard(stringify!([<$p export_wisdom_to_file>]), (), || {
                if f.is_null() { return Err("NULL FILE*".into()); }
                write_file(f, &of($prec).export())
            })
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p export_wisdom_to_filename>](name: *const c_char) -> c_int {
            guard(stringify!([<$p export_wisdom_to_filename>]), 0, || {
                if name.is_null() { return Err("NULL file name".into()); }
                let name = CStr::from_ptr(name).to_str().map_err(|e| e.to_string())?;
                std::fs::write(name, of($prec).export()).map_err(|e| format!("{name}: {e}"))?;
                Ok(1)
            })
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p export_wisdom>](write_char: fftw_write_char_func, data: *mut libc::c_void) {
            guard(stringify!([<$p export_wisdom>]), (), || {
                let w = write_char.ok_or("NULL write_char")?;
                for b in of($prec).export().bytes() {
                    w(b as c_char, data);
                }
                Ok(())
            })
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p import_wisdom_from_string>](s: *const c_char) -> c_int {
            guard(stringify!([<$p import_wisdom_from_string>]), 0, || {
                if s.is_null() { return Err("NULL string".into()); }
                let s = CStr::from_ptr(s).to_string_lossy();
                Ok(of($prec).import(&s) as c_int)
            })
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p import_wisdom_from_file>](f: *mut libc::FILE) -> c_int {
            guard(stringify!([<$p import_wisdom_from_file>]), 0, || {
                if f.is_null() { return Err("NULL FILE*".into()); }
                Ok(read_file(f).is_some_and(|s| of($prec).import(&s)) as c_int)
            })
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p import_wisdom_from_filename>](name: *const c_char) -> c_int {
            guard(stringify!([<$p import_wisdom_from_filename>]), 0, || {
                if name.is_null() { return Err("NULL file name".into()); }
                let name = CStr::from_ptr(name).to_str().map_err(|e| e.to_string())?;
                let text = std::fs::read_to_string(name).map_err(|e| format!("{name}: {e}"))?;
                Ok(of($prec).import(&text) as c_int)
            })
        }
        #[no_mangle]
        pub unsafe extern "C" fn [<$p import_wisdom>](read_char: fftw_read_char_func, data: *mut libc::c_void) -> c_int {
            guard(stringify!([<$p import_wisdom>]), 0, || {
                let r = read_char.ok_or("NULL read_char")?;
                // A character after the wisdom is read and dropped: the callback cannot take
                // it back.
                let text = read_wisdom(|| {
                    let c = r(data);
                    (c != libc::EOF).then_some(c as u8 as char)
                }, |_| ());
                Ok(text.is_some_and(|s| of($prec).import(&s)) as c_int)
            })
        }
        #[no_mangle]
        pub extern "C" fn [<$p import_system_wisdom>]() -> c_int {
            guard(stringify!([<$p import_system_wisdom>]), 0, || {
                let path = system_wisdom_path($prec);
                let Ok(text) = std::fs::read_to_string(&path) else {
                    crate::log::log_info!("no system wisdom at {}", path.display());
                    return Ok(0);
                };
                Ok(of($prec).import(&text) as c_int)
            })
        }
    }};
}

wisdom_api!(Precision::F64, fftw_);
wisdom_api!(Precision::F32, fftwf_);
