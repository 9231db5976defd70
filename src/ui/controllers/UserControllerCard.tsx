/**
 * A user controller's card in the control plane (docs/user-controllers.md): its name, what it
 * reconciles, its work queue depth and its last error; a click opens its inspector (reconciles,
 * errors, the last error in full, owned kinds) in place. Hooks: docs/ui-hooks.md.
 */
import { memo, useState } from 'react';
import { Handles } from '../graph/cards/Handles';
import { Flash } from '../graph/cards/Flash';
import { useHopHighlight } from '../graph/cards/useHopHighlight';
import { selectController, useControllers } from './controller-store';

export const UserControllerCard = memo(function UserControllerCard({ card, name }: { card: string; name: string }) {
  const lit = useHopHighlight(card);
  const st = useControllers(selectController(name));
  const [open, setOpen] = useState(false);
  const err = st?.lastError ?? null;
  return (
    <div
      className={`card component user-controller ${lit ? 'hop-lit' : ''} ${err ? 'failing' : ''}`}
      data-testid="component-card"
      data-component={name}
      data-user-controller={name}
      data-state={st?.state ?? 'stopped'}
      data-queue-depth={st?.queueDepth ?? 0}
      data-errors={st?.errors ?? 0}
      onClick={() => setOpen((o) => !o)}
      title={err ? err.message : `reconciles ${st?.for ?? ''}`}
    >
      <Handles />
      <Flash card={card} />
      <div className="title">{name}</div>
      <div className="subtitle">
        queue {st?.queueDepth ?? 0}
        {st?.inFlight ? ' · reconciling' : ''}
        {err ? ' · error' : ''}
      </div>
      {open && st && (
        <dl className="user-controller-inspector nodrag" data-testid="user-controller-inspector" onClick={(e) => e.stopPropagation()}>
          <dt>for</dt>
          <dd>{st.for}</dd>
          {st.owns.length > 0 && (
            <>
              <dt>owns</dt>
              <dd>{st.owns.join(', ')}</dd>
            </>
          )}
          <dt>work queue</dt>
          <dd data-testid="user-controller-queue">{st.queueDepth}</dd>
          <dt>reconciles</dt>
          <dd>
            {st.reconciles} ({st.errors} failed)
          </dd>
          <dt>last error</dt>
          <dd data-testid="user-controller-last-error">{err ? `${err.key}: ${err.message}` : 'none'}</dd>
        </dl>
      )}
    </div>
  );
});
