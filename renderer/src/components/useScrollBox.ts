// The scroll box of a virtualized list: where it is scrolled and how tall it is, which is all
// lib/windowing.ts needs to say which rows exist. Measured when the box mounts (again whenever
// `mounted` changes: a box that appears once there are rows) and whenever it is resized.
import { useCallback, useLayoutEffect, useRef, useState, type UIEvent } from 'react';

export function useScrollBox(mounted: unknown = true) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setViewport(element.clientHeight));
    observer.observe(element);
    setViewport(element.clientHeight);
    setScrollTop(element.scrollTop);
    return () => observer.disconnect();
  }, [mounted]);
  const onScroll = useCallback((event: UIEvent<HTMLDivElement>) => setScrollTop(event.currentTarget.scrollTop), []);
  return { ref, scrollTop, viewport, onScroll };
}
