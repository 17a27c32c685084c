package dev.polygpu.grcuda;

import com.oracle.truffle.api.TruffleLanguage;
import java.util.LinkedHashMap;
import java.util.Map;
import org.graalvm.options.OptionValues;

/** The {@code grcuda.*} options of one context, read once when it is created. Immutable. */
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
        String exportDag,
        Policies.DeviceKind device) {

    static GrSettings of(TruffleLanguage.Env env) {
        OptionValues o = env.getOptions();
        return new GrSettings(o.get(GrOptions.ExecutionPolicy), o.get(GrOptions.DependencyPolicy),
                o.get(GrOptions.RetrieveNewStreamPolicy), o.get(GrOptions.RetrieveParentStreamPolicy),
                o.get(GrOptions.DeviceSelectionPolicy), o.get(GrOptions.InputPrefetch),
                o.get(GrOptions.ForceStreamAttach), o.get(GrOptions.EnableComputationTimers),
                o.get(GrOptions.NumberOfGPUs), o.get(GrOptions.ExportDAG), o.get(GrOptions.Device));
    }

    /** The options by name, as {@code getoptions()} shows them (GrCUDA's names, values as spelled). */
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
        m.put("grcuda.ExportDAG", exportDag);
        m.put("grcuda.Device", device.spelling());
        return m;
    }
}
