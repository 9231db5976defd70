import { describe, expect, it } from 'vitest';
import { emptyHistory, historyDown, historyUp, pushHistory } from './history';

describe('kubectl bar history', () => {
  it('walks back with ↑ and forward with ↓, returning the draft past the newest', () => {
    let h = pushHistory(pushHistory(emptyHistory(), 'get pods'), 'get nodes');
    let r = historyUp(h, 'desc');
    expect(r.text).toBe('get nodes');
    r = historyUp(r.history, r.text);
    expect(r.text).toBe('get pods');
    r = historyUp(r.history, r.text);
    expect(r.text).toBe('get pods'); // stays at the oldest
    r = historyDown(r.history, r.text);
    expect(r.text).toBe('get nodes');
    r = historyDown(r.history, r.text);
    expect(r.text).toBe('desc');
    r = historyDown(r.history, r.text);
    expect(r.text).toBe('desc');
    h = r.history;
    expect(h.cursor).toBe(2);
  });

  it('skips blanks and consecutive duplicates, caps the length, and ends browsing on push', () => {
    let h = emptyHistory();
    for (const l of ['get pods', 'get pods', '  ', 'get nodes', 'get pods']) h = pushHistory(h, l);
    expect(h.entries).toEqual(['get pods', 'get nodes', 'get pods']);
    const browsing = historyUp(h, '').history;
    expect(pushHistory(browsing, 'x').cursor).toBe(4);
    for (let i = 0; i < 10; i++) h = pushHistory(h, `c${i}`, 5);
    expect(h.entries).toEqual(['c5', 'c6', 'c7', 'c8', 'c9']);
  });

  it('does nothing on an empty history', () => {
    expect(historyUp(emptyHistory(), 'abc').text).toBe('abc');
    expect(historyDown(emptyHistory(), 'abc').text).toBe('abc');
  });
});
