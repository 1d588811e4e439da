import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useId, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { RECORD_TYPE_INFO } from '@shared/record-types.js';
import type { SearchResults, SearchType } from '@shared/schemas/search.js';
import { apiRequest } from '@views/data/http.js';
import { withQuery } from '@views/data/source.js';
import { useFormat } from '@views/hooks/use-format.js';
import { isPaletteShortcut, SearchButton } from './search-entry.js';

/** How long typing pauses before the palette searches. */
const TYPING_PAUSE_MS = 150;

const GROUP_LABEL = (type: SearchType) => (type === 'contact' ? 'Contacts' : RECORD_TYPE_INFO[type].plural);
const seeAllLabel = (type: SearchType, total: number) =>
  `See all ${total} ${type === 'contact' ? 'contacts' : RECORD_TYPE_INFO[type].pluralNoun}`;
const listPathOf = (type: SearchType) => (type === 'contact' ? '/contacts' : RECORD_TYPE_INFO[type].path);

interface Option {
  key: string;
  label: string;
  detail: string;
  url: string;
}

/** The options of the results, group by group: each group's matches, then "See all N …" when there are more. */
function groupsOf(results: SearchResults | null, q: string, formatDate: (day: string) => string) {
  return (results?.groups ?? [])
    .filter((group) => group.total > 0)
    .map((group) => {
      const options: Option[] = group.items.map((item) => ({
        key: `${group.type}-${item.id}`,
        label: item.title,
        detail: [item.date ? formatDate(item.date) : '', item.subtitle].filter(Boolean).join(' · '),
        url: item.url,
      }));
      if (group.total > group.items.length) {
        options.push({
          key: `${group.type}-all`,
          label: seeAllLabel(group.type, group.total),
          detail: '',
          url: withQuery(listPathOf(group.type), { q }),
        });
      }
      return { type: group.type, total: group.total, options };
    });
}

/**
 * The command palette (Ctrl+K / ⌘K, or the header's search box): results of every record type and contacts as
 * you type, grouped with counts; arrows move, Enter opens, Escape closes. A combobox over a listbox, focus kept in
 * the input while the active option is announced.
 */
export function CommandPalette({ initiallyOpen = false }: { initiallyOpen?: boolean }) {
  const [open, setOpen] = useState(initiallyOpen);
  const [text, setText] = useState('');
  const [results, setResults] = useState<SearchResults | null>(null);
  const [active, setActive] = useState(0);
  const navigate = useNavigate();
  const id = useId();
  const format = useFormat();

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isPaletteShortcut(event)) {
        event.preventDefault();
        setOpen(true);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const q = text.trim();
  useEffect(() => {
    if (!open || q === '') return;
    let current = true;
    const timer = setTimeout(() => {
      apiRequest<SearchResults>('GET', `/api/search?${new URLSearchParams({ q, limit: '5' }).toString()}`).then(
        (found) => {
          if (!current) return;
          setResults(found);
          setActive(0);
        },
        () => current && setResults({ groups: [] }),
      );
    }, TYPING_PAUSE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [q, open]);

  const groups = q === '' ? [] : groupsOf(results, q, format.date);
  const options = groups.flatMap((group) => group.options);
  const optionId = (index: number) => `${id}-option-${index}`;

  const close = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setText('');
      setResults(null);
    }
  };
  const go = (option: Option | undefined) => {
    if (!option) return;
    close(false);
    void navigate(option.url);
  };
  const onKeyDown = (event: ReactKeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((index) => (options.length ? (index + 1) % options.length : 0));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((index) => (options.length ? (index - 1 + options.length) % options.length : 0));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      go(options[active]);
    }
  };

  // Each group's first option's place in the whole list (the active index runs across groups).
  const starts = groups.map((_, i) => groups.slice(0, i).reduce((n, group) => n + group.options.length, 0));
  return (
    <Dialog.Root open={open} onOpenChange={close}>
      <Dialog.Trigger asChild>
        <SearchButton />
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog command-palette" aria-describedby={undefined}>
          <Dialog.Title className="visually-hidden">Search everything</Dialog.Title>
          <input
            className="input command-palette-input"
            role="combobox"
            aria-label="Search events, professionals, run clubs, brands, media, influencers and contacts"
            aria-expanded={options.length > 0}
            aria-controls={`${id}-listbox`}
            aria-autocomplete="list"
            aria-activedescendant={options.length ? optionId(active) : undefined}
            placeholder="Search everything…"
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onKeyDown}
            autoComplete="off"
          />
          <div id={`${id}-listbox`} role="listbox" aria-label="Results" className="command-palette-results">
            {groups.map((group, groupIndex) => (
              <div key={group.type} role="group" aria-label={`${GROUP_LABEL(group.type)} (${group.total})`}>
                <div className="command-palette-group" aria-hidden="true">
                  {GROUP_LABEL(group.type)} <span className="muted">({group.total})</span>
                </div>
                {group.options.map((option, optionIndex) => {
                  const mine = starts[groupIndex]! + optionIndex;
                  return (
                    <div
                      key={option.key}
                      id={optionId(mine)}
                      role="option"
                      aria-selected={mine === active}
                      className={mine === active ? 'command-palette-option active' : 'command-palette-option'}
                      onMouseEnter={() => setActive(mine)}
                      onMouseDown={(event) => event.preventDefault()}
                      onClick={() => go(option)}
                    >
                      <span>{option.label}</span>
                      {option.detail && <span className="muted"> {option.detail}</span>}
                    </div>
                  );
                })}
              </div>
            ))}
          </div>
          {q !== '' && results && options.length === 0 && <p className="muted command-palette-empty">No results</p>}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
