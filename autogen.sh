#!/bin/sh
# Bootstrap the autotools build: creates configure and Makefile.in.
set -e
cd "$(dirname "$0")"
mkdir -p m4
exec autoreconf -fi
