/**
 * Goes to a page after the spec's delay (a success message shows meanwhile); the
 * timer is dropped if the screen goes away first.
 */
import { useCallback, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { REDIRECT_DELAY_MS } from '@sesame/shared';

export function useDelayedNavigate(delayMs: number = REDIRECT_DELAY_MS) {
  const navigate = useNavigate();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(
    (to: string) => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void navigate(to), delayMs);
    },
    [navigate, delayMs],
  );
}
