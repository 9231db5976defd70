/**
 * The RBAC tab of a Role/ClusterRole (its rules as a table, its aggregationRule, the bindings
 * that grant it: binding → subjects) and of a RoleBinding/ClusterRoleBinding (subjects →
 * roleRef → the role's rules). The data comes from rbac-view.ts (pure); names wrap, never clip.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useKubeStore } from '../store/store';
import { selectObjects } from '../store/selectors';
import { select } from '../store/actions';
import type { KObject } from '../store/types';
import { rbacView, type AggregationRow, type RuleRow, type SubjectRow } from './rbac-view';

/** A list cell: each value on its own line (`*` stays `*`; an empty list is a dash). */
function Cell({ values }: { values: string[] }) {
  if (!values.length) return <td className="muted">–</td>;
  return (
    <td>
      {values.map((v, i) => (
        <div key={i}>{v === '' ? '""' : v}</div>
      ))}
    </td>
  );
}

function Rules({ rules }: { rules: RuleRow[] }) {
  const { t } = useTranslation();
  if (!rules.length) return <div className="muted placeholder">{t('rbac.noRules')}</div>;
  return (
    <table className="rbac-rules" data-testid="rbac-rules">
      <thead>
        <tr>
          <th>verbs</th>
          <th>apiGroups</th>
          <th>resources</th>
          <th>resourceNames</th>
          <th>nonResourceURLs</th>
        </tr>
      </thead>
      <tbody>
        {rules.map((r, i) => (
          <tr
            key={i}
            data-testid="rbac-rule"
            data-verbs={r.verbs.join(',')}
            data-api-groups={r.apiGroups.join(',')}
            data-resources={r.resources.join(',')}
            data-resource-names={r.resourceNames.join(',')}
            data-non-resource-urls={r.nonResourceURLs.join(',')}
          >
            <Cell values={r.verbs} />
            <Cell values={r.apiGroups} />
            <Cell values={r.resources} />
            <Cell values={r.resourceNames} />
            <Cell values={r.nonResourceURLs} />
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Subjects({ subjects }: { subjects: SubjectRow[] }) {
  const { t } = useTranslation();
  if (!subjects.length) return <div className="muted placeholder">{t('rbac.noSubjects')}</div>;
  return (
    <ul className="rbac-subjects">
      {subjects.map((s, i) => (
        <li key={i} data-testid="rbac-subject" data-kind={s.kind} data-name={s.name} data-namespace={s.namespace}>
          <span className="muted">{s.kind}</span> {s.namespace ? `${s.namespace}/` : ''}
          {s.name}
        </li>
      ))}
    </ul>
  );
}

function Aggregation({ rows }: { rows: AggregationRow[] }) {
  const { t } = useTranslation();
  return (
    <>
      <h3>aggregationRule</h3>
      <div className="hint">{t('rbac.aggregationNote')}</div>
      <ul className="rbac-aggregation" data-testid="rbac-aggregation">
        {rows.map((r, i) => (
          <li key={i} data-testid="rbac-selector">
            clusterRoleSelectors[{i}]: {r.join(', ') || '{}'}
          </li>
        ))}
      </ul>
    </>
  );
}

export function RbacTab({ obj }: { obj: KObject }) {
  const { t } = useTranslation();
  const objects = useKubeStore(selectObjects);
  const view = useMemo(() => rbacView(obj, objects), [obj, objects]);
  if (!view) return null;
  if (view.kind === 'role') {
    return (
      <div className="rbac" data-testid="inspector-rbac" data-kind="role">
        <h3>{t('rbac.rules')}</h3>
        <Rules rules={view.rules} />
        {view.aggregation && <Aggregation rows={view.aggregation} />}
        <h3>{t('rbac.grantedBy')}</h3>
        {view.bindings.length ? (
          <ul className="rbac-bindings" data-testid="rbac-bindings">
            {view.bindings.map((b) => (
              <li key={b.key}>
                <button type="button" className="link" data-testid="rbac-binding" data-key={b.key} onClick={() => select(b.key)}>
                  {b.kind.toLowerCase()}/{b.name}
                  {b.namespace && <span className="muted"> -n {b.namespace}</span>}
                </button>{' '}
                → <Subjects subjects={b.subjects} />
              </li>
            ))}
          </ul>
        ) : (
          <div className="muted placeholder" data-testid="rbac-unbound">
            {t('rbac.unbound')}
          </div>
        )}
      </div>
    );
  }
  const present = objects.has(view.roleRef.key);
  return (
    <div className="rbac" data-testid="inspector-rbac" data-kind="binding">
      <h3>subjects</h3>
      <Subjects subjects={view.subjects} />
      <h3>roleRef</h3>
      <div className="placeholder">
        {present ? (
          <button
            type="button"
            className="link"
            data-testid="rbac-roleref"
            data-key={view.roleRef.key}
            onClick={() => select(view.roleRef.key)}
          >
            {view.roleRef.kind.toLowerCase()}/{view.roleRef.name}
          </button>
        ) : (
          <span data-testid="rbac-roleref" data-key={view.roleRef.key} data-missing="true">
            {view.roleRef.kind.toLowerCase()}/{view.roleRef.name}{' '}
            <span className="notice error" data-testid="rbac-role-missing">
              {t('rbac.roleMissing', { kind: view.roleRef.kind === 'Role' ? 'role' : 'clusterrole', name: view.roleRef.name })}
            </span>
          </span>
        )}
      </div>
      {view.rules && (
        <>
          <h3>{t('rbac.roleRules')}</h3>
          <Rules rules={view.rules} />
        </>
      )}
      {view.aggregation && <Aggregation rows={view.aggregation} />}
    </div>
  );
}
