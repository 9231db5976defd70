/** The large-cluster note says why the graph is summarized, also while the count is back at or under the threshold. */
import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from '../i18n/en';
import { kubeStore } from '../store/store';
import { GraphSummaryNote } from './GraphSummaryNote';
import type { PodSummary } from '../../worker/protocol';

void i18next
  .use(initReactI18next)
  .init({ resources: { en: { translation: en } }, lng: 'en', interpolation: { escapeValue: false }, initAsync: false });

// react-dom/server reads a zustand store's initial state: point it at the current one
(kubeStore as { getInitialState: () => unknown }).getInitialState = () => kubeStore.getState();

const summary = (total: number): PodSummary => ({
  threshold: 1000,
  leaveThreshold: 800,
  all: { total, ready: total, statuses: [['Running', total]] },
  nodes: [{ node: 'node-1', total, ready: total, statuses: [['Running', total]] }],
  moreNodes: 0,
  owners: [{ owner: 'ReplicaSet/default/web-95547d88', total, ready: total, statuses: [['Running', total]] }],
  moreOwners: 0,
});

describe('GraphSummaryNote', () => {
  it.each([
    [
      'beyond the threshold',
      1250,
      'Graph summarized: 1,250 Pods is more than 1,000, so each node shows its Pod counts instead of one card per Pod.',
    ],
    [
      'back at the threshold after a rollout’s surge',
      1000,
      'Graph summarized: the cluster went beyond 1,000 Pods and has 1,000 now, so each node still shows its Pod counts; one card per Pod comes back below 800 Pods.',
    ],
    [
      'under the threshold, above the way back',
      850,
      'Graph summarized: the cluster went beyond 1,000 Pods and has 850 now, so each node still shows its Pod counts; one card per Pod comes back below 800 Pods.',
    ],
  ])('%s', (_name, total, text) => {
    kubeStore.setState({ podSummary: summary(total) } as never);
    const html = renderToStaticMarkup(createElement(GraphSummaryNote));
    expect(html).toContain(`<p>${text}</p>`);
    expect(html).toContain(`data-pods="${total}"`);
  });
});
