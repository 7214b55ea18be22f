# Shared shell helpers for dev.sh, test.sh and bench.sh. Source, don't run.
# Everything is installed into the project (.venv, web/node_modules); nothing
# is downloaded by hand.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
export PATH="$VENV/bin:$HOME/.cargo/bin:$PATH"
# The stand-in accepts any credentials; these keep the SDKs from looking for real ones.
export AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing AWS_REGION=eu-north-1 AWS_DEFAULT_REGION=eu-north-1
export AWS_EC2_METADATA_DISABLED=true
export CARGO_TERM_COLOR=never

log() { printf '\n==> [%s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }




# The exact moto the stand-in's DynamoDB patch (infra/stand_in_dynamodb.py) is
# written against; the patch refuses any other, so ensure_venv installs this.
MOTO_PIN=$(sed -n 's/^MOTO_VERSION = "\(.*\)"$/\1/p' "$ROOT/infra/stand_in_dynamodb.py")

# venv_install VENV PACKAGE…: pip into that venv, without compiling every
# module to bytecode at install (pip's default): most are never imported
# (moto ships every AWS service). Each module a run imports is compiled once,
# when first imported, and kept (below).
venv_install() {
  "$1/bin/pip" install --quiet --disable-pip-version-check --no-compile "${@:2}"
}
# Python keeps the bytecode of what it imports beside the module (in the
# venv; infra/__pycache__ is ignored by git), so the thirty-odd Python
# processes of a test run compile each module once, not each process again.
# Some machines set this (this sandbox does).
unset PYTHONDONTWRITEBYTECODE

ensure_venv() {
  if [ ! -x "$VENV/bin/python" ]; then
    log "creating the project venv (.venv)"
    python3 -m venv "$VENV"
  fi
  local missing=() moto_installed
  moto_installed=$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("moto"))' 2>/dev/null || true)
  if [ "$moto_installed" != "$MOTO_PIN" ] || [ ! -x "$VENV/bin/moto_server" ]; then
    [ -n "$moto_installed" ] && log "moto $moto_installed in .venv, the stand-in needs $MOTO_PIN"
    missing+=("moto[server]==$MOTO_PIN")
  fi
  # dev.sh needs only the stand-in: the test tools below are left to the first test run.
  if [ "${1:-}" = "--stand-in" ]; then
    if [ ${#missing[@]} -gt 0 ]; then
      log "installing into .venv: ${missing[*]}"
      venv_install "$VENV" "${missing[@]}"
    fi
    return 0
  fi
  [ -x "$VENV/bin/cfn-lint" ] || missing+=("cfn-lint==1.58.*")
  "$VENV/bin/python" -c 'import openapi_spec_validator' 2>/dev/null || missing+=("openapi-spec-validator==0.9.*")
  # The generated fuzz of every operation (infra/fuzz.sh).
  [ -x "$VENV/bin/st" ] || missing+=("schemathesis==4.*")
  if [ "${1:-}" = "--lambda" ]; then
    [ -x "$VENV/bin/cargo-lambda" ] || missing+=("cargo-lambda")
    "$VENV/bin/python" -c 'import ziglang' 2>/dev/null || missing+=("ziglang")
  fi
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing into .venv: ${missing[*]}"
    venv_install "$VENV" "${missing[@]}"
  fi
}

# cargo fmt and clippy come with rustup's default profile; add them if a
# minimal toolchain lacks them.
ensure_rust_tools() {
  local missing=()
  cargo fmt --version >/dev/null 2>&1 || missing+=(rustfmt)
  cargo clippy --version >/dev/null 2>&1 || missing+=(clippy)
  if [ ${#missing[@]} -gt 0 ]; then
    log "adding Rust components: ${missing[*]}"
    rustup component add "${missing[@]}"
  fi
}

# Installs the web's packages when node_modules was not installed from this
# package-lock.json (its hash is kept beside them: a file time would also
# change with a checkout that leaves the lock file as it was).
ensure_web_deps() {
  local stamp="$ROOT/web/node_modules/.installed-from-lock" want
  want=$(sha256sum "$ROOT/web/package-lock.json" | cut -d' ' -f1)
  if [ ! -d "$ROOT/web/node_modules" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    log "installing web dependencies (npm ci)"
    (cd "$ROOT/web" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$want" >"$stamp"
  fi
}

# Lighthouse for the web benchmark (infra/lighthouse: npm, apart from the web
# app's packages; puppeteer-core, no browser download), when missing or its
# lock changed.
ensure_lighthouse() {
  local dir="$ROOT/infra/lighthouse" want
  want=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
  if [ ! -d "$dir/node_modules" ] || [ "$(cat "$dir/node_modules/.installed-from-lock" 2>/dev/null)" != "$want" ]; then
    log "installing Lighthouse (infra/lighthouse, npm ci)"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$want" >"$dir/node_modules/.installed-from-lock"
  fi
}

build_web() {
  ensure_web_deps
  log "building the web app"
  (cd "$ROOT/web" && npm run build --silent)
}

# A digest of everything the web build reads: the web app's files (tracked or
# new, not ignored; the browser and unit tests left out, they are not built)
# and the dependency lock. Same digest, same dist/.
web_source_hash() {
  python3 - "$ROOT" <<'PY'
import hashlib, os, re, subprocess, sys
root = sys.argv[1]
names = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "web"],
                       check=True, capture_output=True).stdout.decode().split("\0")
skip = re.compile(r"^web/(e2e/|src/test/|README\.md$)|\.test\.tsx?$")
digest = hashlib.sha256()
for name in sorted(set(names)):
    path = os.path.join(root, name)
    # Not the node_modules link some clones have, nor a file deleted but not yet committed.
    if not name or skip.search(name) or os.path.islink(path) or not os.path.isfile(path):
        continue
    digest.update(name.encode() + b"\0" + hashlib.sha256(open(path, "rb").read()).digest())
print(digest.hexdigest()[:32])
PY
}

# web/dist for dev.sh, built only when its sources changed: kept when
# web/dist/.source-hash matches, else copied from this machine's cache of
# earlier builds (another clone's or branch's, by digest: no npm ci, no build),
# else built without the type check (test.sh runs it) and put in the cache
# (the last three builds are kept).
ensure_web_dist() {
  local hash cache dist="$ROOT/web/dist"
  hash=$(web_source_hash)
  cache="${XDG_CACHE_HOME:-$HOME/.cache}/legal-platform/web-dist"
  if [ "$(cat "$dist/.source-hash" 2>/dev/null)" = "$hash" ]; then
    log "web app unchanged since its last build ($hash): reused"
    return 0
  fi
  if [ -f "$cache/$hash/.source-hash" ]; then
    log "web app $hash built before on this machine: copied from $cache"
    rm -rf "$dist" && cp -a "$cache/$hash" "$dist"
    return 0
  fi
  ensure_web_deps
  log "building the web app ($hash)"
  (cd "$ROOT/web" && npx vite build --logLevel warn)
  printf '%s\n' "$hash" >"$dist/.source-hash"
  mkdir -p "$cache"
  rm -rf "$cache/$hash.tmp" && cp -a "$dist" "$cache/$hash.tmp" && mv "$cache/$hash.tmp" "$cache/$hash"
  # Newest three stay.
  ls -1dt "$cache"/*/ 2>/dev/null | tail -n +4 | xargs -r rm -rf
}

ensure_chromium() {
  if [ ! -x /usr/bin/chromium ]; then
    log "installing Debian's chromium for browser tests"
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
  fi
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

wait_for_http() { # url, seconds (python3, not curl: one less thing a fresh machine needs)
  python3 - "$1" "${2:-30}" <<'PY'
import sys, time, urllib.request, urllib.error
url, deadline = sys.argv[1], time.time() + float(sys.argv[2])
while time.time() < deadline:
    try:
        urllib.request.urlopen(url, timeout=2); sys.exit(0)
    except urllib.error.HTTPError:
        sys.exit(0)  # it answered
    except Exception:
        time.sleep(0.1)
print(f"timed out waiting for {url}", file=sys.stderr); sys.exit(1)
PY
}

# Starts moto's server on 127.0.0.1:$1 in the background (through
# infra/stand_in.py: requests handled one at a time, so conditional writes are
# atomic as on DynamoDB); sets MOTO_PID and AWS_ENDPOINT_URL.
# With STAND_IN_STATE=FILE set, the stand-in loads its state from FILE at start
# and saves it there when it gets SIGTERM (stop_stand_in).
start_stand_in() {
  local port=$1 logfile=${2:-"$ROOT/.local/moto-$1.log"}
  mkdir -p "$(dirname "$logfile")"
  "$VENV/bin/python" "$ROOT/infra/stand_in.py" 127.0.0.1 "$port" ${STAND_IN_STATE:+--state "$STAND_IN_STATE"} >"$logfile" 2>&1 &
  MOTO_PID=$!
  export AWS_ENDPOINT_URL="http://127.0.0.1:$port"
  local waited=0
  until wait_for_http "$AWS_ENDPOINT_URL/moto-api/" 1 2>/dev/null; do
    waited=$((waited + 1))
    if ! kill -0 "$MOTO_PID" 2>/dev/null || [ "$waited" -ge 300 ]; then
      cat "$logfile" >&2
      log "the AWS stand-in did not start (log: $logfile)"
      return 1
    fi
  done
}

# Stops the stand-in start_stand_in started and waits until it has exited
# (with STAND_IN_STATE set, after saving its state).
stop_stand_in() {
  [ -n "${MOTO_PID:-}" ] || return 0
  kill "$MOTO_PID" 2>/dev/null || true
  wait "$MOTO_PID" 2>/dev/null || true
  MOTO_PID=""
}

# The workspace's target directory (honours CARGO_TARGET_DIR and .cargo/config).
cargo_target_dir() {
  cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])'
}

# cargo_build ARGS…: `cargo build ARGS…`. With EXPECT_BUILT=1 (infra/test.sh
# sets it for what runs after its one build of everything) the call must
# compile nothing: infra/cargo_built.py fails the run naming what it compiled.
cargo_build() {
  if [ "${EXPECT_BUILT:-0}" = 1 ]; then
    cargo build "$@" --message-format=json-render-diagnostics | python3 "$ROOT/infra/cargo_built.py" "cargo build $*" >/dev/null
  else
    cargo build "$@"
  fi
}
