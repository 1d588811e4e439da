import { Link, type LinkProps } from 'react-router';
import { buttonClass, type ButtonVariant } from './primitives.js';

/** A router link that looks like a button. */
export function ButtonLink({ variant = 'primary', className, ...props }: LinkProps & { variant?: ButtonVariant }) {
  return <Link className={buttonClass(variant, className)} {...props} />;
}
