/**
 * Prints an HTML page the API answered (a visitor's badge, issue 29) with the browser's own
 * print dialog, from a hidden frame of this page: the API wants the session's bearer token,
 * which a plain `window.open` of its address would not send. The page goes in as `srcdoc`:
 * it keeps this page's origin and policy (its inline styles and `@page` size apply; its
 * relative image addresses load from this origin, the files cookie with them).
 */

const FRAME_ATTRIBUTE = 'data-print-frame';
/** A frame is removed once its dialog closes ('afterprint'), or after this long at most. */
const FRAME_LIFETIME_MS = 120_000;

function removeFrames() {
  for (const frame of document.querySelectorAll(`iframe[${FRAME_ATTRIBUTE}]`)) frame.remove();
}

/** Resolves once the print dialog was asked for (Chrome returns when it closes). */
export function printHtml(html: string, title: string): Promise<void> {
  removeFrames();
  return new Promise<void>((resolve, reject) => {
    const frame = document.createElement('iframe');
    frame.setAttribute(FRAME_ATTRIBUTE, '');
    frame.setAttribute('aria-hidden', 'true');
    frame.tabIndex = -1;
    frame.title = title;
    Object.assign(frame.style, {
      position: 'fixed',
      right: '0',
      bottom: '0',
      width: '0',
      height: '0',
      border: '0',
      visibility: 'hidden',
    });
    const timer = window.setTimeout(() => frame.remove(), FRAME_LIFETIME_MS);
    const remove = () => {
      window.clearTimeout(timer);
      frame.remove();
    };
    frame.addEventListener(
      'load',
      () => {
        const view = frame.contentWindow;
        const page = frame.contentDocument;
        if (!view || !page) {
          remove();
          reject(new Error('print frame'));
          return;
        }
        // The photo, the logo and the QR are drawn before the page goes to the printer.
        const images = [...page.images].map((image) =>
          image.complete ? undefined : image.decode().catch(() => undefined),
        );
        void Promise.all([...images, page.fonts?.ready.catch(() => undefined)]).then(() => {
          view.addEventListener('afterprint', () => window.setTimeout(remove, 0), { once: true });
          try {
            view.focus();
            view.print();
            resolve();
          } catch (error) {
            remove();
            reject(error instanceof Error ? error : new Error('print'));
          }
        });
      },
      { once: true },
    );
    frame.srcdoc = html;
    document.body.appendChild(frame);
  });
}
