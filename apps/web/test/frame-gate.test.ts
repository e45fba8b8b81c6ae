import { describe, expect, it } from 'vitest';
import { createFrameGate } from '../src/lib/frame-gate';

describe('the scanner reads a code once until it leaves the frame', () => {
  it('a badge left in front of the camera is handled once', () => {
    const gate = createFrameGate(2);
    expect(['A', 'A', 'A', 'A'].map((v) => gate.next(v))).toEqual([true, false, false, false]);
  });

  it('one blurred frame is not the badge leaving; two empty frames are', () => {
    const gate = createFrameGate(2);
    expect(gate.next('A')).toBe(true);
    expect(gate.next(null)).toBe(false);
    expect(gate.next('A')).toBe(false);
    expect(gate.next(null)).toBe(false);
    expect(gate.next(null)).toBe(false);
    expect(gate.next('A')).toBe(true);
  });

  it('another code is read at once', () => {
    const gate = createFrameGate(2);
    expect(gate.next('A')).toBe(true);
    expect(gate.next('B')).toBe(true);
    expect(gate.next('A')).toBe(true);
  });
});
