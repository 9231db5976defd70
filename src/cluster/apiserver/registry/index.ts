/**
 * The strategy table kube-apiserver's generic registry uses for each built-in resource
 * (pkg/registry/<group>/<resource>/strategy.go), keyed by group-qualified resource.
 * Kinds without an entry are stored as sent (the empty strategy).
 */
import type { StrategyTable } from './strategy';
import { podStrategy } from './pods';
import { serviceStrategy } from './service';
import { appsStrategies } from './apps';
import { batchStrategies } from './batch';
import { coreStrategies } from './core';
import { storageStrategies } from './storage';
import { otherStrategies } from './others';
import { withMoreDefaults } from './more-defaults';

export { SYSTEM_PRIORITY_CLASSES } from './pods';

/** Every built-in strategy, by group-qualified resource ("pods", "deployments.apps"). */
export const STRATEGIES: StrategyTable = withMoreDefaults({
  pods: podStrategy,
  services: serviceStrategy,
  ...coreStrategies,
  ...storageStrategies,
  ...appsStrategies,
  ...batchStrategies,
  ...otherStrategies,
});
