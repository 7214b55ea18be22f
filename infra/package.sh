#!/usr/bin/env bash
# Builds every Lambda binary of the workspace as a deployable zip
# (target/lambda/<binary>/bootstrap.zip) with cargo-lambda, for Graviton
# (arm64, as template.yaml declares), and prints the zip sizes.
#
# The binaries are the crates under functions/ (binary name = crate name), so
# a new crate is picked up without editing this script; the list is checked
# against the Binary entries of template.yaml and a mismatch is reported.
#
# cargo-lambda and the Zig toolchain it links with come from PyPI into the
# project venv (.venv at the repo root, created if missing): nothing is
# downloaded by hand. `sam build` runs the same cargo-lambda.
#
# Usage: infra/package.sh [extra `cargo lambda build` arguments, e.g. --locked]
# LAMBDA_ARCH=x86_64 builds for x86_64 instead; only for trying the script on
# a machine without the aarch64 standard library: template.yaml deploys arm64.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
arch="${LAMBDA_ARCH:-arm64}"

case "$arch" in
    arm64) arch_flag=--arm64; triple=aarch64-unknown-linux-gnu ;;
    x86_64) arch_flag=--x86-64; triple=x86_64-unknown-linux-gnu
        echo "warning: LAMBDA_ARCH=x86_64: these zips do not run on the arm64 functions of template.yaml" >&2 ;;
    *) echo "LAMBDA_ARCH must be arm64 or x86_64, not '$arch'" >&2; exit 2 ;;
esac

# --- tools -------------------------------------------------------------------
if [[ ! -x "$venv/bin/python" ]]; then
    echo "creating $venv" >&2
    python3 -m venv "$venv"
fi
missing=()
[[ -x "$venv/bin/cargo-lambda" ]] || missing+=(cargo-lambda)
"$venv/bin/python" -c 'import ziglang' 2>/dev/null || missing+=(ziglang)
if ((${#missing[@]})); then
    echo "installing ${missing[*]} into $venv" >&2
    "$venv/bin/pip" install --quiet "${missing[@]}"
fi
# cargo finds the `cargo-lambda` subcommand on PATH; cargo-lambda finds Zig as
# `python3 -m ziglang` from the same venv.
export PATH="$venv/bin:$PATH"

if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx "$triple"; then
    echo "installing the Rust standard library for $triple (rustup)" >&2
    if ! rustup target add "$triple"; then
        echo "error: no Rust standard library for $triple; run 'rustup target add $triple' where the" >&2
        echo "       Rust distribution server is reachable (or LAMBDA_ARCH=x86_64 to only try the script)" >&2
        exit 1
    fi
fi

cd "$root"

# --- which binaries ----------------------------------------------------------
bins=()
for manifest in functions/*/Cargo.toml; do
    [[ -f "$manifest" ]] || continue
    # First `name = "..."` of the file: the [package] name, which is the binary's.
    name="$(sed -n 's/^[[:space:]]*name[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' "$manifest" | head -n 1)"
    [[ -n "$name" ]] || { echo "error: no package name in $manifest" >&2; exit 1; }
    bins+=("$name")
done
((${#bins[@]})) || { echo "error: no crates under functions/" >&2; exit 1; }

mapfile -t deployed < <(sed -n 's/^[[:space:]]*Binary:[[:space:]]*\([A-Za-z0-9_-]*\).*/\1/p' template.yaml | sort -u)
for b in "${bins[@]}"; do
    printf '%s\n' "${deployed[@]}" | grep -qx "$b" ||
        echo "note: functions/ crate '$b' has no function in template.yaml (built, not deployed)" >&2
done
for d in "${deployed[@]}"; do
    printf '%s\n' "${bins[@]}" | grep -qx "$d" || {
        echo "error: template.yaml deploys Binary '$d' but no crate under functions/ is named so" >&2
        exit 1
    }
done

# The workspace's shared target directory (honours CARGO_TARGET_DIR and
# .cargo/config), where cargo-lambda writes target/lambda/<binary>/.
target_dir="$(cargo_target_dir)"

# --- build -------------------------------------------------------------------
bin_args=()
for b in "${bins[@]}"; do bin_args+=(--bin "$b"); done

echo "cargo lambda build --release $arch_flag --output-format zip ${bin_args[*]} $*" >&2
start=$SECONDS
cargo lambda build --release "$arch_flag" --output-format zip "${bin_args[@]}" "$@"
elapsed=$((SECONDS - start))

# --- report ------------------------------------------------------------------
human() { numfmt --to=iec-i --suffix=B --format='%.1f' "$1"; }
printf '\n%-24s %12s %14s  %s\n' "binary ($arch)" "zip" "bootstrap" "file"
status=0
for b in "${bins[@]}"; do
    zip="$target_dir/lambda/$b/bootstrap.zip"
    if [[ ! -f "$zip" ]]; then
        printf '%-24s %12s %14s  %s\n' "$b" "missing" "-" "$zip"
        status=1
        continue
    fi
    zip_bytes=$(stat -c %s "$zip")
    # Uncompressed size of the one entry, from the zip's own directory.
    raw_bytes=$(python3 -c 'import sys, zipfile; print(sum(i.file_size for i in zipfile.ZipFile(sys.argv[1]).infolist()))' "$zip")
    printf '%-24s %12s %14s  %s\n' "$b" "$(human "$zip_bytes")" "$(human "$raw_bytes")" "${zip#"$root"/}"
done
printf '\nbuilt in %dm%02ds\n' $((elapsed / 60)) $((elapsed % 60))
exit "$status"
