/**
 * Limits on what a scenario may ask for, so that any file runs in bounded time and memory
 * (issue 21). The runner's relay ring holds at most 1,000,000 hops whatever the scenario
 * does; the rest is bounded here and checked before anything runs.
 */

/** Largest scenario file, and largest file an `applyFile` step reads: 3 MiB, kube-apiserver's request body limit (MaxRequestBodyBytes). */
export const MAX_FILE_BYTES = 3 * 1024 * 1024;

/**
 * Most simulated time one scenario may cover: the `advance` durations and `settle` limits
 * added up. An idle 3-node cluster costs about 70 ms of CPU and 6,000 relay hops (mostly
 * Lease renewals and node heartbeats) per simulated hour, so a day is a couple of seconds
 * while `advance: 100000000h` would run for months.
 */
export const MAX_SIMULATED_MS = 24 * 3600_000;

/**
 * Most node-hours of simulated time (each `advance`/`settle` limit × the nodes at that step):
 * every node's kubelet heartbeats and renews its Lease, about 0.15 s of CPU per node per
 * simulated hour, so 2,400 node-hours (100 nodes for a day, 1,000 for 2.4 h) is about six
 * minutes, while 10,000 nodes for a day would run for hours.
 */
export const MAX_NODE_HOURS = 2_400;

/** Most worker nodes a `nodes: N` count asks for; a list, and the list with every addNode, may hold one more (the control-plane node). */
export const MAX_NODES = 10_000;

/** Most steps in one scenario. */
export const MAX_STEPS = 10_000;

/** Deepest nesting of YAML collections in a scenario file (manifests inside are text). */
export const MAX_YAML_DEPTH = 64;

/** Most alias expansions in a scenario file (billion-laughs guard, as kubectl/parse.ts). */
export const MAX_YAML_ALIASES = 100;

/** Most `snapshot` steps: each holds a copy of every stored object and event. */
export const MAX_SNAPSHOTS = 100;

/** Most requests the `request` steps of one scenario send in all (each is one result in the output). */
export const MAX_REQUESTS = 10_000;

/** Most timers one `fireTimers` step fires. */
export const MAX_FIRE_TIMERS = 10_000;
