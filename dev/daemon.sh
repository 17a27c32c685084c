# Sourced by ./polygpu. The daemon: a JVM that keeps the polyglot engine warm and runs each ./polygpu FILE in a
# fresh context of it (dev.polygpu.launcher.daemon), so that from the second run on a program starts in well
# under a second instead of several. ./polygpu then runs only a small client JVM that hands the command over.
#   POLYGPU_DAEMON=off        run in a JVM of its own, as before (always so for worker, notebook and simulate)
#   POLYGPU_DAEMON_IDLE=N     a daemon stops after N minutes with nothing to run (default 30)
#   POLYGPU_DAEMON_DIR=DIR    the folder of the user's daemons (default $XDG_RUNTIME_DIR/polygpu, else
#                             /tmp/polygpu-UID); it must be the user's alone (mode 700)
#   ./polygpu daemon status   lists the running daemons; ./polygpu daemon stop stops them

# Whether this command goes to the daemon: $@ = the command line (./polygpu daemon … is handled before).
polygpu_daemon_wanted() {
  case "${1:-}" in
    worker|notebook|simulate) return 1 ;;
  esac
  [ "${POLYGPU_DAEMON:-on}" != off ]
}

# Prints the user's daemon folder, made if missing; fails (with a message on stderr) when it is not the user's
# alone, since whoever can reach a daemon's socket can run programs as its user.
polygpu_daemon_dir() {
  local uid dir
  uid="$(id -u)"
  if [ -n "${POLYGPU_DAEMON_DIR:-}" ]; then dir="$POLYGPU_DAEMON_DIR"
  elif [ -n "${XDG_RUNTIME_DIR:-}" ] && [ -d "$XDG_RUNTIME_DIR" ]; then dir="$XDG_RUNTIME_DIR/polygpu"
  else dir="${TMPDIR:-/tmp}/polygpu-$uid"; fi
  if [ ! -d "$dir" ]; then
    (umask 077 && mkdir -p "$dir") 2>/dev/null || { echo "polygpu: cannot make the daemon folder $dir; running without the daemon" >&2; return 1; }
  fi
  if [ "$(stat -c '%u %a' "$dir")" != "$uid 700" ]; then
    echo "polygpu: the daemon folder $dir must belong to you with mode 700 (it is $(stat -c 'owner %U, mode %a' "$dir")); running without the daemon" >&2
    return 1
  fi
  printf '%s' "$dir"
}

# Prints the idle minutes, checked: $POLYGPU_DAEMON_IDLE or 30.
polygpu_daemon_idle() {
  local idle="${POLYGPU_DAEMON_IDLE:-30}"
  case "$idle" in
    ''|*[!0-9]*|0) echo "polygpu: POLYGPU_DAEMON_IDLE takes a whole number of minutes of at least 1, not '$idle'; using 30" >&2; idle=30 ;;
  esac
  printf '%s' "$idle"
}

# Prints the build's identity: the installation's jars and the JVM command. A daemon of another build is stopped
# by the next one of the same installation. $1 = the installation, $2 = the build's stamp file, the rest = the
# JVM command.
polygpu_daemon_build() {
  local install="$1" stamp="$2"; shift 2
  { printf '%s\n' "$@"; stat -c '%n %s %.9Y' "$stamp" "$install"/launcher/target/*.jar \
      "$install"/launcher/target/lib/*.jar 2>/dev/null; } | sha256sum | cut -c1-16
}

# Prints the key of the daemon for this installation, build and the environment variables that the JVM reads
# once for the whole process (where nvcc, the caches and the CUDA driver are, which GPUs CUDA shows): a program
# run with other values of those gets a daemon of its own. Every other variable is the program's, sent with each
# run.
# $1 = the installation, $2 = the build.
polygpu_daemon_key() {
  local v
  { printf '%s\n' "$1" "$2"
    for v in POLYGPU_NVCC CUDA_HOME POLYGPU_CACHE_DIR XDG_CACHE_HOME CUDA_VISIBLE_DEVICES CUDA_DEVICE_ORDER \
        LD_LIBRARY_PATH; do
      printf '%s=%s\n' "$v" "${!v-(unset)}"
    done; } | sha256sum | cut -c1-16
}

# Writes the JVM command (NUL-separated) that the client starts the daemon, or a JVM of its own, with.
# $1 = the file, the rest = the command.
polygpu_daemon_write_command() {
  local file="$1"; shift
  local want
  want="$(printf '%s\0' "$@" | sha256sum)"
  if [ ! -f "$file" ] || [ "$(sha256sum <"$file")" != "$want" ]; then
    printf '%s\0' "$@" >"$file.$$" && mv -f "$file.$$" "$file"
  fi
}
