/**
 * The live feed's state as a screen shows it (lib/live.ts reads the stream), pure logic:
 *   - `connecting`: the first connection is being made;
 *   - `live`: the stream is open and the server hears the database;
 *   - `interrupted`: the server said its feed is cut (`event: interrupted`), or the stream
 *     went silent past two heartbeats — changes are being missed. It lasts until the
 *     feed is back and the screen has refetched (`resync`, or `ready` on a new stream);
 *   - `offline`: the stream ended or failed and is being opened again.
 */
import { LIVE_HEARTBEAT_MS } from '@sesame/shared';

export type LiveStatus = 'connecting' | 'live' | 'interrupted' | 'offline';

/** What happened to the stream. */
export type LiveSignal =
  /** A connection is being opened. */
  | 'connecting'
  /** The server answered and listens (`event: ready`). */
  | 'ready'
  /** The server stopped hearing the database. */
  | 'interrupted'
  /** The server hears again; the screen refetches. */
  | 'resync'
  /** Nothing arrived, not even a heartbeat, for SILENCE_LIMIT_MS. */
  | 'silent'
  /** The stream ended or failed. */
  | 'closed';

/** Two heartbeats missed, and some slack for a slow network. */
export const SILENCE_LIMIT_MS = 2 * LIVE_HEARTBEAT_MS + 5_000;

export function nextLiveStatus(status: LiveStatus, signal: LiveSignal): LiveStatus {
  switch (signal) {
    case 'ready':
    case 'resync':
      return 'live';
    case 'interrupted':
    case 'silent':
      return 'interrupted';
    // Reconnecting after a cut: still interrupted until the feed is back.
    case 'connecting':
      return status === 'live' ? 'offline' : status;
    case 'closed':
      return status === 'interrupted' ? 'interrupted' : 'offline';
  }
}

/** Splits an SSE text stream into (event, data) pairs; comment lines (heartbeats) carry none. */
export function parseBlocks(buffer: string): { blocks: [string, string][]; rest: string } {
  const blocks: [string, string][] = [];
  let rest = buffer.replace(/\r\n/g, '\n');
  let cut: number;
  while ((cut = rest.indexOf('\n\n')) >= 0) {
    const block = rest.slice(0, cut);
    rest = rest.slice(cut + 2);
    let type = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) type = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length > 0) blocks.push([type, data.join('\n')]);
  }
  return { blocks, rest };
}
