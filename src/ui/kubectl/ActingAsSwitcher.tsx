/**
 * The user switcher (issue 18): "Acting as" kubernetes-admin, a user typed free-form with
 * optional groups, or any ServiceAccount of the cluster (listed live from the store). The choice
 * goes to the worker (ClusterApi.setActingAs, recorded in the session log); the kubectl bar's
 * lines, the editor's Apply and the inspector's Pod delete are then made as that identity, the
 * admin impersonating it as `kubectl --as` does. ActingAsChip is the toolbar's reminder while
 * acting as someone else, with a one-click way back.
 */
import { memo, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useKubeStore } from '../store/store';
import type { KubeState } from '../store/store';
import { cluster } from '../cluster-client';
import { ADMIN_USER, identityFromForm, impersonationFlags, selectActingAs, serviceAccountUsers, useActingAs } from './acting-as';

const selectServiceAccounts = (s: KubeState) => serviceAccountUsers(s.objects);
const USER = '__user__';

/** `[data-testid=acting-as]`: the select, and for a user the name and groups fields. */
export const ActingAsSwitcher = memo(function ActingAsSwitcher() {
  const { t } = useTranslation();
  const actingAs = useActingAs(selectActingAs);
  const saText = useKubeStore(selectServiceAccounts);
  const accounts = useMemo(() => (saText ? saText.split('\n') : []), [saText]);
  const isSA = actingAs !== null && actingAs.groups.length === 0 && accounts.includes(actingAs.user);
  const current = actingAs === null ? '' : isSA ? actingAs.user : USER;
  const [choice, setChoice] = useState(current);
  const [user, setUser] = useState(actingAs && !isSA ? actingAs.user : '');
  const [groups, setGroups] = useState(actingAs && !isSA ? actingAs.groups.join(', ') : '');
  // the worker's value wins (a reload, another action): follow it
  useEffect(() => {
    setChoice(current);
    if (current === USER && actingAs) {
      setUser(actingAs.user);
      setGroups(actingAs.groups.join(', '));
    }
  }, [current, actingAs]);
  const submitUser = () => {
    const as = identityFromForm(user, groups);
    if (as !== 'empty') void cluster.setActingAs(as);
  };
  return (
    <div className="acting-as" data-testid="acting-as" data-user={actingAs?.user ?? ADMIN_USER}>
      <label className="acting-as-label">
        {t('actingAs.label')}{' '}
        <select
          data-testid="acting-as-select"
          aria-label={t('actingAs.label')}
          value={choice}
          onChange={(e) => {
            const v = e.target.value;
            setChoice(v);
            if (v === '') void cluster.setActingAs(null);
            else if (v !== USER) void cluster.setActingAs({ user: v, groups: [] });
          }}
        >
          <option value="">{ADMIN_USER}</option>
          <option value={USER}>{t('actingAs.user')}</option>
          {accounts.length > 0 && (
            <optgroup label={t('actingAs.serviceAccounts')}>
              {accounts.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </optgroup>
          )}
        </select>
      </label>
      {choice === USER && (
        <form
          className="acting-as-user"
          onSubmit={(e) => {
            e.preventDefault();
            submitUser();
          }}
        >
          <input
            data-testid="acting-as-user"
            aria-label={t('actingAs.userName')}
            placeholder="jane"
            autoComplete="off"
            spellCheck={false}
            value={user}
            onChange={(e) => setUser(e.target.value)}
          />
          <input
            data-testid="acting-as-groups"
            aria-label={t('actingAs.groups')}
            placeholder={t('actingAs.groupsPlaceholder')}
            autoComplete="off"
            spellCheck={false}
            value={groups}
            onChange={(e) => setGroups(e.target.value)}
          />
          <button type="submit" className="mini" data-testid="acting-as-apply" disabled={!user.trim()}>
            {t('actingAs.act')}
          </button>
        </form>
      )}
    </div>
  );
});

/** `[data-testid=acting-as-chip][data-user]` in the toolbar while acting as someone else; `acting-as-reset` goes back to the admin. */
export const ActingAsChip = memo(function ActingAsChip() {
  const { t } = useTranslation();
  const actingAs = useActingAs(selectActingAs);
  if (!actingAs) return null;
  const flags = impersonationFlags(actingAs);
  return (
    <span
      className="acting-as-chip"
      data-testid="acting-as-chip"
      data-user={actingAs.user}
      title={`${t('actingAs.chipTitle')}: kubectl ${flags}`}
    >
      <span className="acting-as-chip-text">
        {t('actingAs.chip')} <b>{actingAs.user}</b>
        {actingAs.groups.length > 0 && <span className="muted"> [{actingAs.groups.join(' ')}]</span>}
      </span>
      <button
        type="button"
        className="mini"
        data-testid="acting-as-reset"
        aria-label={t('actingAs.back', { user: ADMIN_USER })}
        title={t('actingAs.back', { user: ADMIN_USER })}
        onClick={() => void cluster.setActingAs(null)}
      >
        ✕
      </button>
    </span>
  );
});
