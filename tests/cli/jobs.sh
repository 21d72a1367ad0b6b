#!/bin/sh
# jobs.sh - -j N on big documents: memory does not grow with a file's
# output, and the output of the file at the head of the output order
# streams (jobs.c).  Before, each file's whole output was held in memory
# until the file ended: "links --format=json" on a 40 MB document peaked
# at 190 MB and printed nothing until the end.  Not run under valgrind
# (.ci/run runs only run.sh there): the documents are tens of MB.
#
# 1. Peak RSS (GNU time, %M) of "links --format=json -j 2" and "check
#    -j 2" on a 5 MB and a 40 MB document (about 25 and 190 MB of JSON
#    output): the bigger one may use at most 16 MiB more.  Skipped under
#    AddressSanitizer ($ASAN_OPTIONS set; its quarantine holds freed
#    memory).
# 2. "links -j 2 FIFO | head -c 100": the document is fed through a FIFO
#    by a writer that counts what it could write before xiri stopped
#    reading (xiri stops at the write error once head has exited): far
#    less than the document, because output came before the input ended.
#    Nothing is timed.
#
# Environment: XIRI, the command to run; top_srcdir, the source tree.
# Exits 77 (skipped) without python3, timeout or GNU time.

LC_ALL=C
export LC_ALL
unset LANG LANGUAGE XIRI_TEST_CAPTURE_LIMIT 2>/dev/null

if [ -z "${XIRI:-}" ]; then
    XIRI=$PWD/xiri
fi
for t in python3 timeout; do
    if ! command -v $t >/dev/null 2>&1; then
        echo "SKIP: jobs.sh: $t is missing"
        exit 77
    fi
done
if ! /usr/bin/time -f %M true >/dev/null 2>&1; then
    echo "SKIP: jobs.sh: GNU time (/usr/bin/time, package time) is missing"
    exit 77
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/xiri-jobs.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
trap 'exit 99' HUP INT TERM
cd "$work" || exit 99

# gen.py BYTES: an XHTML document of about BYTES bytes, one link a line
cat >gen.py <<'PY'
import sys

n = int(sys.argv[1])
out = sys.stdout
out.write('<?xml version="1.0" encoding="UTF-8"?>\n'
          '<html xmlns="http://www.w3.org/1999/xhtml"><body>\n')
size = i = 0
while size < n:
    line = ('<p><a href="http://example.com/p%d/caf%%C3%%A9?q=%d">l</a></p>\n'
            % (i, i))
    out.write(line)
    size += len(line)
    i += 1
out.write('</body></html>\n')
PY
# feed.py DOC FIFO: write DOC into FIFO 64 KiB at a time; print the bytes
# written when the reader went away (or all of them)
cat >feed.py <<'PY'
import sys

data = open(sys.argv[1], "rb").read()
done = 0
try:
    with open(sys.argv[2], "wb", buffering=0) as f:
        while done < len(data):
            done += f.write(data[done:done + 65536])
except BrokenPipeError:
    pass
print(done)
PY

python3 gen.py 5000000 >d5.xhtml && python3 gen.py 40000000 >d40.xhtml ||
    exit 99

pass=0
fail=0
ok() {
    pass=$((pass + 1))
    echo "PASS: $1"
}
ko() {
    fail=$((fail + 1))
    echo "FAIL: $1"
}

# 1. peak RSS
if [ -n "${ASAN_OPTIONS:-}" ]; then
    echo "# RSS not measured: AddressSanitizer"
else
    for cmd in "links --format=json" "check"; do
        for d in d5 d40; do
            # $cmd is split on purpose
            timeout 120 /usr/bin/time -o rss.$d -f %M $XIRI $cmd -q -j 2 \
                $d.xhtml >out.$d 2>err.$d
            echo $? >st.$d
        done
        rss5=$(tail -n 1 rss.d5)
        rss40=$(tail -n 1 rss.d40)
        bytes=$(wc -c <out.d40)
        if [ "$(cat st.d5)" != 0 ] || [ "$(cat st.d40)" != 0 ] ||
            [ -s err.d40 ]; then
            ko "$cmd: exit status $(cat st.d40): $(head -c 300 err.d40)"
        elif [ "$cmd" = check ] || [ "$bytes" -gt 150000000 ]; then
            if [ "$rss40" -le $((rss5 + 16384)) ]; then
                ok "$cmd -j 2: peak RSS $rss5 KB (5 MB), $rss40 KB (40 MB; $bytes bytes out)"
            else
                ko "$cmd -j 2: peak RSS $rss5 KB (5 MB), $rss40 KB (40 MB; $bytes bytes out)"
            fi
        else
            ko "$cmd: only $bytes bytes of output"
        fi
    done
fi

# 2. the output streams
mkfifo in.xhtml || exit 99
total=$(wc -c <d40.xhtml)
timeout 120 python3 feed.py d40.xhtml in.xhtml >fed &
timeout 120 $XIRI links --format=json -j 2 in.xhtml 2>err | head -c 100 >first
wait
fed=$(cat fed)
if ! grep -q '^{"file":"in.xhtml"' first; then
    ko "streaming: the first output is not a record: $(head -c 100 first)"
elif [ -n "$fed" ] && [ "$fed" -lt $((total / 4)) ]; then
    ok "streaming: xiri stopped after $fed of $total bytes"
else
    ko "streaming: xiri read ${fed:-?} of $total bytes before any output"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
