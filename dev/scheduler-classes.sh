# Sourced by bench/gpu-kit. The scheduler is five Maven modules (scheduler/pom.xml); the kit copies the class
# folders of each.
POLYGPU_SCHEDULER_MODULES=(device-spi fatbin cpu-device cuda-device runtime)
