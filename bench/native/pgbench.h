/*
 * What bench/run's native sides (cloops.c, oclhost.c) share: the data file the Java side writes (inputs) and
 * reads back (outputs), and the command loop it drives them with.
 *
 * Data file, little-endian: "PGB1", int32 count + that many int32, int32 count + that many float64,
 * int32 count of arrays, then per array int32 element size (4: float32, 8: float64), int64 length, the elements.
 *
 * Commands, one per line on stdin; each answer is one line on stdout:
 *   run         one iteration: restore the inputs it overwrites (untimed), then the timed part -> "ms <time>"
 *   write PATH  the last iteration's outputs as a data file -> "ok"
 * End of input ends the program (exit 0). Before the first command the program prints "ready <threads>", the
 * number of threads it will run on, so that the caller can check that its setting took. Errors go to stderr
 * with exit status 1; exit status 3 means the tool is not there (no pocl platform).
 */
#ifndef PGBENCH_H
#define PGBENCH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PG_MAX 8

typedef struct {
    int n_ints;
    int32_t ints[PG_MAX];
    int n_doubles;
    double doubles[PG_MAX];
    int n_arrays;
    int32_t elem[PG_MAX];
    int64_t len[PG_MAX];
    void *data[PG_MAX];
} pg_data;

static void pg_die(const char *what, const char *detail)
{
    fprintf(stderr, "%s: %s\n", what, detail);
    exit(1);
}

static void pg_read_exact(FILE *f, void *p, size_t bytes, const char *path)
{
    if (fread(p, 1, bytes, f) != bytes) {
        pg_die(path, "truncated data file");
    }
}

static int32_t pg_read_count(FILE *f, const char *path)
{
    int32_t c;
    pg_read_exact(f, &c, 4, path);
    if (c < 0 || c > PG_MAX) {
        pg_die(path, "bad count in data file");
    }
    return c;
}

static void pg_read(const char *path, pg_data *d)
{
    FILE *f = fopen(path, "rb");
    char magic[4];
    if (f == NULL) {
        pg_die(path, "cannot open data file");
    }
    pg_read_exact(f, magic, 4, path);
    if (memcmp(magic, "PGB1", 4) != 0) {
        pg_die(path, "not a PGB1 data file");
    }
    memset(d, 0, sizeof *d);
    d->n_ints = pg_read_count(f, path);
    pg_read_exact(f, d->ints, 4 * (size_t) d->n_ints, path);
    d->n_doubles = pg_read_count(f, path);
    pg_read_exact(f, d->doubles, 8 * (size_t) d->n_doubles, path);
    d->n_arrays = pg_read_count(f, path);
    for (int a = 0; a < d->n_arrays; a++) {
        pg_read_exact(f, &d->elem[a], 4, path);
        pg_read_exact(f, &d->len[a], 8, path);
        if ((d->elem[a] != 4 && d->elem[a] != 8) || d->len[a] < 0) {
            pg_die(path, "bad array header in data file");
        }
        size_t bytes = (size_t) d->elem[a] * (size_t) d->len[a];
        d->data[a] = aligned_alloc(64, bytes + 64);
        if (d->data[a] == NULL) {
            pg_die(path, "out of memory");
        }
        pg_read_exact(f, d->data[a], bytes, path);
    }
    fclose(f);
}

/* Writes no ints or doubles, and the given arrays. */
static void pg_write(const char *path, int n_arrays, const int32_t *elem, const int64_t *len, void *const *data)
{
    FILE *f = fopen(path, "wb");
    int32_t zero = 0;
    int32_t count = n_arrays;
    if (f == NULL) {
        pg_die(path, "cannot create output file");
    }
    fwrite("PGB1", 1, 4, f);
    fwrite(&zero, 4, 1, f);
    fwrite(&zero, 4, 1, f);
    fwrite(&count, 4, 1, f);
    for (int a = 0; a < n_arrays; a++) {
        fwrite(&elem[a], 4, 1, f);
        fwrite(&len[a], 8, 1, f);
        if (fwrite(data[a], (size_t) elem[a], (size_t) len[a], f) != (size_t) len[a]) {
            pg_die(path, "write failed");
        }
    }
    if (fclose(f) != 0) {
        pg_die(path, "write failed");
    }
}

/* Writes one array holding the double v (a reduction's sum). */
static void pg_write_double(const char *path, double v)
{
    int32_t elem = 8;
    int64_t len = 1;
    void *data = &v;
    pg_write(path, 1, &elem, &len, &data);
}

static void pg_expect(const pg_data *d, int ints, int doubles, int arrays, const char *name)
{
    if (d->n_ints < ints || d->n_doubles < doubles || d->n_arrays < arrays) {
        pg_die(name, "data file has too few values for this case");
    }
}

static double pg_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* The case a program serves: reset (untimed), the timed part, and writing the outputs. */
typedef struct {
    void (*reset)(void);
    void (*run)(void);
    void (*write)(const char *path);
} pg_case;

static int pg_serve(const pg_case *c, int threads)
{
    char line[4096];
    printf("ready %d\n", threads);
    fflush(stdout);
    while (fgets(line, sizeof line, stdin) != NULL) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strcmp(line, "run") == 0) {
            c->reset();
            double t0 = pg_now_ms();
            c->run();
            double t1 = pg_now_ms();
            printf("ms %.6f\n", t1 - t0);
        } else if (strncmp(line, "write ", 6) == 0) {
            c->write(line + 6);
            printf("ok\n");
        } else {
            pg_die("unknown command", line);
        }
        fflush(stdout);
    }
    return 0;
}

#endif
