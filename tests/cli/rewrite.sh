#!/bin/sh
# rewrite.sh - property tests of "xiri rewrite" (tests/cli/rewrite_props.py):
# the golden cases against an independent model, fidelity outside the
# value spans, idempotence, --diff against diff -u, to-URI then to-IRI
# round trips, for every sample and generated documents, and in-place
# safety (permissions, backups, parse and I/O errors, signals).
#
# Environment: XIRI, the command to run (may hold a wrapper); top_srcdir,
# the source tree; REWRITE_SEED and REWRITE_DOCS vary the generated
# documents.  Exits 77 (skipped) without python3, diff or patch.

LC_ALL=C
export LC_ALL

if [ -z "${top_srcdir:-}" ]; then
    top_srcdir=$(cd "$(dirname "$0")/../.." && pwd) || exit 99
fi
if [ -z "${XIRI:-}" ]; then
    XIRI=$PWD/xiri
fi
export top_srcdir XIRI

for tool in python3 diff patch; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "rewrite.sh: $tool not found; skipped"
        exit 77
    fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/xiri-rewrite.XXXXXX") || exit 99
# the unwritable-directory test runs as another user when run as root
chmod 755 "$work"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
trap 'exit 99' HUP INT TERM

python3 "$top_srcdir/tests/cli/rewrite_props.py" "$work/t"
