package dev.polygpu.cluster.sim;

import java.util.Arrays;
import java.util.List;

/**
 * What one simulated run gave: its makespan against the lower bound, and what stealing cost.
 *
 * @param workload the workload's name
 * @param tasks how many tasks ran
 * @param members members at the start
 * @param membersEver members that took part at some time (joins included)
 * @param slots elements each device ran at once
 * @param makespanNanos when the last task completed at its owner
 * @param lowerBoundNanos max(critical path, total work over the slots present), see {@link Simulator}
 * @param totalWorkNanos the sum of the task durations
 * @param criticalPathNanos the longest chain of durations
 * @param stolen tasks that ran on another member than their owner (reruns excluded)
 * @param requests steal requests thieves sent
 * @param rankRequests of those, requests by rank: sent by a member that was not starving, for tasks of a higher
 *     rank than its own ({@link dev.polygpu.cluster.policy.Priority})
 * @param emptyReplies requests answered with nothing (timeouts and requests to departed members included)
 * @param forwards requests a victim passed on
 * @param timeouts requests given up after the request timeout
 * @param staleReplies replies with work that came after their request was given up (handed back)
 * @param reruns tasks run again at their owner because the member holding them crashed
 * @param lostMessages messages that arrived at a member that was gone
 * @param gateRefusals requests a victim had surplus for but answered without work because the cost gate let
 *     none of its ready tasks move
 * @param inputBytesSent bytes of input arrays that replies carried (each array once per reply)
 * @param inputBytesSaved bytes of input arrays that replies did not carry because the thief held them: a
 *     reference went instead (the arrays' sizes, as {@code ClusterNode} counts them; each reference still
 *     costs 24 bytes); 0 without input caches
 * @param cacheMisses references a thief could not resolve from its input cache (it had evicted the array)
 * @param missingInputHandBacks tasks a thief handed back to their owner because an input they read missed
 * @param messagesPerMember messages each member sent plus received
 * @param bytesPerMember bytes each member sent plus received
 * @param hostCpuPerMember host CPU time each member spent on the messages it sent and received
 *     ({@link SimConfig#hostCpu()}); zeros when none is charged
 * @param kernelDelayNanos how much later, summed over the kernels, the kernels ended because their member spent
 *     host CPU on messages while every slot ran one; 0 when none is charged
 * @param idleFraction the share of the members' slot time (from joining to leaving or the end) with no task
 * @param stealLatencyMedianNanos the median time from a request to its reply with work, -1 if none
 * @param stealLatencyP99Nanos its 99th percentile, -1 if none
 * @param events events simulated
 * @param wallNanos how long the simulation took to run
 * @param notes anything the run could not do as asked (for example fewer workers to remove than asked)
 */
public record SimResult(String workload, int tasks, int members, int membersEver, int slots, long makespanNanos,
                        long lowerBoundNanos, long totalWorkNanos, long criticalPathNanos, long stolen,
                        long requests, long rankRequests, long emptyReplies, long forwards, long timeouts, long staleReplies,
                        long reruns, long lostMessages, long gateRefusals, long inputBytesSent, long inputBytesSaved,
                        long cacheMisses, long missingInputHandBacks, Spread messagesPerMember, Spread bytesPerMember,
                        Spread hostCpuPerMember, long kernelDelayNanos, double idleFraction,
                        long stealLatencyMedianNanos, long stealLatencyP99Nanos, long events, long wallNanos,
                        List<String> notes) {

    /**
     * This result with another wall time: two runs of one configuration differ in nothing else.
     *
     * @param nanos the wall time
     * @return the copy
     */
    public SimResult withWallNanos(long nanos) {
        return new SimResult(workload, tasks, members, membersEver, slots, makespanNanos, lowerBoundNanos,
                totalWorkNanos, criticalPathNanos, stolen, requests, rankRequests, emptyReplies, forwards, timeouts, staleReplies,
                reruns, lostMessages, gateRefusals, inputBytesSent, inputBytesSaved, cacheMisses,
                missingInputHandBacks, messagesPerMember, bytesPerMember, hostCpuPerMember, kernelDelayNanos,
                idleFraction, stealLatencyMedianNanos, stealLatencyP99Nanos, events, nanos, notes);
    }

    /** {@return the lower bound over the makespan: 1.0 is a perfect schedule} */
    public double efficiency() {
        return makespanNanos <= 0 ? 0 : (double) lowerBoundNanos / makespanNanos;
    }

    /**
     * A per-member quantity's mean, median and maximum.
     *
     * @param mean the mean over the members
     * @param median the median
     * @param max the largest
     */
    public record Spread(double mean, long median, long max) {

        /** {@return the spread of {@code values} (one per member); zeros when there is none} */
        public static Spread of(long[] values) {
            if (values.length == 0) {
                return new Spread(0, 0, 0);
            }
            long[] sorted = values.clone();
            Arrays.sort(sorted);
            double sum = 0;
            for (long v : sorted) {
                sum += v;
            }
            return new Spread(sum / sorted.length, sorted[sorted.length / 2], sorted[sorted.length - 1]);
        }
    }
}
