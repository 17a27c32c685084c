# Sourced by the bench scripts. The scheduler is five Maven modules (scheduler/pom.xml); commands that run a
# main from target/ folders need all of their class folders.
POLYGPU_SCHEDULER_MODULES=(device-spi fatbin cpu-device cuda-device runtime)

polygpu_scheduler_classes() {  # $1 = the repository root, $2 = classes or test-classes; prints a class path
  local root="$1" kind="${2:-classes}" m out=""
  for m in "${POLYGPU_SCHEDULER_MODULES[@]}"; do
    out="${out:+$out:}$root/scheduler/$m/target/$kind"
  done
  printf '%s' "$out"
}
