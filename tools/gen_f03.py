#!/usr/bin/env python3
"""Generate include/fftw3.f03 from the prototypes in include/fftw3.h (fftx)."""
import re, subprocess, sys

import os
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
HDR = os.path.join(ROOT, "include", "fftw3.h")
OUT = os.path.join(ROOT, "include", "fftw3.f03")

pp = subprocess.run(["gcc", "-E", "-P", "-x", "c", HDR], capture_output=True, text=True,
                    check=True).stdout
pp = re.sub(r"\s+", " ", pp)

def split_args(s):
    depth, cur, out = 0, "", []
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip()); cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out

def protos():
    res = {}
    for m in re.finditer(r"extern ([^;{}]*?)\b(fftwf?_[a-z0-9_]+) ?\((.*?)\) ?;", pp):
        ret, name, args = m.group(1).strip(), m.group(2), m.group(3)
        # balance parentheses for the callback-taking prototype
        if args.count("(") != args.count(")"):
            start = m.start(3)
            depth, i = 1, start
            while depth:
                if pp[i] == "(": depth += 1
                elif pp[i] == ")": depth -= 1
                i += 1
            args = pp[start:i - 1]
        res[name] = (ret, [] if args.strip() == "void" else split_args(args))
    return res

SKIP = {"execute": "see the note above the interface block",
        "threads_set_callback": "see the note above the interface block"}

def fortran(prec):
    P = "fftw_" if prec == "d" else "fftwf_"
    real = "C_DOUBLE" if prec == "d" else "C_FLOAT"
    cplx = "C_DOUBLE_COMPLEX" if prec == "d" else "C_FLOAT_COMPLEX"
    R = "double" if prec == "d" else "float"
    C = P + "complex"
    return P, real, cplx, R, C

def arg_decl(prec, fname, ctype):
    P, real, cplx, R, C = fortran(prec)
    ctype = ctype.strip()
    m = re.match(r"(.*?)([A-Za-z_][A-Za-z0-9_]*)$", ctype)
    t, nm = m.group(1).strip(), m.group(2)
    t = re.sub(r"\s*\*", " *", t).strip()
    execute = fname.startswith(P + "execute")
    def arr(kind):
        if execute:
            intent = "out" if nm in ("out", "ro", "io") else "inout"
        else:
            intent = "out"
        return f"{kind}, dimension(*), intent({intent})"
    table = {
        "int": "integer(C_INT), value",
        "unsigned": "integer(C_INT), value",
        "const int *": "integer(C_INT), dimension(*), intent(in)",
        "double": "real(C_DOUBLE), value",
        "size_t": "integer(C_SIZE_T), value",
        f"{P}plan": "type(C_PTR), value",
        f"const {P}plan": "type(C_PTR), value",
        f"const {P}iodim *": f"type({P}iodim), dimension(*), intent(in)",
        f"const {P}iodim64 *": f"type({P}iodim64), dimension(*), intent(in)",
        f"{P}r2r_kind": "integer(C_FFTW_R2R_KIND), value",
        f"const {P}r2r_kind *": "integer(C_FFTW_R2R_KIND), dimension(*), intent(in)",
        f"{R} *": arr(f"real({real})"),
        f"{C} *": arr(f"complex({cplx})"),
        "const char *": "character(C_CHAR), dimension(*), intent(in)",
        "FILE *": "type(C_PTR), value",
        "void *": "type(C_PTR), value",
        f"{P}write_char_func": "type(C_FUNPTR), value",
        f"{P}read_char_func": "type(C_FUNPTR), value",
    }
    if fname == P + "flops" and t == "double *":
        return "real(C_DOUBLE), intent(out)", nm  # scalar out-arguments add, mul, fmas
    if t not in table:
        sys.exit(f"no Fortran mapping for '{t}' ({fname})")
    return table[t], nm

def ret_decl(prec, fname, ret):
    P, real, cplx, R, C = fortran(prec)
    ret = re.sub(r"\s*\*", " *", ret).strip()
    table = {"void": None, f"{P}plan": "type(C_PTR)", "int": "integer(C_INT)",
             "double": "real(C_DOUBLE)", "char *": "type(C_PTR)", "void *": "type(C_PTR)",
             f"{R} *": "type(C_PTR)", f"{C} *": "type(C_PTR)"}
    if ret not in table:
        sys.exit(f"no Fortran result for '{ret}' ({fname})")
    return table[ret]

def wrap_head(head, args, tail):
    """'head(args) tail' on one line if short, else args wrapped on continuation lines."""
    one = f"{head}({', '.join(args)}) &"
    if len(one) <= 100:
        return [one, f"        {tail}"]
    lines, cur = [], f"{head}("
    for i, a in enumerate(args):
        piece = a + (", " if i < len(args) - 1 else ") &")
        if len(cur) + len(piece) > 96:
            lines.append(cur.rstrip() + " &")
            cur = "        " + piece
        else:
            cur += piece
    lines.append(cur)
    lines.append(f"        {tail}")
    return lines

def interface(prec, ps, order):
    P = fortran(prec)[0]
    out = []
    for base in order:
        name = P + base
        if base in SKIP:
            continue
        ret, args = ps[name]
        decls = [arg_decl(prec, name, a) for a in args]
        rtype = ret_decl(prec, name, ret)
        kind = "subroutine" if rtype is None else "function"
        head = (f"    subroutine {name}" if rtype is None
                else f"    {rtype} function {name}")
        out += wrap_head(head, [n for _, n in decls], f"bind(C, name='{name}')")
        out.append("      import")
        for d, n in decls:
            out.append(f"      {d} :: {n}")
        out.append(f"    end {kind} {name}")
        out.append("")
    return out

ps = protos()
order = [n[len("fftw_"):] for n in ps if n.startswith("fftw_")]
# data symbols (fftw_version etc.) are not functions: the regex above only matches '('
for b in order:
    assert "fftwf_" + b in ps, b

consts = [
    ("FFTW_R2HC", "0"), ("FFTW_HC2R", "1"), ("FFTW_DHT", "2"),
    ("FFTW_REDFT00", "3"), ("FFTW_REDFT01", "4"), ("FFTW_REDFT10", "5"), ("FFTW_REDFT11", "6"),
    ("FFTW_RODFT00", "7"), ("FFTW_RODFT01", "8"), ("FFTW_RODFT10", "9"), ("FFTW_RODFT11", "10"),
    None,
    ("FFTW_FORWARD", "-1"), ("FFTW_BACKWARD", "+1"),
    None,
    ("FFTW_MEASURE", "0"), ("FFTW_DESTROY_INPUT", "1"), ("FFTW_UNALIGNED", "2"),
    ("FFTW_CONSERVE_MEMORY", "4"), ("FFTW_EXHAUSTIVE", "8"), ("FFTW_PRESERVE_INPUT", "16"),
    ("FFTW_PATIENT", "32"), ("FFTW_ESTIMATE", "64"), ("FFTW_WISDOM_ONLY", "2097152"),
    None,
    ("FFTW_ESTIMATE_PATIENT", "128"), ("FFTW_BELIEVE_PCOST", "256"),
    ("FFTW_NO_DFT_R2HC", "512"), ("FFTW_NO_NONTHREADED", "1024"),
    ("FFTW_NO_BUFFERING", "2048"), ("FFTW_NO_INDIRECT_OP", "4096"),
    ("FFTW_ALLOW_LARGE_GENERIC", "8192"), ("FFTW_NO_RANK_SPLITS", "16384"),
    ("FFTW_NO_VRANK_SPLITS", "32768"), ("FFTW_NO_VRECURSE", "65536"),
    ("FFTW_NO_SIMD", "131072"), ("FFTW_NO_SLOW", "262144"),
    ("FFTW_NO_FIXED_RADIX_LARGE_N", "524288"), ("FFTW_ALLOW_PRUNING", "1048576"),
]
group_titles = ["  ! kinds of real-to-real transform (values of enum fftw_r2r_kind)",
                "  ! sign of the exponent",
                "  ! planner flags",
                "  ! planner flags undocumented in FFTW (fftx accepts them and may ignore them)"]

L = []
L += """! fftw3.f03 -- Fortran 2003 interface to fftx, the FFTW 3.3.10 C API.
!
! Part of fftx.  Same names, constant values, derived types and bind(C) interfaces as
! FFTW 3.3.10's fftw3.f03 (chapter "Calling FFTW from Modern Fortran" of the FFTW manual),
! for double (fftw_*) and single (fftwf_*) precision.  Use it as
!
!   use, intrinsic :: iso_c_binding
!   include 'fftw3.f03'
!
! Plans are type(C_PTR); arrays are passed as assumed-size dummies; for aligned arrays use
! fftw_alloc_real / fftw_alloc_complex with c_f_pointer, and release them with fftw_free.
""".splitlines()
L.append("")
L.append("  ! kind of fftw_r2r_kind (a C enum, i.e. a 32-bit int)")
L.append("  integer, parameter :: C_FFTW_R2R_KIND = C_INT32_T")
gi = 0
for c in consts:
    if c is None or gi == 0:
        L.append("")
        L.append(group_titles[gi]); gi += 1
        if c is None:
            continue
    L.append(f"  integer(C_INT), parameter :: {c[0]} = {c[1]}")
L.append("")
L.append("  ! one dimension of a guru plan: length, input stride, output stride")
for P in ("fftw_", "fftwf_"):
    L += [f"  type, bind(C) :: {P}iodim",
          "     integer(C_INT) n, is, os",
          f"  end type {P}iodim",
          f"  type, bind(C) :: {P}iodim64",
          "     integer(C_INTPTR_T) n, is, os",
          f"  end type {P}iodim64"]
L.append("")
L += """  ! Not declared here, as in FFTW's own fftw3.f03:
  !  - fftw_execute / fftwf_execute: FFTW's manual advises against it in Fortran (the compiler
  !    may assume the arrays are untouched); use the new-array execute functions
  !    (fftw_execute_dft etc.).  Programs that want it declare their own interface.
  !  - fftw_threads_set_callback / fftwf_threads_set_callback: its callback type has no
  !    portable Fortran equivalent.
""".splitlines()
for prec, title in (("d", "double precision"), ("s", "single precision")):
    L.append("")
    L.append(f"  ! ---- {title} " + "-" * (80 - len(title)))
    L.append("  interface")
    body = interface(prec, ps, order)
    L += body[:-1]
    L.append("  end interface")
text = "\n".join(l.rstrip() for l in L) + "\n"
for i, l in enumerate(text.splitlines(), 1):
    if len(l) > 131:
        sys.exit(f"line {i} too long: {len(l)}")
open(OUT, "w").write(text)
print("wrote", OUT, len(text.splitlines()), "lines")
