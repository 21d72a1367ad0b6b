/* replay.c - runs a fuzz target over files without libFuzzer, so that
 * "make check" replays the committed corpus and every past crasher with
 * any compiler.  Usage: replay_TARGET FILE|DIR... */
#include "fuzz.h"

#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char *data = NULL;
    long size;

    if (!f) {
        perror(path);
        return 1;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 ||
        fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        fprintf(stderr, "%s: cannot size the file\n", path);
        return 1;
    }
    data = malloc((size_t)size + 1);
    if (!data || fread(data, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "%s: cannot read the file\n", path);
        free(data);
        fclose(f);
        return 1;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(data, (size_t)size);
    free(data);
    return 0;
}

static int replay_path(const char *path, unsigned long *count)
{
    struct stat st;
    DIR *d;
    struct dirent *e;
    int bad = 0;

    if (stat(path, &st) != 0) {
        perror(path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
        (*count)++;
        return replay_file(path);
    }
    d = opendir(path);
    if (!d) {
        perror(path);
        return 1;
    }
    while ((e = readdir(d))) {
        char sub[4096];
        if (e->d_name[0] == '.')
            continue;
        snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
        bad |= replay_path(sub, count);
    }
    closedir(d);
    return bad;
}

int main(int argc, char **argv)
{
    unsigned long count = 0;
    int i, bad = 0;

    for (i = 1; i < argc; i++)
        bad |= replay_path(argv[i], &count);
    printf("%s: replayed %lu inputs\n", argv[0], count);
    return bad;
}
