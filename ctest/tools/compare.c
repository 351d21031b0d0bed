/* compare REF OUT: numeric comparison of two test-program outputs.
 *
 * Format of the outputs (see progs/common.h):
 *   "# ..."           ignored (things that may legitimately differ between libraries);
 *   "== d label" or "== f label"
 *                     starts a block of double (d) or single (f) precision values;
 *   anything else     whitespace-separated tokens. A token that is entirely a finite number is
 *                     compared numerically, any other token must be equal.
 * Numbers agree when |out - ref| <= tol * scale, scale being the largest |value| of the block in
 * REF (1 if that is 0), tol being --dtol (default 1e-9) or --ftol (default 1e-4).
 * Exit status: 0 when everything agrees, 1 on a difference, 2 on a usage or I/O error. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { char *text; int lineno; } Line;
typedef struct { Line *v; int n, cap; } Lines;

static int read_lines(const char *path, Lines *out)
{
    FILE *f = fopen(path, "r");
    if (!f) { perror(path); return -1; }
    char *buf = NULL;
    size_t cap = 0;
    ssize_t len;
    int lineno = 0;
    out->v = NULL; out->n = out->cap = 0;
    while ((len = getline(&buf, &cap, f)) >= 0) {
        lineno++;
        while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r')) buf[--len] = 0;
        const char *s = buf;
        while (isspace((unsigned char)*s)) s++;
        if (*s == 0 || *s == '#') continue;
        if (out->n == out->cap) {
            out->cap = out->cap ? 2 * out->cap : 1024;
            out->v = realloc(out->v, out->cap * sizeof(Line));
        }
        out->v[out->n].text = strdup(s);
        out->v[out->n].lineno = lineno;
        out->n++;
    }
    free(buf);
    fclose(f);
    return 0;
}

/* Splits s into tokens (in place); returns the count. */
static int tokens(char *s, char **tok, int max)
{
    int n = 0;
    for (char *t = strtok(s, " \t"); t && n < max; t = strtok(NULL, " \t")) tok[n++] = t;
    return n;
}

static int number(const char *t, double *x)
{
    char *end;
    *x = strtod(t, &end);
    return end != t && *end == 0 && isfinite(*x);
}

#define MAXTOK 64

int main(int argc, char **argv)
{
    double dtol = 1e-9, ftol = 1e-4;
    const char *files[2] = {0, 0};
    int nf = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--dtol") && i + 1 < argc) dtol = atof(argv[++i]);
        else if (!strcmp(argv[i], "--ftol") && i + 1 < argc) ftol = atof(argv[++i]);
        else if (nf < 2) files[nf++] = argv[i];
        else nf = 3;
    }
    if (nf != 2) {
        fprintf(stderr, "usage: %s [--dtol X] [--ftol X] REF OUT\n", argv[0]);
        return 2;
    }
    Lines a, b;
    if (read_lines(files[0], &a) || read_lines(files[1], &b)) return 2;
    if (a.n == 0) {
        fprintf(stderr, "compare: %s has no output to compare\n", files[0]);
        return 1;
    }

    /* Block scales, from REF. */
    double *scale = calloc(a.n, sizeof(double));
    for (int i = 0; i < a.n;) {
        int j = i + 1;
        double m = 0;
        while (j < a.n && strncmp(a.v[j].text, "==", 2)) j++;
        for (int k = i; k < j; k++) {
            char *copy = strdup(a.v[k].text), *tok[MAXTOK];
            int nt = tokens(copy, tok, MAXTOK);
            double x;
            for (int t = 0; t < nt; t++)
                if (number(tok[t], &x)) m = fmax(m, fabs(x));
            free(copy);
        }
        for (int k = i; k < j; k++) scale[k] = m > 0 ? m : 1;
        i = j;
    }

    int errors = 0, values = 0;
    double worst[2] = {0, 0}; /* d, f: largest |diff| / scale */
    char block[256] = "(start)";
    double tol = dtol;
    int prec = 0;
    if (a.n != b.n) {
        fprintf(stderr, "compare: %d lines in %s, %d in %s\n", a.n, files[0], b.n, files[1]);
        errors++;
    }
    int n = a.n < b.n ? a.n : b.n;
    for (int i = 0; i < n && errors < 30; i++) {
        const char *la = a.v[i].text, *lb = b.v[i].text;
        if (!strncmp(la, "==", 2)) {
            snprintf(block, sizeof block, "%s", la);
            prec = (la[2] == ' ' && la[3] == 'f' && (la[4] == ' ' || la[4] == 0));
            tol = prec ? ftol : dtol;
        }
        char *ca = strdup(la), *cb = strdup(lb), *ta[MAXTOK], *tb[MAXTOK];
        int na = tokens(ca, ta, MAXTOK), nb = tokens(cb, tb, MAXTOK);
        int bad = na != nb;
        for (int t = 0; t < na && t < nb; t++) {
            double x, y;
            int nx = number(ta[t], &x), ny = number(tb[t], &y);
            if (nx && ny) {
                double r = fabs(x - y) / scale[i];
                values++;
                if (r > worst[prec]) worst[prec] = r;
                if (r > tol) bad = 1;
            } else if (nx != ny || strcmp(ta[t], tb[t])) {
                bad = 1;
            }
        }
        if (bad) {
            fprintf(stderr, "compare: difference in block \"%s\" (scale %.3g, tolerance %.1g):\n"
                            "  %s:%d: %s\n  %s:%d: %s\n",
                    block, scale[i], tol, files[0], a.v[i].lineno, la, files[1], b.v[i].lineno, lb);
            errors++;
        }
        free(ca);
        free(cb);
    }
    printf("compare: %d lines, %d numbers; largest relative difference %.3g (double), %.3g (single)\n",
           n, values, worst[0], worst[1]);
    if (errors) {
        fprintf(stderr, "compare: %s and %s differ%s\n", files[0], files[1],
                errors >= 30 ? " (stopped after 30 differences)" : "");
        return 1;
    }
    return 0;
}
