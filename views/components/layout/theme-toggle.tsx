import { useState } from 'react';
import { THEME_CHOICES, THEME_COOKIE, THEME_LABELS, type ThemeChoice } from '@shared/theme.js';

const ICONS: Readonly<Record<ThemeChoice, string>> = { system: '◐', light: '☀', dark: '☾' };
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** Shows the choice at once and remembers it for the next page the server renders. */
function applyTheme(choice: ThemeChoice) {
  const root = document.documentElement;
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
  document.cookie = `${THEME_COOKIE}=${choice}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax`;
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
      title={`Theme: ${THEME_LABELS[choice]}`}
      data-theme-choice={choice}
      onClick={() => {
        applyTheme(next);
        setChoice(next);
      }}
    >
      <span aria-hidden="true">{ICONS[choice]}</span>
    </button>
  );
}
