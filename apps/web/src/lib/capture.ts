/**
 * Captures of on-screen cards (visitor card, posters, member cards) as PNG downloads.
 * html-to-image loads with the first capture, not with the page that offers one.
 */
export async function nodeToPngDataUrl(node: HTMLElement): Promise<string> {
  const { toPng } = await import('html-to-image');
  return toPng(node, { pixelRatio: 2, cacheBust: false, backgroundColor: '#ffffff' });
}

export function downloadDataUrl(dataUrl: string, filename: string): void {
  const link = document.createElement('a');
  link.href = dataUrl;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
}

export async function downloadNodeAsPng(node: HTMLElement, filename: string): Promise<void> {
  downloadDataUrl(await nodeToPngDataUrl(node), filename);
}
