import type { ComponentProps, HTMLAttributes, InputHTMLAttributes, LabelHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';

// Nothing here imports react-router: the sign-in page uses these without the router (a third of the app's first
// load). ButtonLink, a router link, is in button-link.tsx.
export type ButtonVariant = 'primary' | 'secondary' | 'outline' | 'ghost' | 'destructive' | 'danger-quiet';
const cx = (...names: Array<string | false | undefined | null>) => names.filter(Boolean).join(' ');

/** A button's classes, for a button or anything styled as one. */
export const buttonClass = (variant: ButtonVariant, className?: string) => cx('btn', `btn-${variant}`, className);

export function Button({
  variant = 'primary',
  className,
  type = 'button',
  ...props
}: ComponentProps<'button'> & { variant?: ButtonVariant }) {
  return <button type={type} className={buttonClass(variant, className)} {...props} />;
}

export function Card({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cx('card', className)} {...props} />;
}

export function CardHeader({ title, actions, level = 2 }: { title: ReactNode; actions?: ReactNode; level?: 2 | 3 }) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <div className="card-header">
      <Heading className="card-title">{title}</Heading>
      {actions && <div className="card-actions">{actions}</div>}
    </div>
  );
}

export function Badge({
  tone = 'default',
  className,
  ...props
}: HTMLAttributes<HTMLSpanElement> & { tone?: 'default' | 'success' | 'warning' | 'muted' | 'info' | 'danger' }) {
  return <span className={cx('badge', `badge-${tone}`, className)} {...props} />;
}

export function Skeleton({ className }: { className?: string }) {
  return <div className={cx('skeleton', className)} aria-hidden="true" />;
}

export function Spinner({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="spinner-wrap" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

export function Alert({
  variant = 'default',
  title,
  children,
}: {
  variant?: 'default' | 'destructive';
  title?: string;
  children: ReactNode;
}) {
  return (
    <div role="alert" className={cx('alert', variant === 'destructive' && 'alert-destructive')}>
      {title && <strong className="alert-title">{title}</strong>}
      <div>{children}</div>
    </div>
  );
}

export function Label({ required, children, ...props }: LabelHTMLAttributes<HTMLLabelElement> & { required?: boolean }) {
  return (
    <label className="label" {...props}>
      {children}
      {required && <span aria-hidden="true"> *</span>}
    </label>
  );
}

export function Input({ className, ...props }: InputHTMLAttributes<HTMLInputElement>) {
  return <input className={cx('input', className)} {...props} />;
}

export function Textarea({ className, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea className={cx('input', 'textarea', className)} {...props} />;
}

export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="field-error" role="alert">
      {message}
    </p>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <h2>{title}</h2>
      {children && <p>{children}</p>}
    </div>
  );
}

export { cx };
