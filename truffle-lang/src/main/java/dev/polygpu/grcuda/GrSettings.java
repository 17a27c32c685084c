package dev.polygpu.grcuda;

import com.oracle.truffle.api.TruffleLanguage;
import dev.polygpu.device.cpu.CpuLink;
import dev.polygpu.runtime.DeviceSelectionPolicy;
import dev.polygpu.runtime.MultiDeviceConfig;
import dev.polygpu.runtime.SchedulerConfig;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.graalvm.options.OptionValues;

/**
 * The {@code grcuda.*} options of one context, read once when it is created. Immutable. The cluster's options
 * are grouped in {@link ClusterSettings}, which keeps the secret out of {@link #toString} and {@link #asMap}.
 */
public record GrSettings(
        Policies.ExecutionPolicy executionPolicy,
        Policies.DependencyPolicy dependencyPolicy,
        Policies.NewStreamPolicy newStreamPolicy,
        Policies.ParentStreamPolicy parentStreamPolicy,
        Policies.DeviceSelectionPolicy deviceSelectionPolicy,
        boolean inputPrefetch,
        boolean forceStreamAttach,
        boolean computationTimers,
        int numberOfGpus,
        double dataThreshold,
        Policies.MemAdvisePolicy memAdvisePolicy,
        String bandwidthMatrix,
        String exportDag,
        Policies.DeviceKind device,
        String timeline,
        boolean scheduleReport,
        boolean recordSchedule,
        int inFlightWindow,
        String deviceChaos,
        int cpuBlocks,
        String cpuDeviceLink,
        String kernelTimeout,
        ClusterSettings cluster) {

    static GrSettings of(TruffleLanguage.Env env) {
        OptionValues o = env.getOptions();
        return new GrSettings(o.get(GrOptions.ExecutionPolicy), o.get(GrOptions.DependencyPolicy),
                o.get(GrOptions.RetrieveNewStreamPolicy), o.get(GrOptions.RetrieveParentStreamPolicy),
                o.get(GrOptions.DeviceSelectionPolicy), o.get(GrOptions.InputPrefetch),
                o.get(GrOptions.ForceStreamAttach), o.get(GrOptions.EnableComputationTimers),
                o.get(GrOptions.NumberOfGPUs), o.get(GrOptions.DataThreshold), o.get(GrOptions.MemAdvisePolicy),
                o.get(GrOptions.BandwidthMatrix), o.get(GrOptions.ExportDAG), o.get(GrOptions.Device),
                o.get(GrOptions.Timeline), o.get(GrOptions.ScheduleReport), o.get(GrOptions.RecordSchedule),
                o.get(GrOptions.InFlightWindow),
                o.get(GrOptions.DeviceChaos), o.get(GrOptions.CpuBlocks), o.get(GrOptions.CpuDeviceLink),
                o.get(GrOptions.KernelTimeout), ClusterSettings.of(o, env.getEnvironment()));
    }

    /** The limit on each kernel launch of the CPU device ({@code grcuda.KernelTimeout}); zero for none. */
    public Duration kernelTimeoutLimit() {
        return GrOptions.kernelTimeoutLimit(kernelTimeout);
    }

    /** The scheduler's configuration these options describe. */
    public SchedulerConfig schedulerConfig() {
        return SchedulerConfig.DEFAULT
                .withExecution(executionPolicy == Policies.ExecutionPolicy.SYNC ? SchedulerConfig.ExecutionPolicy.SYNC
                        : SchedulerConfig.ExecutionPolicy.ASYNC)
                .withDependencies(dependencyPolicy == Policies.DependencyPolicy.NO_CONST
                        ? SchedulerConfig.DependencyPolicy.NO_CONST : SchedulerConfig.DependencyPolicy.WITH_CONST)
                .withNewStreams(newStreamPolicy == Policies.NewStreamPolicy.ALWAYS_NEW
                        ? SchedulerConfig.NewStreamPolicy.ALWAYS_NEW : SchedulerConfig.NewStreamPolicy.REUSE)
                .withParentStreams(switch (parentStreamPolicy) {
                    case SAME_AS_PARENT -> SchedulerConfig.ParentStreamPolicy.SAME_AS_PARENT;
                    case DISJOINT -> SchedulerConfig.ParentStreamPolicy.DISJOINT;
                    case MULTIGPU_EARLY_DISJOINT -> SchedulerConfig.ParentStreamPolicy.MULTIGPU_EARLY_DISJOINT;
                    case MULTIGPU_DISJOINT -> SchedulerConfig.ParentStreamPolicy.MULTIGPU_DISJOINT;
                })
                .withInFlightWindow(inFlightWindow)
                .withPrefetchInputs(inputPrefetch)
                // Stolen work beyond a full window: only a cluster hands work here (submitHere).
                .withStolenOverflow(cluster.stolenOverflow());
    }

    /** How a scheduler over several devices places work, as these options say ({@code single-gpu} by default). */
    public MultiDeviceConfig multiDeviceConfig() {
        return MultiDeviceConfig.DEFAULT.withPolicy(DeviceSelectionPolicy.parse(deviceSelectionPolicy.spelling()))
                .withDataThreshold(dataThreshold);
    }

    /** The simulated link between CPU devices ({@code grcuda.CpuDeviceLink}). */
    public CpuLink cpuLink() {
        return GrOptions.cpuLink(cpuDeviceLink);
    }

    /**
     * The options by name, as {@code getoptions()} shows them (GrCUDA's names, values as spelled; a cluster
     * secret, when there is one, as {@code ****}).
     */
    public Map<String, String> asMap() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("grcuda.ExecutionPolicy", executionPolicy.spelling());
        m.put("grcuda.DependencyPolicy", dependencyPolicy.spelling());
        m.put("grcuda.RetrieveNewStreamPolicy", newStreamPolicy.spelling());
        m.put("grcuda.RetrieveParentStreamPolicy", parentStreamPolicy.spelling());
        m.put("grcuda.DeviceSelectionPolicy", deviceSelectionPolicy.spelling());
        m.put("grcuda.InputPrefetch", Boolean.toString(inputPrefetch));
        m.put("grcuda.ForceStreamAttach", Boolean.toString(forceStreamAttach));
        m.put("grcuda.EnableComputationTimers", Boolean.toString(computationTimers));
        m.put("grcuda.NumberOfGPUs", Integer.toString(numberOfGpus));
        m.put("grcuda.DataThreshold", Double.toString(dataThreshold));
        m.put("grcuda.MemAdvisePolicy", memAdvisePolicy.spelling());
        m.put("grcuda.BandwidthMatrix", bandwidthMatrix);
        m.put("grcuda.ExportDAG", exportDag);
        m.put("grcuda.Device", device.spelling());
        m.put("grcuda.Timeline", timeline);
        m.put("grcuda.ScheduleReport", Boolean.toString(scheduleReport));
        m.put("grcuda.RecordSchedule", Boolean.toString(recordSchedule));
        m.put("grcuda.InFlightWindow", Integer.toString(inFlightWindow));
        m.put("grcuda.DeviceChaos", deviceChaos);
        m.put("grcuda.CpuBlocks", Integer.toString(cpuBlocks));
        m.put("grcuda.CpuDeviceLink", cpuDeviceLink);
        m.put("grcuda.KernelTimeout", kernelTimeout);
        m.putAll(cluster.display());
        return m;
    }
}
