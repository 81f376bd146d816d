// Runs a fuzz target over saved inputs without libFuzzer: the same LLVMFuzzerTestOneInput, linked with
// this main instead of -fsanitize=fuzzer, so that every build (gcc too) replays the corpus and every
// input that ever crashed or hung (tests/fuzz/regressions/) as a test.
//
//   replay [-timeout=SECONDS] PATH...
//
// A PATH is a file or a directory (its files, sorted by name; names starting with '.' and README
// files are skipped). A directory without inputs is an error, so a corpus that went missing is
// noticed. An input that runs longer than -timeout seconds is reported with its name and fails the
// run, as libFuzzer's -timeout does; an invariant broken by an input aborts, after "Running: NAME".
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *g_current = "";
static unsigned g_timeout;

static void on_alarm(int sig)
{
    (void)sig;
    // async-signal-safe output only
    const char *a = "replay: input ran longer than the timeout: ";
    ssize_t unused = write(2, a, strlen(a));
    unused = write(2, g_current, strlen(g_current));
    unused = write(2, "\n", 1);
    (void)unused;
    _exit(70);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct stats {
    int inputs;
    double slowest_s;
    char slowest[4096];
} stats;

static int run_file(const char *path, stats *st)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return 1;
    }
    size_t cap = 4096, size = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fprintf(stderr, "replay: out of memory reading %s\n", path);
            fclose(f);
            return 1;
        }
        size += fread(buf + size, 1, cap - size, f);
        if (size < cap)
            break;
        uint8_t *bigger = realloc(buf, cap * 2);
        if (!bigger)
            free(buf);
        buf = bigger;
        cap *= 2;
    }
    int error = ferror(f);
    fclose(f);
    if (error) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        free(buf);
        return 1;
    }
    printf("Running: %s (%zu bytes)\n", path, size);
    fflush(stdout);
    g_current = path;
    // libFuzzer hands the target a buffer of exactly `size` bytes; so does this (ASan sees overreads)
    uint8_t *exact = malloc(size ? size : 1);
    if (!exact) {
        free(buf);
        return 1;
    }
    memcpy(exact, buf, size);
    free(buf);
    if (g_timeout)
        alarm(g_timeout);
    double t0 = now_s();
    LLVMFuzzerTestOneInput(exact, size);
    double dt = now_s() - t0;
    alarm(0);
    free(exact);
    ++st->inputs;
    if (dt > st->slowest_s) {
        st->slowest_s = dt;
        snprintf(st->slowest, sizeof st->slowest, "%s", path);
    }
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int run_dir(const char *dir, stats *st)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "replay: cannot open directory %s\n", dir);
        return 1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || strncmp(e->d_name, "README", 6) == 0)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **bigger = realloc(names, cap * sizeof *names);
            if (!bigger)
                abort();
            names = bigger;
        }
        if (!(names[n++] = strdup(e->d_name)))
            abort();
    }
    closedir(d);
    qsort(names, n, sizeof *names, compare_names);
    int failed = 0, ran = 0;
    for (size_t i = 0; i < n; ++i) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        struct stat sb;
        if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
            failed |= run_file(path, st);
            ++ran;
        }
        free(names[i]);
    }
    free(names);
    if (ran == 0) {
        fprintf(stderr, "replay: no inputs in %s\n", dir);
        return 1;
    }
    return failed;
}

int main(int argc, char **argv)
{
    stats st = {0, 0.0, ""};
    int failed = 0, paths = 0;
    signal(SIGALRM, on_alarm);
    double t0 = now_s();
    for (int i = 1; i < argc; ++i) {
        if (strncmp(argv[i], "-timeout=", 9) == 0) {
            g_timeout = (unsigned)strtoul(argv[i] + 9, NULL, 10);
            continue;
        }
        if (argv[i][0] == '-') {
            fprintf(stderr, "replay: unknown option %s\nusage: %s [-timeout=SECONDS] FILE_OR_DIRECTORY...\n", argv[i],
                    argv[0]);
            return 2;
        }
        struct stat sb;
        if (stat(argv[i], &sb) != 0) {
            fprintf(stderr, "replay: no such file or directory: %s\n", argv[i]);
            failed = 1;
        } else {
            failed |= S_ISDIR(sb.st_mode) ? run_dir(argv[i], &st) : run_file(argv[i], &st);
        }
        ++paths;
    }
    if (paths == 0) {
        fprintf(stderr, "usage: %s [-timeout=SECONDS] FILE_OR_DIRECTORY...\n", argv[0]);
        return 2;
    }
    printf("replayed %d inputs in %.2f s; slowest %.3f s: %s\n", st.inputs, now_s() - t0, st.slowest_s, st.slowest);
    return failed;
}
