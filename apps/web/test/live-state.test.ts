/** The live feed's state on screen (issue 26 §0): interrupted until the screen has refetched. */
import { describe, expect, it } from 'vitest';
import { LIVE_HEARTBEAT_MS } from '@sesame/shared';
import {
  nextLiveStatus,
  parseBlocks,
  SILENCE_LIMIT_MS,
  type LiveSignal,
  type LiveStatus,
} from '../src/lib/live-state';

/** The status after each signal in turn, from `connecting`. */
const walk = (...signals: LiveSignal[]): LiveStatus[] => {
  const seen: LiveStatus[] = [];
  let status: LiveStatus = 'connecting';
  for (const signal of signals) {
    status = nextLiveStatus(status, signal);
    seen.push(status);
  }
  return seen;
};

describe('nextLiveStatus', () => {
  it('is live once the server is ready', () => {
    expect(walk('connecting', 'ready')).toEqual(['connecting', 'live']);
  });

  it('shows the feed interrupted from the server’s word until its resync', () => {
    expect(walk('ready', 'interrupted', 'resync')).toEqual(['live', 'interrupted', 'live']);
  });

  it('stays interrupted while the stream is opened again, until the new stream is ready', () => {
    expect(walk('ready', 'interrupted', 'closed', 'connecting', 'ready')).toEqual([
      'live',
      'interrupted',
      'interrupted',
      'interrupted',
      'live',
    ]);
  });

  it('takes a silent stream (no heartbeat) for an interrupted one', () => {
    expect(walk('ready', 'silent', 'closed', 'connecting')).toEqual([
      'live',
      'interrupted',
      'interrupted',
      'interrupted',
    ]);
  });

  it('a new stream whose server is still cut is interrupted, not live', () => {
    expect(walk('ready', 'closed', 'connecting', 'ready', 'interrupted')).toEqual([
      'live',
      'offline',
      'offline',
      'live',
      'interrupted',
    ]);
  });

  it('a stream that ended while live is reconnecting, not interrupted', () => {
    expect(walk('ready', 'closed', 'connecting')).toEqual(['live', 'offline', 'offline']);
    expect(walk('closed')).toEqual(['offline']);
  });

  it('gives a silent stream two heartbeats and some slack', () => {
    expect(SILENCE_LIMIT_MS).toBeGreaterThan(2 * LIVE_HEARTBEAT_MS);
    expect(SILENCE_LIMIT_MS).toBeLessThan(3 * LIVE_HEARTBEAT_MS);
  });
});

describe('parseBlocks', () => {
  it('reads the feed’s events, skips heartbeats and keeps a partial block for later', () => {
    const { blocks, rest } = parseBlocks(
      'retry: 2000\nevent: ready\ndata: {}\n\n: ping\n\nevent: interrupted\ndata: {}\n\nevent: res',
    );
    expect(blocks).toEqual([
      ['ready', '{}'],
      ['interrupted', '{}'],
    ]);
    expect(rest).toBe('event: res');
    expect(parseBlocks(`${rest}ync\r\ndata: {}\r\n\r\n`).blocks).toEqual([['resync', '{}']]);
  });
});
