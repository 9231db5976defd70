/**
 * The learner's controllers of one cluster (docs/user-controllers.md): start one (again, after
 * an edit: the old one stops first), stop one, list what the UI shows. Each runs in its own
 * sandbox from the injected {@link SandboxFactory}; without one (a cluster built without
 * sandboxes), starting fails with a clear message.
 */
import type { ComponentContext } from '../component-context';
import { isDNS1123Label } from '../api/validation/names';
import { UserController } from './controller';
import type { SandboxFactory, UserControllerSpec, UserControllerStatus } from './types';

export class UserControllers {
  private readonly running = new Map<string, UserController>();
  /** The last status of each controller ever started (a stopped or failed one stays listed). */
  private readonly last = new Map<string, UserControllerStatus>();
  /** Bumped on every change of a status (the host sends the list when it moved). */
  version = 0;
  /** Called when a held reconcile ended (the host resumes its clock loop). */
  onIdle: (() => void) | null = null;

  constructor(
    private readonly ctx: ComponentContext,
    private readonly factory: SandboxFactory | undefined,
  ) {}

  /**
   * Starts (or restarts with a new source) a controller.
   * @throws Error for an invalid name, a cluster without sandboxes, or what
   *   {@link UserController.start} throws (no `for` kind, an unknown kind).
   */
  start(spec: UserControllerSpec): UserControllerStatus {
    const errs = isDNS1123Label(spec.name);
    if (errs.length) throw new Error(`invalid controller name ${JSON.stringify(spec.name)}: ${errs.join(', ')}`);
    if (!this.factory) throw new Error('this cluster runs no user controllers (no sandbox)');
    this.stop(spec.name);
    const c = new UserController(this.ctx, spec, this.factory(spec.name));
    let wasBusy = false;
    c.onChange = () => {
      this.version++;
      this.last.set(c.name, c.status());
      // a reconcile ended (the hold on the clock released): the host's loop may go on
      if (wasBusy && !c.busy) this.onIdle?.();
      wasBusy = c.busy;
    };
    try {
      c.start();
    } catch (e) {
      c.stop();
      this.last.set(c.name, c.status());
      this.version++;
      throw e;
    }
    this.running.set(spec.name, c);
    return c.status();
  }

  /** Stops a controller; harmless when none runs under that name. */
  stop(name: string): void {
    const c = this.running.get(name);
    if (!c) return;
    this.running.delete(name);
    c.stop();
  }

  /** Stops every controller (the cluster is reset). */
  stopAll(): void {
    for (const n of [...this.running.keys()]) this.stop(n);
  }

  /** Every controller started so far, by name. */
  list(): UserControllerStatus[] {
    for (const c of this.running.values()) this.last.set(c.name, c.status());
    return [...this.last.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** The running controller of that name. */
  get(name: string): UserController | undefined {
    return this.running.get(name);
  }

  /** True while any reconcile waits for its sandbox. */
  get busy(): boolean {
    for (const c of this.running.values()) if (c.busy) return true;
    return false;
  }
}
