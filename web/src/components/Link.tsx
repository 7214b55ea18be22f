import type { AnchorHTMLAttributes, MouseEvent, Ref } from 'react';
import { useHref, useLinkClickHandler, type To } from 'react-router';

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  to: To;
  replace?: boolean;
  state?: unknown;
  ref?: Ref<HTMLAnchorElement>;
};

/**
 * react-router's Link for the app's own paths: the same anchor and click handling (react-router's useHref and
 * useLinkClickHandler: a plain left click navigates in the app, a modified or middle click or another target is
 * left to the browser, and a link to where one is replaces the entry). Not react-router's component itself: it
 * brings framework mode's route prefetching (which the declarative router never uses) to every page's first
 * chunk (src/budget.test.ts). The app links to its own routes only; an outside address is a plain <a>.
 */
export default function Link({ to, replace, state, target, onClick, ref, ...rest }: LinkProps) {
  const href = useHref(to);
  const navigate = useLinkClickHandler<HTMLAnchorElement>(to, { replace, state, target });
  const click = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (!event.defaultPrevented) navigate(event);
  };
  return <a {...rest} ref={ref} href={href} target={target} onClick={click} />;
}
