# Sourced by ./polygpu. The start-up cache: what lets ./polygpu start in seconds rather than tens of seconds.
#
# The JDK disables class data sharing (CDS, and the AOT cache built on it) when --upgrade-module-path is given,
# which is how a stock JDK gets the Graal compiler for Truffle's JIT. So the cache holds
#   jre/          a runtime image of the JDK (jlink) without the JDK's own, empty, jdk.graal.compiler module, so
#                 that the Graal compiler can come from --module-path instead, with CDS on;
#   polygpu.aot   the JDK's AOT cache (JEP 483/514/515: classes loaded and linked, method profiles), recorded by a
#                 training run (dev.polygpu.launcher.StartupTraining) of a short Python and JavaScript program;
#   inputs        what both were made from (the JDK, and name, size and time of each jar); when it differs from
#                 the inputs of this run, the cache is made again.
# A failure to make it is remembered (failed, with the same inputs) so that each run does not try again, and
# ./polygpu runs as before: the JDK's java with --upgrade-module-path.

# Version of the cache's layout and flags: changing the JVM flags below changes it, so old caches are remade.
POLYGPU_STARTUP_CACHE_VERSION=3

# The flags both the training run and the runs with the cache start the JVM with (the AOT cache is only used by
# a JVM started with the same module options). The JVM's own warnings go to stderr rather than stdout, where it
# writes them by default: one that cannot use the AOT cache (a POLYGPU_JAVA_OPTS flag it was not made with) says
# so, and the program's output stays its own. $1 = the launcher's target folder.
polygpu_startup_cache_jvm_flags() {
  printf '%s\n' -Xlog:disable -Xlog:all=warning:stderr -XX:+UnlockExperimentalVMOptions -XX:+EnableJVMCI \
    --module-path "$1/jit" --add-modules jdk.graal.compiler,org.graalvm.truffle.compiler,jdk.incubator.vector \
    --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Xss8m \
    "-Dpolyglot.engine.userResourceCache=$1/polyglot-cache"
}

# The flags of a run without the cache: the JDK's java, the Graal compiler through --upgrade-module-path.
# $1 = the launcher's target folder.
polygpu_plain_jvm_flags() {
  printf '%s\n' -XX:+UnlockExperimentalVMOptions -XX:+EnableJVMCI --upgrade-module-path "$1/jit" \
    --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Xss8m \
    "-Dpolyglot.engine.userResourceCache=$1/polyglot-cache"
}

# The class path of a run with the cache: jars only (the AOT cache takes no folders), in a fixed order (the
# cache records it). $1 = the launcher's target folder.
polygpu_startup_cache_classpath() {
  local target="$1" cp="" jar
  for jar in "$target"/polygpu-launcher-*.jar "$target"/lib/*.jar; do
    [ -f "$jar" ] || continue
    cp="${cp:+$cp:}$jar"
  done
  printf '%s' "$cp"
}

# What the cache is made from, one line each: the layout version, the JDK, and every jar of the class and module
# paths with its size and modification time. $1 = the launcher's target folder, $2 = the JDK's home.
polygpu_startup_cache_inputs() {
  local target="$1" jdk="$2"
  printf 'version %s\n' "$POLYGPU_STARTUP_CACHE_VERSION"
  printf 'jdk %s %s\n' "$jdk" "$(sed -n 's/^JAVA_RUNTIME_VERSION=//p' "$jdk/release" 2>/dev/null)"
  stat -c '%n %s %.9Y' "$target"/polygpu-launcher-*.jar "$target"/lib/*.jar "$target"/jit/*.jar 2>/dev/null
}

# Prints the cache's state for these inputs: "ready", "failed" (an earlier try with the same inputs failed) or
# "stale" (none, or made from other inputs). $1 = the cache folder, $2 = the inputs.
polygpu_startup_cache_state() {
  local cache="$1" inputs="$2"
  if [ -f "$cache/inputs" ] && [ "$(cat "$cache/inputs")" = "$inputs" ]; then
    if [ -f "$cache/failed" ]; then echo failed
    elif [ -x "$cache/jre/bin/java" ] && [ -s "$cache/polygpu.aot" ]; then echo ready
    else echo stale; fi
  else
    echo stale
  fi
}

# The JDK's modules for the runtime image: all but the Graal compiler's placeholder modules (the real compiler
# comes from the module path) and the linker's own (a runtime image cannot hold them). $1 = the JDK's home.
polygpu_startup_cache_modules() {
  "$1/bin/java" --list-modules | sed 's/@.*//' \
    | grep -v -x -E 'jdk\.graal\.compiler|jdk\.graal\.compiler\.management|jdk\.jlink|jdk\.jpackage' | paste -sd, -
}

# Makes the cache in $1 (the cache folder) for target $2 and JDK $3 with inputs $4: the runtime image, then the
# training run that writes the AOT cache. Everything the tools print goes to $1/make.log. Returns non-zero on
# failure, with the reason in make.log; leaves either a whole cache or one marked failed.
polygpu_startup_cache_make() {
  local cache="$1" target="$2" jdk="$3" inputs="$4" work log modules
  mkdir -p "$(dirname "$cache")"
  # what a run stopped while making the cache left behind (the caller holds the lock: no one else is making one)
  rm -rf "$cache".new.*
  work="$(mktemp -d "$cache.new.XXXXXX")" || return 1
  log="$work/make.log"
  modules="$(polygpu_startup_cache_modules "$jdk" 2>>"$log")"
  local -a flags
  mapfile -t flags < <(polygpu_startup_cache_jvm_flags "$target")
  if [ -n "$modules" ] \
      && "$jdk/bin/jlink" --add-modules "$modules" --no-man-pages --no-header-files --output "$work/jre" >>"$log" 2>&1 \
      && "$work/jre/bin/java" "${flags[@]}" -XX:AOTCacheOutput="$work/polygpu.aot" \
           -cp "$(polygpu_startup_cache_classpath "$target")" dev.polygpu.launcher.StartupTraining >>"$log" 2>&1 \
      && [ -s "$work/polygpu.aot" ]; then
    printf '%s\n' "$inputs" >"$work/inputs"
    rm -rf "$cache"
    mv "$work" "$cache"
    return 0
  fi
  # Keep the log and remember the failure for these inputs; drop the half-made image and cache.
  rm -rf "$work/jre" "$work/polygpu.aot"
  printf '%s\n' "$inputs" >"$work/inputs"
  touch "$work/failed"
  rm -rf "$cache"
  mv "$work" "$cache"
  return 1
}
