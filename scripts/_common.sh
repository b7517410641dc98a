# Shared by scripts/start and scripts/test: find a Python and make .venv with the requirements.
# shellcheck shell=bash
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

python_ok() {
    # The candidate must really run (pyenv shims of versions not activated only print an error).
    "$1" -c 'import sys, venv; sys.exit(0 if sys.version_info >= (3, 11) else 1)' >/dev/null 2>&1
}

python_version_of() {
    "$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])'
}

pick_python() {
    # The newest Python >= 3.12 that runs (Django 6.1), else python3 (3.11 gets Django 5.2).
    local candidate
    for candidate in python3.14 python3.13 python3.12 \
        $(ls -d /root/.pyenv/versions/3.1[2-9]*/bin/python3.1[2-9] 2>/dev/null | sort -rV); do
        if command -v "$candidate" >/dev/null 2>&1 && python_ok "$candidate" \
            && "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' 2>/dev/null; then
            echo "$candidate"
            return
        fi
    done
    for candidate in python3 python; do
        if command -v "$candidate" >/dev/null 2>&1 && python_ok "$candidate"; then
            echo "$candidate"
            return
        fi
    done
    echo "error: no Python 3.11 or newer found" >&2
    exit 1
}

ensure_venv() {
    # $@: requirement files to install into .venv (skipped when unchanged since last time).
    local py want stamp
    if [ -x .venv/bin/python ] && python_ok .venv/bin/python; then
        py=.venv/bin/python
    else
        py="$(pick_python)"
        echo "Creating .venv with $py (Python $(python_version_of "$py"))"
        rm -rf .venv
        "$py" -m venv .venv
    fi
    want="$(cat "$@" | sha256sum | cut -d' ' -f1)"
    stamp=".venv/.requirements-$(echo "$*" | tr ' /' '__')"
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
        echo "Installing $* into .venv"
        .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
        local args=()
        for f in "$@"; do args+=(-r "$f"); done
        .venv/bin/python -m pip install --quiet --disable-pip-version-check "${args[@]}"
        echo "$want" >"$stamp"
    fi
}
