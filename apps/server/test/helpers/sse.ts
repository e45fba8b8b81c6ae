/**
 * Reads a Server-Sent Events answer (`GET /api/live`) as the live screens do, block by
 * block: `onEvent` gets each block's `event:` type and `data:` line. Ends when the
 * stream ends or is aborted. The server's live tests and `bench -- onsite` read the
 * stream with it.
 */
export async function readEvents(
  res: Response,
  onEvent: (type: string | undefined, data: string | undefined) => void,
): Promise<void> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let cut;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        onEvent(/^event: (.*)$/m.exec(block)?.[1], /^data: (.*)$/m.exec(block)?.[1]);
      }
    }
  } catch {
    // aborted: the screen was closed
  }
}
