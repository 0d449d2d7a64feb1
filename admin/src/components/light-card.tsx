import type { HTMLAttributes } from 'react';
import { CSS_VAR_KEY } from '../app/theme';

/**
 * antd's Card as its stylesheet draws it (the same classes, so the same look under the console's
 * theme), without the component: a list of work renders a dozen of these on its first screen, and
 * antd's Card brings its tabs and skeleton and a heavier render with it. For a card with a body only.
 */
export function LightCard({
  small = false,
  className,
  children,
  ...rest
}: HTMLAttributes<HTMLDivElement> & { small?: boolean }) {
  return (
    <div
      className={`ant-card ant-card-bordered${small ? ' ant-card-small' : ''} ${CSS_VAR_KEY}${className ? ` ${className}` : ''}`}
      {...rest}
    >
      <div className="ant-card-body">{children}</div>
    </div>
  );
}
