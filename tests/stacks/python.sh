#!/usr/bin/env bash
# The interpreter for a stack's venv: `python.sh STACK DEFAULT`. A stack whose folder holds a
# `python-version` file (e.g. 3.13) gets that Python, found on PATH or else among pyenv's versions;
# any other stack gets DEFAULT (the Makefile's Python).
set -euo pipefail
stack=$1 default=$2
file="tests/stacks/$stack/python-version"
if [ ! -f "$file" ]; then echo "$default"; exit 0; fi
version=$(tr -d '[:space:]' < "$file")
if command -v "python$version" >/dev/null 2>&1 && "python$version" -c "" >/dev/null 2>&1; then
    command -v "python$version"; exit 0
fi
if command -v pyenv >/dev/null 2>&1; then
    for installed in $(pyenv versions --bare | grep -E "^${version//./\\.}(\.|$)" | sort -V -r); do
        if found=$(PYENV_VERSION=$installed pyenv which "python$version" 2>/dev/null); then echo "$found"; exit 0; fi
    done
fi
echo "tests/stacks/$stack needs Python $version: none on PATH or in pyenv" >&2
exit 1
