import type { HTMLAttributes } from 'react';
import { CSS_VAR_KEY } from '../app/theme';

/**
 * antd's `Typography.Text` as its stylesheet draws it (the same classes: secondary, danger, strong),
 * without the component, whose every instance mounts a resize observer, an ellipsis measurer and a
 * tooltip wrapper. For a phone's list of work, where a page of cards holds dozens of short texts that
 * are never cut, copied or edited.
 */
export function LightText({
  type,
  strong = false,
  className,
  children,
  ...rest
}: HTMLAttributes<HTMLSpanElement> & { type?: 'secondary' | 'danger'; strong?: boolean }) {
  const classes = ['ant-typography', type && `ant-typography-${type}`, CSS_VAR_KEY, className].filter(Boolean);
  return (
    <span className={classes.join(' ')} {...rest}>
      {strong ? <strong>{children}</strong> : children}
    </span>
  );
}
