/* One precision of mpi_check.c: included with X (serial names), XM (MPI names), XN (this
 * file's function names), R (the real type) and TAG ("d" or "f") defined. */

typedef R XN(cplx)[2];

/* Writes the local complex rows: global index of local element k is gidx(k). */
static void XN(put_c)(const char *name, XN(cplx) *a, ptrdiff_t n) {
    fprintf(out, "V %s%s %td\n", TAG, name, n);
    for (ptrdiff_t k = 0; k < n; ++k) fprintf(out, "%.17g %.17g\n", (double) a[k][0], (double) a[k][1]);
}

static void XN(put_r)(const char *name, R *a, ptrdiff_t rows, ptrdiff_t n, ptrdiff_t pad) {
    fprintf(out, "V %s%s %td\n", TAG, name, rows * n);
    for (ptrdiff_t r = 0; r < rows; ++r)
        for (ptrdiff_t k = 0; k < n; ++k) fprintf(out, "%.17g\n", (double) a[r * pad + k]);
}

static void XN(fill_c)(XN(cplx) *a, ptrdiff_t n, ptrdiff_t g0, int seed) {
    for (ptrdiff_t k = 0; k < n; ++k) {
        a[k][0] = (R) val(seed, g0 + k);
        a[k][1] = (R) val(seed + 1, g0 + k);
    }
}

/* c2c rank 2/3 (and transposed in/out, in place), as a plan_dft would be used. */
static void XN(c2c)(const char *name, int rnk, const ptrdiff_t *n, unsigned flags, int sign,
                    int in_place) {
    ptrdiff_t ln0, s0, ln1, s1, rest = 1;
    for (int i = 2; i < rnk; ++i) rest *= n[i];
    ptrdiff_t alloc = XM(local_size_transposed)(rnk, n, MPI_COMM_WORLD, &ln0, &s0, &ln1, &s1);
    fprintf(out, "L %s%s %td %td %td %td %td\n", TAG, name, alloc, ln0, s0, ln1, s1);
    XN(cplx) *in = X(alloc_complex)(alloc), *o = in_place ? in : X(alloc_complex)(alloc);
    int tin = (flags & FFTW_MPI_TRANSPOSED_IN) != 0, tout = (flags & FFTW_MPI_TRANSPOSED_OUT) != 0;
    /* the input's rows: of n0 (start s0) or, transposed, of n1 (start s1) */
    ptrdiff_t in_rows = tin ? ln1 : ln0, in_start = tin ? s1 : s0, row = (tin ? n[0] : n[1]) * rest;
    XN(fill_c)(in, in_rows * row, in_start * row, 3);
    X(plan) p = XM(plan_dft)(rnk, n, in, o, MPI_COMM_WORLD, sign, flags | FFTW_ESTIMATE);
    if (!p) { fprintf(out, "NULL plan %s%s\n", TAG, name); return; }
    X(execute)(p);
    /* the plan answers the serial introspection calls (their text is the library's own) */
    double adds, muls, fmas;
    X(flops)(p, &adds, &muls, &fmas);
    free(X(sprint_plan)(p));
    ptrdiff_t out_rows = tout ? ln1 : ln0, out_row = (tout ? n[0] : n[1]) * rest;
    XN(put_c)(name, o, out_rows * out_row);
    X(destroy_plan)(p);
    X(free)(in);
    if (!in_place) X(free)(o);
}

static void XN(c2c_1d)(const char *name, ptrdiff_t n, int sign) {
    ptrdiff_t li, si, lo, so;
    ptrdiff_t alloc = XM(local_size_1d)(n, MPI_COMM_WORLD, sign, FFTW_ESTIMATE, &li, &si, &lo, &so);
    fprintf(out, "L %s%s %td %td %td %td %td\n", TAG, name, alloc, li, si, lo, so);
    XN(cplx) *in = X(alloc_complex)(alloc), *o = X(alloc_complex)(alloc);
    XN(fill_c)(in, li, si, 5);
    X(plan) p = XM(plan_dft_1d)(n, in, o, MPI_COMM_WORLD, sign, FFTW_ESTIMATE);
    if (!p) { fprintf(out, "NULL plan %s%s\n", TAG, name); return; }
    X(execute)(p);
    XN(put_c)(name, o, lo);
    X(destroy_plan)(p);
    X(free)(in);
    X(free)(o);
}

/* Forward with FFTW_MPI_SCRAMBLED_OUT, backward with FFTW_MPI_SCRAMBLED_IN: the scrambled
 * order in between is the library's own; the round trip gives n times the input back. */
static void XN(c2c_1d_scrambled)(const char *name, ptrdiff_t n) {
    ptrdiff_t li, si, lo, so, bi, bs, bo, bos;
    ptrdiff_t a1 = XM(local_size_1d)(n, MPI_COMM_WORLD, FFTW_FORWARD, FFTW_MPI_SCRAMBLED_OUT, &li, &si, &lo, &so);
    ptrdiff_t a2 = XM(local_size_1d)(n, MPI_COMM_WORLD, FFTW_BACKWARD, FFTW_MPI_SCRAMBLED_IN, &bi, &bs, &bo, &bos);
    fprintf(out, "L %s%s %td %td %td %td %td %td %td %td %td %td\n", TAG, name, a1, li, si, lo, so, a2, bi, bs, bo, bos);
    ptrdiff_t alloc = a1 > a2 ? a1 : a2;
    XN(cplx) *in = X(alloc_complex)(alloc), *mid = X(alloc_complex)(alloc), *o = X(alloc_complex)(alloc);
    XN(fill_c)(in, li, si, 17);
    X(plan) p = XM(plan_dft_1d)(n, in, mid, MPI_COMM_WORLD, FFTW_FORWARD, FFTW_MPI_SCRAMBLED_OUT | FFTW_ESTIMATE);
    X(plan) q = XM(plan_dft_1d)(n, mid, o, MPI_COMM_WORLD, FFTW_BACKWARD, FFTW_MPI_SCRAMBLED_IN | FFTW_ESTIMATE);
    if (!p || !q) { fprintf(out, "NULL plan %s%s\n", TAG, name); return; }
    X(execute)(p);
    X(execute)(q);
    XN(put_c)(name, o, bo);
    X(destroy_plan)(p);
    X(destroy_plan)(q);
    X(free)(in);
    X(free)(mid);
    X(free)(o);
}

/* r2c of n (rank >= 2, optionally transposed out), then c2r back (transposed in if so). */
static void XN(r2c_c2r)(const char *name, int rnk, const ptrdiff_t *n, unsigned tflags) {
    ptrdiff_t nc[3], ln0, s0, ln1, s1, rest = 1, rrest = 1;
    for (int i = 0; i < rnk; ++i) nc[i] = i == rnk - 1 ? n[i] / 2 + 1 : n[i];
    for (int i = 1; i < rnk - 1; ++i) rrest *= n[i];
    for (int i = 2; i < rnk; ++i) rest *= nc[i];
    ptrdiff_t alloc = XM(local_size_transposed)(rnk, nc, MPI_COMM_WORLD, &ln0, &s0, &ln1, &s1);
    fprintf(out, "L %s%s %td %td %td %td %td\n", TAG, name, alloc, ln0, s0, ln1, s1);
    R *re = X(alloc_real)(2 * alloc);
    XN(cplx) *c = X(alloc_complex)(alloc);
    ptrdiff_t pad = 2 * nc[rnk - 1], last = n[rnk - 1];
    for (ptrdiff_t r = 0; r < ln0 * rrest; ++r)
        for (ptrdiff_t k = 0; k < last; ++k) re[r * pad + k] = (R) val(7, (s0 * rrest + r) * last + k);
    X(plan) p = XM(plan_dft_r2c)(rnk, n, re, c, MPI_COMM_WORLD, tflags ? FFTW_MPI_TRANSPOSED_OUT | FFTW_ESTIMATE : FFTW_ESTIMATE);
    X(plan) q = XM(plan_dft_c2r)(rnk, n, c, re, MPI_COMM_WORLD, tflags ? FFTW_MPI_TRANSPOSED_IN | FFTW_ESTIMATE : FFTW_ESTIMATE);
    if (!p || !q) { fprintf(out, "NULL plan %s%s\n", TAG, name); return; }
    XM(execute_dft_r2c)(p, re, c);
    XN(put_c)(name, c, tflags ? ln1 * nc[0] * rest : ln0 * nc[1] * rest);
    XM(execute_dft_c2r)(q, c, re);
    XN(put_r)(name, re, ln0 * rrest, last, pad);
    X(destroy_plan)(p);
    X(destroy_plan)(q);
    X(free)(re);
    X(free)(c);
}

static void XN(r2r_2d)(const char *name, ptrdiff_t n0, ptrdiff_t n1) {
    ptrdiff_t ln0, s0, n[2] = {n0, n1};
    ptrdiff_t alloc = XM(local_size)(2, n, MPI_COMM_WORLD, &ln0, &s0);
    fprintf(out, "L %s%s %td %td %td\n", TAG, name, alloc, ln0, s0);
    R *in = X(alloc_real)(alloc), *o = X(alloc_real)(alloc);
    for (ptrdiff_t k = 0; k < ln0 * n1; ++k) in[k] = (R) val(9, s0 * n1 + k);
    X(plan) p = XM(plan_r2r_2d)(n0, n1, in, o, MPI_COMM_WORLD, FFTW_REDFT10, FFTW_RODFT00, FFTW_ESTIMATE);
    if (!p) { fprintf(out, "NULL plan %s%s\n", TAG, name); return; }
    XM(execute_r2r)(p, in, o);
    XN(put_r)(name, o, ln0, n1, n1);
    X(destroy_plan)(p);
    X(free)(in);
    X(free)(o);
}

/* plan_many_dft: howmany interleaved 2-D transforms. */
static void XN(many)(const char *name, ptrdiff_t n0, ptrdiff_t n1, ptrdiff_t h, ptrdiff_t block) {
    ptrdiff_t ln0, s0, n[2] = {n0, n1};
    ptrdiff_t alloc = XM(local_size_many)(2, n, h, block, MPI_COMM_WORLD, &ln0, &s0);
    fprintf(out, "L %s%s %td %td %td\n", TAG, name, alloc, ln0, s0);
    XN(cplx) *in = X(alloc_complex)(alloc), *o = X(alloc_complex)(alloc);
    XN(fill_c)(in, ln0 * n1 * h, s0 * n1 * h, 11);
    X(plan) p = XM(plan_many_dft)(2, n, h, block, block, in, o,
                                  MPI_COMM_WORLD, FFTW_FORWARD, FFTW_ESTIMATE);
    if (!p) { fprintf(out, "NULL plan %s%s\n", TAG, name); return; }
    XM(execute_dft)(p, in, o);
    XN(put_c)(name, o, ln0 * n1 * h);
    X(destroy_plan)(p);
    X(free)(in);
    X(free)(o);
}

/* An n0 x n1 transpose; FFTW_MPI_TRANSPOSED_IN: the input stored n1 x ln0, _OUT: the output
 * stored n0 x ln1 (each process's part locally transposed). */
static void XN(transpose)(const char *name, ptrdiff_t n0, ptrdiff_t n1, unsigned flags) {
    ptrdiff_t ln0, s0, ln1, s1;
    ptrdiff_t alloc = XM(local_size_2d_transposed)(n0, n1, MPI_COMM_WORLD, &ln0, &s0, &ln1, &s1);
    fprintf(out, "L %s%s %td %td %td %td %td\n", TAG, name, alloc, ln0, s0, ln1, s1);
    R *in = X(alloc_real)(alloc), *o = X(alloc_real)(alloc);
    for (ptrdiff_t r = 0; r < ln0; ++r)
        for (ptrdiff_t c = 0; c < n1; ++c) {
            ptrdiff_t at = (flags & FFTW_MPI_TRANSPOSED_IN) ? c * ln0 + r : r * n1 + c;
            in[at] = (R) val(13, (s0 + r) * n1 + c);
        }
    X(plan) p = XM(plan_transpose)(n0, n1, in, o, MPI_COMM_WORLD, FFTW_ESTIMATE | flags);
    if (!p) { fprintf(out, "NULL plan %s%s\n", TAG, name); return; }
    X(execute)(p);
    if (flags & FFTW_MPI_TRANSPOSED_OUT)
        XN(put_r)(name, o, n0, ln1, ln1);
    else
        XN(put_r)(name, o, ln1, n0, n0);
    X(destroy_plan)(p);
    X(free)(in);
    X(free)(o);
}

/* 1-D r2r, howmany 4 (FFTW's rank-1 r2r needs howmany >= processes; default blocks). */
static void XN(r2r_1d)(const char *name, ptrdiff_t n) {
    ptrdiff_t ln0, s0, h = 4;
    ptrdiff_t alloc = XM(local_size_many)(1, &n, h, FFTW_MPI_DEFAULT_BLOCK, MPI_COMM_WORLD, &ln0, &s0);
    fprintf(out, "L %s%s %td %td %td\n", TAG, name, alloc, ln0, s0);
    R *in = X(alloc_real)(alloc), *o = X(alloc_real)(alloc);
    for (ptrdiff_t k = 0; k < ln0 * h; ++k) in[k] = (R) val(15, s0 * h + k);
    X(r2r_kind) kind = FFTW_REDFT01;
    X(plan) p = XM(plan_many_r2r)(1, &n, h, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK, in, o,
                                  MPI_COMM_WORLD, &kind, FFTW_ESTIMATE);
    if (!p) { fprintf(out, "NULL plan %s%s\n", TAG, name); return; }
    XM(execute_r2r)(p, in, o);
    XN(put_r)(name, o, 1, ln0 * h, ln0 * h);
    X(destroy_plan)(p);
    X(free)(in);
    X(free)(o);
}

/* Layouts FFTW 3.3.10 does not plan (transposed-input r2c, transposed-output c2r): a NULL
 * plan from both libraries. */
static void XN(refused)(void) {
    ptrdiff_t n[2] = {8, 10}, ln0, s0, ln1, s1;
    ptrdiff_t alloc = XM(local_size_transposed)(2, n, MPI_COMM_WORLD, &ln0, &s0, &ln1, &s1);
    R *a = X(alloc_real)(2 * alloc);
    X(plan) p = XM(plan_dft_r2c)(2, n, a, (XN(cplx) *) a, MPI_COMM_WORLD,
                                 FFTW_ESTIMATE | FFTW_MPI_TRANSPOSED_IN);
    X(plan) q = XM(plan_dft_c2r)(2, n, (XN(cplx) *) a, a, MPI_COMM_WORLD,
                                 FFTW_ESTIMATE | FFTW_MPI_TRANSPOSED_OUT);
    fprintf(out, "R %srefused %d %d\n", TAG, p == NULL, q == NULL);
    if (p) X(destroy_plan)(p);
    if (q) X(destroy_plan)(q);
    X(free)(a);
}

static void XN(run_all)(void) {
    XM(init)();
    ptrdiff_t a[2] = {12, 10}, b[3] = {6, 5, 4}, c[3] = {5, 6, 4}, d[2] = {10, 6};
    XN(c2c)("c2c2d", 2, a, 0, FFTW_FORWARD, 0);
    XN(c2c)("c2c3d_tout", 3, b, FFTW_MPI_TRANSPOSED_OUT, FFTW_BACKWARD, 0);
    XN(c2c)("c2c3d_tin", 3, c, FFTW_MPI_TRANSPOSED_IN, FFTW_FORWARD, 0);
    XN(c2c)("c2c2d_inplace_tout", 2, d, FFTW_MPI_TRANSPOSED_OUT, FFTW_FORWARD, 1);
    XN(c2c)("c2c3d_inplace", 3, c, 0, FFTW_FORWARD, 1);
    XN(c2c_1d)("c2c1d_48", 48, FFTW_FORWARD);
    XN(c2c_1d)("c2c1d_60b", 60, FFTW_BACKWARD);
    XN(c2c_1d_scrambled)("c2c1d_scrambled", 36);
    ptrdiff_t r2[2] = {8, 10}, r3[3] = {6, 4, 7};
    XN(r2c_c2r)("r2c2d", 2, r2, 0);
    XN(r2c_c2r)("r2c3d", 3, r3, 0);
    XN(r2c_c2r)("r2c3d_t", 3, r3, 1);
    XN(r2c_c2r)("r2c2d_t", 2, r2, 1);
    XN(r2r_2d)("r2r2d", 9, 8);
    XN(many)("many2d", 6, 8, 3, FFTW_MPI_DEFAULT_BLOCK);
    XN(many)("many2d_block5", 12, 8, 2, 5);
    XN(c2c)("c2c2d_tin_tout", 2, a, FFTW_MPI_TRANSPOSED_IN | FFTW_MPI_TRANSPOSED_OUT, FFTW_BACKWARD, 0);
    XN(transpose)("transpose", 7, 5, 0);
    XN(transpose)("transpose_tin", 7, 5, FFTW_MPI_TRANSPOSED_IN);
    XN(transpose)("transpose_tout", 6, 9, FFTW_MPI_TRANSPOSED_OUT);
    XN(transpose)("transpose_tin_tout", 9, 4, FFTW_MPI_TRANSPOSED_IN | FFTW_MPI_TRANSPOSED_OUT);
    XN(r2r_1d)("r2r1d", 40);
    XN(refused)();
    XM(gather_wisdom)(MPI_COMM_WORLD);
    XM(broadcast_wisdom)(MPI_COMM_WORLD);
    XM(cleanup)();
}
