import { describe, expect, it } from 'vitest';
import type { ActionStory, RelayHop } from '../relay-event';
import { storyHops } from './story';
import { STORY_HEAD_KEEP, STORY_MEMBERS_KEEP, StoryMembers, capRelayHops, keepHeadAndNewest } from './story-keep';

const hop = (seq: number, cause: number | null, from = 'kube-apiserver', to = 'etcd'): RelayHop => ({
  seq,
  time: seq,
  cause,
  from,
  to,
  kind: 'request',
  summary: `hop ${seq}`,
});

/**
 * Background hops 1…99; the action's own hops 100 and 101 (the story's roots); then 4,998
 * story hops (even seqs 102…10,096, each caused by the one before) interleaved with background
 * (odd seqs 103…10,097): a story of 5,000 hops among 10,097.
 */
const STORY: ActionStory = { seq: 100, endSeq: 101, label: 'apply', subjects: [] };
function relay(): RelayHop[] {
  const out: RelayHop[] = [];
  for (let s = 1; s < 100; s++) out.push(hop(s, null));
  out.push(hop(100, null, 'kubectl', 'kube-apiserver'), hop(101, 100, 'kube-apiserver', 'kubectl'));
  for (let i = 0; i < 4_998; i++) {
    out.push(hop(102 + 2 * i, i === 0 ? 101 : 100 + 2 * i));
    out.push(hop(103 + 2 * i, null, 'kubelet/node-1', 'kube-apiserver'));
  }
  return out;
}
const seqs = (hs: readonly RelayHop[]) => hs.map((h) => h.seq);
/** from…to by step */
const range = (from: number, to: number, step = 1) => Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => from + i * step);
/** the story's first 1,000 hops: the roots, then even seqs 102…2,096 */
const HEAD = [100, 101, ...range(102, 2_096, 2)];

describe('story-keep: the story of the last action through the relay caps', () => {
  it('StoryMembers fed in uneven batches counts what storyHops finds, and its head is the first 1,000', () => {
    const all = relay();
    expect(storyHops(all, STORY)).toHaveLength(5_000);
    const m = new StoryMembers(STORY);
    for (let i = 0, n = 7; i < all.length; i += n, n = (n * 3) % 1_901) m.feed(all.slice(i, i + n));
    expect([m.count, m.fedUpTo, STORY_HEAD_KEEP]).toEqual([5_000, 10_097, 1_000]);
    expect(all.filter((h) => m.inHead(h.seq)).map((h) => h.seq)).toEqual(HEAD);
    // a hop fed twice is not counted twice
    m.feed(all.slice(200, 300));
    expect(m.count).toBe(5_000);
  });

  it.each([
    { name: 'a batch of 2,000: the head, then the newest 1,000', max: 2_000, kept: [...HEAD, ...range(9_098, 10_097)] },
    { name: 'a summarized batch of 300: the first 300 of the head only', max: 300, kept: HEAD.slice(0, 300) },
    { name: 'everything fits: every hop as it was', max: 20_000, kept: range(1, 10_097) },
  ])('keepHeadAndNewest, $name', ({ max, kept }) => {
    const all = relay();
    const m = new StoryMembers(STORY);
    m.feed(all);
    const out = keepHeadAndNewest(all, max, (h) => m.inHead(h.seq));
    expect(seqs(out)).toEqual(kept);
    expect(out.length).toBeLessThanOrEqual(max);
  });

  it('worker batches of 2,000 folded into a page of 3,000: the roots stay, the story reads from kubectl on, 4,000 hops are not kept', () => {
    const all = relay();
    const m = new StoryMembers(STORY);
    let page: RelayHop[] = [];
    for (let i = 0; i < all.length; i += 3_000) {
      const pending = all.slice(i, i + 3_000);
      m.feed(pending);
      page = capRelayHops(
        page,
        keepHeadAndNewest(pending, 2_000, (h) => m.inHead(h.seq)),
        3_000,
        STORY,
      );
      expect(page.length).toBeLessThanOrEqual(3_000);
    }
    expect(seqs(page)).toEqual([...HEAD, ...range(8_098, 10_097)]);
    const told = storyHops(page, STORY);
    expect(seqs(told)).toEqual(HEAD);
    expect(told[0]).toMatchObject({ from: 'kubectl', to: 'kube-apiserver' });
    expect(m.count - told.length).toBe(4_000);
    // as before: the newest only, the story lost
    let before: RelayHop[] = [];
    for (let i = 0; i < all.length; i += 3_000) before = [...before, ...all.slice(i, i + 3_000).slice(-2_000)].slice(-3_000);
    expect(storyHops(before, STORY)).toEqual([]);
  });

  it.each([
    { name: 'fits the cap', base: 10, added: 5, story: STORY, kept: range(1, 15) },
    { name: 'no story: the newest', base: 2_500, added: 1_000, story: null, kept: range(501, 3_500) },
    {
      name: 'a story before every hop held: the newest',
      base: 2_500,
      added: 1_000,
      story: { ...STORY, seq: 20_000, endSeq: 20_000 },
      kept: range(501, 3_500),
    },
    {
      name: 'a story of 2 hops: they stay, then the newest',
      base: 2_500,
      added: 1_000,
      story: STORY,
      kept: [100, 101, ...range(503, 3_500)],
    },
  ])('capRelayHops, $name', ({ base, added, story, kept }) => {
    const all = relay();
    // for the 2-hop story: its hops after the roots are background here (no cause)
    const hs = all.map((h) => (h.seq > 101 ? { ...h, cause: null } : h));
    expect(seqs(capRelayHops(hs.slice(0, base), hs.slice(base, base + added), 3_000, story))).toEqual(kept);
  });
});

describe('story-keep: the worker remembers a bounded number of members', () => {
  it('a chain longer than STORY_MEMBERS_KEEP is counted whole and still followed at its tip', () => {
    const story: ActionStory = { seq: 1, endSeq: 1, label: 'apply', subjects: [] };
    const n = STORY_MEMBERS_KEEP + 10;
    const hops = Array.from({ length: n }, (_, i) => hop(i + 1, i === 0 ? null : i));
    const m = new StoryMembers(story);
    m.feed(hops);
    // a hop caused by the newest member is in the story; one caused by the very first is no longer recognised
    m.feed([hop(n + 1, n), hop(n + 2, 1)]);
    expect([m.count, m.inHead(1), m.inHead(STORY_HEAD_KEEP), m.inHead(STORY_HEAD_KEEP + 1)]).toEqual([n + 1, true, true, false]);
  });
});
