/**
 * The Network tab of the side panel (issue 5 §4, §5, §7): the DNS lookup tool, the traffic
 * generator and the HPA load controls, one section each.
 */
import { useTranslation } from 'react-i18next';
import { DnsLookup } from './DnsLookup';
import { TrafficGenerator } from './TrafficGenerator';
import { LoadControls } from './LoadControl';

export function NetworkPanel() {
  const { t } = useTranslation();
  return (
    <div className="network-panel" role="tabpanel" aria-label={t('panes.network')} data-testid="network-panel">
      <DnsLookup />
      <TrafficGenerator />
      <LoadControls />
    </div>
  );
}
