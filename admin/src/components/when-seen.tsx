import { type ReactNode, useEffect, useRef, useState } from 'react';

/**
 * Renders its children once their place comes near the viewport (within 200 px): what sits below a
 * list of work (a user's history, an export) then costs a phone's first screen nothing, neither its
 * chunk nor its render, and is there by the time the operator scrolls to it.
 */
export function WhenSeen({ children }: { children: ReactNode }) {
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined');
  const place = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const target = place.current;
    if (seen || !target) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
      },
      { rootMargin: '200px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [seen]);
  return seen ? children : <div ref={place} className="when-seen" />;
}
