# Sourced by ./build and ./polygpu. Prints the home of a JDK whose feature version is 25 or newer.
# Order: $JAVA_HOME if it is new enough, then the JDKs under /usr/lib/jvm and /opt (newest first),
# then the `java` on the PATH. Fails with a message that says what to install when none is found.

polygpu_jdk_feature() {  # $1 = a JDK home; prints its feature version (e.g. 25) or nothing
  local rel="$1/release" v=""
  if [ -r "$rel" ]; then
    v="$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$rel")"
  fi
  if [ -z "$v" ] && [ -x "$1/bin/java" ]; then
    v="$("$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1)"
  fi
  [ -x "$1/bin/javac" ] || v=""
  printf '%s' "$v"
}

polygpu_find_jdk() {
  local want=25 cand v best="" bestv=0
  if [ -n "${JAVA_HOME:-}" ]; then
    v="$(polygpu_jdk_feature "$JAVA_HOME")"
    if [ -n "$v" ] && [ "$v" -ge "$want" ]; then printf '%s\n' "$JAVA_HOME"; return 0; fi
  fi
  for cand in /usr/lib/jvm/* /opt/*jdk* /opt/java/*; do
    [ -d "$cand" ] || continue
    v="$(polygpu_jdk_feature "$cand")"
    if [ -n "$v" ] && [ "$v" -ge "$want" ] && [ "$v" -gt "$bestv" ]; then best="$cand"; bestv="$v"; fi
  done
  if [ -n "$best" ]; then printf '%s\n' "$best"; return 0; fi
  if command -v java >/dev/null 2>&1; then
    cand="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"
    v="$(polygpu_jdk_feature "$cand")"
    if [ -n "$v" ] && [ "$v" -ge "$want" ]; then printf '%s\n' "$cand"; return 0; fi
  fi
  {
    echo "polygpu: no JDK $want or newer was found."
    echo "  Looked at JAVA_HOME (${JAVA_HOME:-unset}), /usr/lib/jvm/*, /opt and the java on the PATH."
    echo "  Install one (for example Temurin 25 from adoptium.net) and set JAVA_HOME to it."
  } >&2
  return 1
}
