/**
 * Keeping the story of the last action (story.ts) through the relay's caps (pure): the worker
 * sends at most a batch's share of hops (worker/protocol.ts MAX_HOPS_PER_BATCH), the page keeps
 * at most RELAY_CAP (ui/store/slices/relay.ts). Trimmed to the newest hops alone, a large
 * action (a Deployment of 300 replicas records ~30,000 hops) loses its first hops, and with
 * them every cause chain: the story view would be empty. Both sides keep instead, first, the
 * story's head — its first {@link STORY_HEAD_KEEP} hops, in seq order — and fill the rest
 * with the newest hops (story or not). The bound: at most STORY_HEAD_KEEP old hops are held
 * for the story; everything else is the newest, as before. A story that fits the cap keeps
 * every hop, exactly as before.
 *
 * Story hops after the head that the caps dropped are lost to the page; the worker counts
 * every member ({@link StoryMembers.count}) so that the view can say how many it does not show.
 */
import type { ActionStory, RelayHop } from '../relay-event';
import { inStory, storyHops } from './story';

/**
 * Most hops of a story kept ahead of the newest: its first ones (the story view draws from its
 * start, at most STORY_MAX_HOPS (module `./window`) drawn hops, each standing for one or a few hops).
 */
export const STORY_HEAD_KEEP = 1_000;

/**
 * The membership of one story, fed incrementally (the worker's side of {@link storyHops}, the
 * same rule: story.ts inStory). Feed every hop from `story.seq` on, in seq order, each once.
 */
/** At most this many story seqs are remembered to follow causes (bounds the worker's memory on a huge apply). */
export const STORY_MEMBERS_KEEP = 100_000;

export class StoryMembers {
  /**
   * seqs of the newest {@link STORY_MEMBERS_KEEP} members (insertion order is seq order, so the
   * oldest go first): enough to follow causes, which name recent hops; a hop caused by an
   * older member is not recognised, as on the page once the relay has dropped that member.
   */
  private readonly members = new Set<number>();
  /** Members seen in all (counted even after their seq left {@link members}). */
  private seen = 0;
  /** seqs of the first {@link STORY_HEAD_KEEP} members. */
  private readonly head = new Set<number>();
  /** seq of the last hop fed (story.seq − 1 before any). */
  fedUpTo: number;

  constructor(readonly story: ActionStory) {
    this.fedUpTo = story.seq - 1;
  }

  /** Members seen so far. */
  get count(): number {
    return this.seen;
  }

  /**
   * Feeds hops in seq order; those at or below {@link fedUpTo} are skipped (fed already).
   * `upTo`: every hop up to this seq was fed (none missing between), e.g. the last seq of a batch.
   */
  feed(hops: readonly RelayHop[], upTo = -Infinity): void {
    for (const h of hops) {
      if (h.seq <= this.fedUpTo) continue;
      this.fedUpTo = h.seq;
      if (!inStory(h, this.story, this.members)) continue;
      this.members.add(h.seq);
      this.seen++;
      if (this.members.size > STORY_MEMBERS_KEEP) this.members.delete(this.members.values().next().value as number);
      if (this.head.size < STORY_HEAD_KEEP) this.head.add(h.seq);
    }
    this.fedUpTo = Math.max(this.fedUpTo, upTo);
  }

  /** Whether hop `seq` is one of the story's first {@link STORY_HEAD_KEEP} hops. */
  inHead(seq: number): boolean {
    return this.head.has(seq);
  }
}

/**
 * At most `max` of `hops` (seq order), in seq order: first those `isHead` names (the oldest
 * first, at most `max`), then the newest of the rest. `hops` itself when it fits.
 */
export function keepHeadAndNewest(hops: readonly RelayHop[], max: number, isHead: (h: RelayHop) => boolean): RelayHop[] {
  if (hops.length <= max) return hops.slice();
  const keep = new Set<RelayHop>();
  for (const h of hops) {
    if (keep.size >= max) break;
    if (isHead(h)) keep.add(h);
  }
  for (let i = hops.length - 1; i >= 0 && keep.size < max; i--) keep.add(hops[i]);
  return hops.filter((h) => keep.has(h));
}

/**
 * The page's cap (ui/store/reducers.ts): `base` then `added` (both in seq order), at most `cap`
 * hops — the first {@link STORY_HEAD_KEEP} hops of `story` found among them (storyHops), then
 * the newest. Without a story, or when everything fits, the newest `cap` as before.
 */
export function capRelayHops(base: readonly RelayHop[], added: readonly RelayHop[], cap: number, story: ActionStory | null): RelayHop[] {
  if (base.length + added.length <= cap) return base.concat(added);
  const all = base.concat(added);
  if (!story) return all.slice(-cap);
  const head = new Set(storyHops(all, story).slice(0, STORY_HEAD_KEEP));
  return keepHeadAndNewest(all, cap, (h) => head.has(h));
}
