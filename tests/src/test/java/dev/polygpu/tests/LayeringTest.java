package dev.polygpu.tests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.polygpu.cluster.ClusterNode;
import dev.polygpu.device.Device;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cuda.CudaDevice;
import dev.polygpu.device.fatbin.Fatbinary;
import dev.polygpu.grcuda.GrCUDALanguage;
import dev.polygpu.launcher.Main;
import dev.polygpu.runtime.Scheduler;
import java.net.URL;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Holds the dependency arrows of ARCHITECTURE.md on the main classes of every module: launcher → truffle-lang
 * and cluster → scheduler (runtime → device SPI ← the devices). A rule that fails names the class and the
 * dependency that breaks it.
 */
class LayeringTest {
    private static JavaClasses classes;

    /** One class of each module: the class-path entries (folders or jars) they come from are imported. */
    private static final List<Class<?>> ANCHORS = List.of(Device.class, CpuDevice.class, Fatbinary.class,
            CudaDevice.class, Scheduler.class, GrCUDALanguage.class, ClusterNode.class, Main.class);

    @BeforeAll
    static void importMainClasses() {
        // Only the modules' own entries: scanning the whole class path (GraalPy's jars) takes a minute.
        Set<URL> places = new LinkedHashSet<>();
        for (Class<?> c : ANCHORS) {
            places.add(c.getProtectionDomain().getCodeSource().getLocation());
        }
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importUrls(places);
    }

    @Test
    void theModulesWereFound() {
        for (String pkg : new String[] {"dev.polygpu.device", "dev.polygpu.device.cpu", "dev.polygpu.device.cuda",
                "dev.polygpu.runtime", "dev.polygpu.grcuda", "dev.polygpu.cluster", "dev.polygpu.launcher"}) {
            if (!classes.containPackage(pkg)) {
                throw new AssertionError("no main classes of " + pkg + " on the test class path: "
                        + "the rules below would pass vacuously");
            }
        }
    }

    @Test
    void theRuntimeDependsOnTheDeviceSpiAlone() {
        classes().that().resideInAPackage("dev.polygpu.runtime..")
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage("dev.polygpu.runtime..", "dev.polygpu.device", "java..")
                .check(classes);
    }

    @Test
    void theDeviceSpiKnowsNoDeviceAndNoRuntime() {
        noClasses().that().resideInAPackage("dev.polygpu.device")
                .should().dependOnClassesThat()
                .resideInAnyPackage("dev.polygpu.device.cpu..", "dev.polygpu.device.cuda..",
                        "dev.polygpu.device.fatbin..", "dev.polygpu.runtime..")
                .check(classes);
    }

    @Test
    void theCpuAndCudaDevicesAreIndependent() {
        noClasses().that().resideInAPackage("dev.polygpu.device.cpu..")
                .should().dependOnClassesThat().resideInAPackage("dev.polygpu.device.cuda..")
                .check(classes);
        noClasses().that().resideInAPackage("dev.polygpu.device.cuda..")
                .should().dependOnClassesThat().resideInAPackage("dev.polygpu.device.cpu..")
                .check(classes);
    }

    @Test
    void nothingUnderSchedulerImportsTruffleOrHazelcast() {
        noClasses().that().resideInAnyPackage("dev.polygpu.device..", "dev.polygpu.runtime..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("com.oracle.truffle..", "org.graalvm..", "com.hazelcast..")
                .check(classes);
    }

    @Test
    void onlyTheCudaDeviceUsesJCuda() {
        noClasses().that().resideOutsideOfPackage("dev.polygpu.device.cuda..")
                .should().dependOnClassesThat().resideInAPackage("jcuda..")
                .check(classes);
    }

    @Test
    void theLanguageNeverImportsTheCluster() {
        noClasses().that().resideInAPackage("dev.polygpu.grcuda..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.polygpu.cluster..", "com.hazelcast..")
                .check(classes);
    }

    @Test
    void theClusterKnowsNoTruffle() {
        noClasses().that().resideInAPackage("dev.polygpu.cluster..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("com.oracle.truffle..", "org.graalvm..", "dev.polygpu.grcuda..")
                .check(classes);
    }

    @Test
    void onlyTheLauncherAndBenchmarksUseTheLauncher() {
        noClasses().that().resideOutsideOfPackages("dev.polygpu.launcher..", "dev.polygpu.bench..")
                .should().dependOnClassesThat().resideInAPackage("dev.polygpu.launcher..")
                .check(classes);
    }
}
