import { useState } from 'react';
import { messageOf } from '@shared/api-error.js';
import { THEME_CHOICES, THEME_COOKIE, THEME_LABELS, type ThemeChoice } from '@shared/theme.js';
import { apiRequest } from '@views/data/http.js';
import { toast } from '../ui/toast.js';

const ICONS: Readonly<Record<ThemeChoice, string>> = { system: '◐', light: '☀', dark: '☾' };
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/**
 * Shows the choice at once and remembers it: in this browser's cookie (which paints the sign-in page) and as the
 * user's preference (which the server paints first on every browser they sign in to).
 */
function applyTheme(choice: ThemeChoice) {
  const root = document.documentElement;
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
  document.cookie = `${THEME_COOKIE}=${choice}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax`;
  saveTheme(choice);
}

// Saves go one after another, so quick clicks are stored in the order they were made and the last one stays.
let saving: Promise<void> = Promise.resolve();
function saveTheme(choice: ThemeChoice) {
  saving = saving.then(() =>
    apiRequest('PUT', '/api/preferences/theme', { value: choice }).then(
      () => undefined,
      (error: unknown) =>
        toast({ title: 'Could not save the theme', description: messageOf(error, 'Try again in a moment.'), variant: 'destructive' }),
    ),
  );
}

/** The header's theme button: System → Light → Dark → System. */
export function ThemeToggle({ initial }: { initial: ThemeChoice }) {
  const [choice, setChoice] = useState<ThemeChoice>(initial);
  const next = THEME_CHOICES[(THEME_CHOICES.indexOf(choice) + 1) % THEME_CHOICES.length]!;
  return (
    <button
      type="button"
      className="btn btn-ghost theme-toggle"
      aria-label={`Theme: ${THEME_LABELS[choice]}. Switch to ${THEME_LABELS[next]}`}
      data-theme-choice={choice}
      onClick={() => {
        applyTheme(next);
        setChoice(next);
      }}
    >
      <span aria-hidden="true">{ICONS[choice]}</span>
      {/* Said in words where there is room; a phone shows the icon (the accessible name says it all the same). */}
      <span className="theme-toggle-text" aria-hidden="true">
        Theme: {THEME_LABELS[choice]}
      </span>
    </button>
  );
}
