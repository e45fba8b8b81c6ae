/**
 * A code in front of the camera is read once (issue 14, "scanning, calmer"): a badge
 * left under the camera is not posted again and again; it counts as gone after
 * `goneAfter` frames without any code, and is read again when it comes back.
 */
export interface FrameGate {
  /** One decoded frame (null: no code in it). True when this code should be handled now. */
  next(value: string | null): boolean;
}

export function createFrameGate(goneAfter: number): FrameGate {
  let current: string | null = null;
  let empty = 0;
  return {
    next(value) {
      if (!value) {
        empty += 1;
        if (empty >= goneAfter) current = null;
        return false;
      }
      empty = 0;
      if (value === current) return false;
      current = value;
      return true;
    },
  };
}
