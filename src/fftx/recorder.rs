//! The pointwise recorder: a user's pointwise function, written with the `FFTX_*` helper macros,
//! becomes a small instruction list at plan time.
//!
//! The planner calls the function with tracing handles: `in`, `out` and `data` point at slots
//! of a library-owned arena, and `FFTX_*_TEMP` hands out further slots. Each helper macro is a
//! call into the library that appends one instruction naming the slots it got. Nothing is
//! computed while recording.
//!
//! What cannot be represented is rejected, never run wrongly. The function is called twice, with
//! different contents in the slots: both recordings must be the same instruction list (so the
//! function's behaviour does not depend on the values it might read directly), and the slots'
//! memory must be unchanged afterwards (so it wrote nothing directly). Every operand must be a
//! slot start (`in + 1` or the address of a local variable is refused); `in` and `data` are
//! read-only; a temporary or `out` must be written before it is read; `out` must be written.
//!
//! The list is a [`Code`] of the program layer (`program::kernel`): the CPU executor interprets
//! it ([`Code::run`]) and the GPU lowering writes it as CUDA (`cudagen`).

use crate::problem::Precision;
pub use crate::program::kernel::{Code, Inst, Reg};
use std::cell::RefCell;

/// Slot size in bytes: a handle plus one element is still inside its own slot, never another's.
const SLOT: usize = 64;
/// Slots of one recording: in, out, data and up to this many temporaries minus three.
const SLOTS: usize = 259;

/// What one helper call asks for, before its operands are checked.
#[derive(Clone, Copy, Debug)]
pub enum OpCode {
    Mov,
    Add,
    Sub,
    Mul,
    Div,
    Conj,
    Neg,
}

struct Recording {
    complex: bool,
    /// The plan's precision: its helpers are `fftx_pointwise_*` (F64) or `fftxf_pointwise_*`
    /// (F32), and the handles hold values of that size.
    precision: Precision,
    arena: Vec<u8>,
    /// Offset of slot 0 in `arena` (slots are 64-byte aligned).
    off: usize,
    temps: u16,
    insts: Vec<Inst>,
    /// The first problem found; the recording is rejected with it.
    error: Option<String>,
}

thread_local! {
    static RECORDING: RefCell<Option<Recording>> = const { RefCell::new(None) };
    /// Misuse of a helper outside any recording, reported by the next planner call's error.
    static STRAY: RefCell<Option<String>> = const { RefCell::new(None) };
}

impl Recording {
    fn slot_addr(&self, i: usize) -> usize {
        self.arena.as_ptr() as usize + self.off + i * SLOT
    }
    fn reg_of(&self, p: usize, what: &str) -> crate::error::Result<Reg> {
        let base = self.arena.as_ptr() as usize + self.off;
        let used = 3 + self.temps as usize;
        if p < base || p >= base + used * SLOT || !(p - base).is_multiple_of(SLOT) {
            return Err(format!(
                "{what} operand {p:#x} is not a tracing handle (in, out, data or an FFTX_*_TEMP): pointer arithmetic and the caller's own variables cannot be recorded"
            ).into());
        }
        Ok(match (p - base) / SLOT {
            0 => Reg::In,
            1 => Reg::Out,
            2 => Reg::Data,
            i => Reg::Temp((i - 3) as u16),
        })
    }
    fn fail(&mut self, msg: String) {
        if self.error.is_none() {
            self.error = Some(msg);
        }
    }
}

/// A helper's type: complex or real, and its interface's precision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ty {
    pub complex: bool,
    pub precision: Precision,
}

fn with_recording(ty: Ty, what: &str, f: impl FnOnce(&mut Recording) -> crate::error::Result<()>) {
    let complex = ty.complex;
    RECORDING.with(|r| {
        let mut r = r.borrow_mut();
        match r.as_mut() {
            Some(rec) if rec.precision != ty.precision => rec.fail(format!(
                "{what}: a {} helper in a {} pointwise function",
                precision_name(ty.precision),
                precision_name(rec.precision)
            )),
            Some(rec) if rec.complex == complex => {
                if let Err(e) = f(rec) {
                    rec.fail(e.message);
                }
            }
            Some(rec) => rec.fail(format!("{what}: a {} helper in a {} pointwise function", if complex { "complex" } else { "real" }, if rec.complex { "complex" } else { "real" })),
            None => STRAY.with(|s| *s.borrow_mut() = Some(format!("{what} called outside a pointwise function being planned (it only records; it computes nothing)"))),
        }
    })
}

/// `FFTX_*_TEMP`: a new temporary register; returns its handle (NULL outside a recording).
pub fn new_temp(ty: Ty) -> *mut u8 {
    let mut out = std::ptr::null_mut();
    with_recording(ty, "FFTX_TEMP", |rec| {
        if 3 + rec.temps as usize >= SLOTS {
            return Err(format!("more than {} pointwise temporaries", SLOTS - 3).into());
        }
        rec.temps += 1;
        out = rec.slot_addr(2 + rec.temps as usize) as *mut u8;
        Ok(())
    });
    out
}

/// A one- or two-operand helper.
pub fn op(ty: Ty, code: OpCode, d: usize, s: usize) {
    let complex = ty.complex;
    let name = match code {
        OpCode::Mov => "MOV",
        OpCode::Add => "ADD",
        OpCode::Sub => "SUB",
        OpCode::Mul => "MULT",
        OpCode::Div => "DIV",
        OpCode::Conj => "CONJ",
        OpCode::Neg => "NEG",
    };
    let what = format!("FFTX_{}_{name}", if complex { "COMPLEX" } else { "REAL" });
    with_recording(ty, &what, |rec| {
        let d = rec.reg_of(d, &format!("{what} destination"))?;
        let src = match code {
            OpCode::Conj | OpCode::Neg => None,
            _ => Some(rec.reg_of(s, &format!("{what} source"))?),
        };
        if matches!(code, OpCode::Conj) && !complex {
            return Err("FFTX conj of a real value".into());
        }
        let inst = match (code, src) {
            (OpCode::Mov, Some(s)) => Inst::Mov(d, s),
            (OpCode::Add, Some(s)) => Inst::Add(d, s),
            (OpCode::Sub, Some(s)) => Inst::Sub(d, s),
            (OpCode::Mul, Some(s)) => Inst::Mul(d, s),
            (OpCode::Div, Some(s)) => Inst::Div(d, s),
            (OpCode::Conj, _) => Inst::Conj(d),
            _ => Inst::Neg(d),
        };
        rec.insts.push(inst);
        Ok(())
    })
}

pub fn scale(ty: Ty, d: usize, c: f64) {
    with_recording(ty, "FFTX_SCALE", |rec| {
        let d = rec.reg_of(d, "FFTX_SCALE destination")?;
        rec.insts.push(Inst::Scale(d, c));
        Ok(())
    })
}

pub fn set(ty: Ty, d: usize, re: f64, im: f64) {
    let complex = ty.complex;
    with_recording(ty, "FFTX_SET", |rec| {
        let d = rec.reg_of(d, "FFTX_SET destination")?;
        rec.insts
            .push(Inst::Set(d, re, if complex { im } else { 0.0 }));
        Ok(())
    })
}

/// The user's pointwise function.
pub type Callback =
    unsafe extern "C" fn(*mut std::ffi::c_void, *mut std::ffi::c_void, *mut std::ffi::c_void);

/// The arena's contents for one recording: values of the plan's precision (what the function
/// reads through its float or double handles), every one differing from the other run's in
/// sign and magnitude.
fn fill_arena(arena: &mut [u8], precision: Precision, fill: f64) {
    let v = |i: usize| fill * (1.0 + i as f64 * 0.25);
    match precision {
        Precision::F64 => arena.chunks_mut(8).enumerate().for_each(|(i, c)| {
            c.copy_from_slice(&v(i).to_ne_bytes()[..c.len()]);
        }),
        Precision::F32 => arena.chunks_mut(4).enumerate().for_each(|(i, c)| {
            c.copy_from_slice(&(v(i) as f32).to_ne_bytes()[..c.len()]);
        }),
    }
}

fn record_once(f: Callback, ty: Ty, fill: f64) -> crate::error::Result<Code> {
    let complex = ty.complex;
    let mut arena = vec![0u8; SLOTS * SLOT + SLOT];
    // Slots are 64-byte aligned: slot 0 starts at the arena's first aligned byte.
    let off = (SLOT - arena.as_ptr() as usize % SLOT) % SLOT;
    fill_arena(&mut arena, ty.precision, fill);
    let snapshot = arena.clone();
    let busy = RECORDING.with(|r| r.borrow().is_some());
    if busy {
        return Err(
            "a pointwise function planned another pointwise plan while being recorded".into(),
        );
    }
    RECORDING.with(|r| {
        *r.borrow_mut() = Some(Recording {
            complex,
            precision: ty.precision,
            arena,
            off,
            temps: 0,
            insts: Vec::new(),
            error: None,
        })
    });
    let (i, o, d) = RECORDING.with(|r| {
        let r = r.borrow();
        let rec = r.as_ref().unwrap();
        (rec.slot_addr(0), rec.slot_addr(1), rec.slot_addr(2))
    });
    // SAFETY: the handles point into the arena, which stays allocated (inside the thread-local)
    // until the call returns; the function is the caller's and was declared with this signature.
    unsafe { f(i as *mut _, o as *mut _, d as *mut _) };
    let rec = RECORDING
        .with(|r| r.borrow_mut().take())
        .expect("recording still present");
    if let Some(e) = rec.error {
        return Err(e.into());
    }
    if rec.arena != snapshot {
        return Err("the pointwise function wrote to a handle's memory directly; only FFTX_* helpers can be recorded".into());
    }
    Ok(Code {
        complex,
        temps: rec.temps,
        insts: rec.insts,
        uses_data: false,
    })
}

/// Records `f` and checks the program. `has_data`: whether a data operand was given.
pub fn record(f: Callback, ty: Ty, has_data: bool) -> crate::error::Result<Code> {
    STRAY.with(|s| s.borrow_mut().take());
    let a = record_once(f, ty, 1.0e10)?;
    let b = record_once(f, ty, -3.5e-7)?;
    if a != b {
        return Err("the pointwise function records differently on different values: it depends on values it reads directly (branches or constants computed from them), which cannot be represented".into());
    }
    let mut p = a;
    check(&mut p, has_data)?;
    Ok(p)
}

/// Dataflow checks of a recorded program.
pub fn check(p: &mut Code, has_data: bool) -> crate::error::Result<()> {
    let mut written_temps = vec![false; p.temps as usize];
    let mut out_written = false;
    for (k, inst) in p.insts.iter().enumerate() {
        let (d, s, reads_d) = match *inst {
            Inst::Mov(d, s) => (d, Some(s), false),
            Inst::Add(d, s) | Inst::Sub(d, s) | Inst::Mul(d, s) | Inst::Div(d, s) => {
                (d, Some(s), true)
            }
            Inst::Conj(d) | Inst::Neg(d) | Inst::Scale(d, _) => (d, None, true),
            Inst::Set(d, _, _) => (d, None, false),
        };
        let mut reads = vec![];
        if reads_d {
            reads.push(d);
        }
        reads.extend(s);
        for r in reads {
            match r {
                Reg::Data if !has_data => {
                    return Err(format!(
                        "instruction {k} ({inst}) reads data, but no data operand was given"
                    )
                    .into())
                }
                Reg::Data => p.uses_data = true,
                Reg::Out if !out_written => {
                    return Err(
                        format!("instruction {k} ({inst}) reads out before writing it").into(),
                    )
                }
                Reg::Temp(t) if !written_temps[t as usize] => {
                    return Err(format!(
                        "instruction {k} ({inst}) reads temporary t{t} before writing it"
                    )
                    .into())
                }
                _ => {}
            }
        }
        match d {
            Reg::In | Reg::Data => {
                return Err(
                    format!("instruction {k} ({inst}) writes {d}, which is read-only").into(),
                )
            }
            Reg::Out => out_written = true,
            Reg::Temp(t) => written_temps[t as usize] = true,
        }
    }
    if !out_written {
        return Err("the pointwise function never writes out".into());
    }
    Ok(())
}

/// A helper's misuse outside recording, if any (taken: reported once).
pub fn take_stray() -> Option<String> {
    STRAY.with(|s| s.borrow_mut().take())
}

/// "double precision (fftx_*)" or "single precision (fftxf_*)": how errors name a precision.
pub fn precision_name(p: Precision) -> &'static str {
    match p {
        Precision::F64 => "double precision (fftx_*)",
        Precision::F32 => "single precision (fftxf_*)",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_complex::Complex;
    use std::ffi::c_void;

    const C: Ty = Ty {
        complex: true,
        precision: Precision::F64,
    };
    const R: Ty = Ty {
        complex: false,
        precision: Precision::F64,
    };
    const CF: Ty = Ty {
        complex: true,
        precision: Precision::F32,
    };

    unsafe extern "C" fn branches_f32(i: *mut c_void, o: *mut c_void, _d: *mut c_void) {
        if *(i as *const f32) > 0.0 {
            op(CF, OpCode::Mov, o as usize, i as usize);
        } else {
            set(CF, o as usize, 0.0, 0.0);
        }
    }

    unsafe extern "C" fn scaling_f32(i: *mut c_void, o: *mut c_void, d: *mut c_void) {
        let t = new_temp(CF) as usize;
        op(CF, OpCode::Mov, t, i as usize);
        op(CF, OpCode::Mul, t, d as usize);
        op(CF, OpCode::Mov, o as usize, t);
        scale(CF, o as usize, 0.5);
    }

    #[test]
    fn single_precision_recordings_see_float_values_and_float_helpers() {
        // The handles hold floats: a branch on a float value is seen.
        let e = record(branches_f32, CF, false).unwrap_err();
        assert!(e.message.contains("records differently"), "{e}");
        let p = record(scaling_f32, CF, true).unwrap();
        let mut regs = vec![];
        let y = p.run(
            Complex::new(1.0f32, 2.0),
            Complex::new(3.0f32, -1.0),
            &mut regs,
        );
        assert_eq!(y, Complex::new(2.5f32, 2.5));
        // A double helper in a float function (or the other way round) is refused.
        let e = record(scaling, CF, true).unwrap_err();
        assert!(
            e.message
                .contains("double precision (fftx_*) helper in a single"),
            "{e}"
        );
        let e = record(scaling_f32, C, true).unwrap_err();
        assert!(
            e.message
                .contains("single precision (fftxf_*) helper in a double"),
            "{e}"
        );
    }

    unsafe extern "C" fn scaling(i: *mut c_void, o: *mut c_void, d: *mut c_void) {
        let t = new_temp(C) as usize;
        op(C, OpCode::Mov, t, i as usize);
        op(C, OpCode::Mul, t, d as usize);
        op(C, OpCode::Mov, o as usize, t);
    }

    unsafe extern "C" fn direct_write(i: *mut c_void, o: *mut c_void, _d: *mut c_void) {
        op(C, OpCode::Mov, o as usize, i as usize);
        *(o as *mut f64) = 1.0;
    }

    unsafe extern "C" fn branches(i: *mut c_void, o: *mut c_void, _d: *mut c_void) {
        if *(i as *const f64) > 0.0 {
            op(C, OpCode::Mov, o as usize, i as usize);
        } else {
            set(C, o as usize, 0.0, 0.0);
        }
    }

    unsafe extern "C" fn value_constant(i: *mut c_void, o: *mut c_void, _d: *mut c_void) {
        op(C, OpCode::Mov, o as usize, i as usize);
        scale(C, o as usize, *(i as *const f64));
    }

    unsafe extern "C" fn pointer_math(i: *mut c_void, o: *mut c_void, _d: *mut c_void) {
        op(C, OpCode::Mov, o as usize, (i as *mut f64).add(2) as usize);
    }

    unsafe extern "C" fn local_var(_i: *mut c_void, o: *mut c_void, _d: *mut c_void) {
        let x = [1.0f64, 2.0];
        op(C, OpCode::Mov, o as usize, x.as_ptr() as usize);
    }

    unsafe extern "C" fn writes_in(i: *mut c_void, o: *mut c_void, _d: *mut c_void) {
        op(C, OpCode::Neg, i as usize, 0);
        op(C, OpCode::Mov, o as usize, i as usize);
    }

    unsafe extern "C" fn no_out(i: *mut c_void, _o: *mut c_void, _d: *mut c_void) {
        let t = new_temp(C) as usize;
        op(C, OpCode::Mov, t, i as usize);
    }

    unsafe extern "C" fn real_helper(i: *mut c_void, o: *mut c_void, _d: *mut c_void) {
        op(R, OpCode::Mov, o as usize, i as usize);
    }

    #[test]
    fn records_the_papers_scaling() {
        let p = record(scaling, C, true).unwrap();
        assert_eq!(
            p.insts,
            vec![
                Inst::Mov(Reg::Temp(0), Reg::In),
                Inst::Mul(Reg::Temp(0), Reg::Data),
                Inst::Mov(Reg::Out, Reg::Temp(0))
            ]
        );
        assert!(p.uses_data);
        let mut regs = vec![];
        let y = p.run(Complex::new(1.0, 2.0), Complex::new(3.0, -1.0), &mut regs);
        assert_eq!(y, Complex::new(5.0, 5.0));
        assert_eq!(p.describe(), "mov t0 in; mul t0 data; mov out t0");
    }

    #[test]
    fn rejects_what_it_cannot_represent() {
        let cases: [(Callback, &str); 8] = [
            (direct_write, "directly"),
            (branches, "records differently"),
            (value_constant, "records differently"),
            (pointer_math, "FFTX_COMPLEX_MOV source operand"),
            (local_var, "not a tracing handle"),
            (writes_in, "read-only"),
            (no_out, "never writes out"),
            (real_helper, "real helper"),
        ];
        for (f, want) in cases {
            let e = record(f, C, true).unwrap_err();
            assert!(e.message.contains(want), "{e}");
        }
        let e = record(scaling, C, false).unwrap_err();
        assert!(e.message.contains("no data operand"), "{e}");
    }

    #[test]
    fn helpers_outside_recording_are_reported() {
        op(C, OpCode::Add, 8, 16);
        assert!(take_stray().unwrap().contains("outside"));
        assert!(take_stray().is_none());
    }
}
