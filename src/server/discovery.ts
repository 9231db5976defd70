/**
 * The discovery documents the HTTP API serves: the engine's own (cluster/apiserver/discovery.ts),
 * which a Pod calling kubernetes.default.svc gets as well.
 */
export * from '../cluster/apiserver/discovery';
