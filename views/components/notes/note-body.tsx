import type { ReactNode } from 'react';
import { parseNote, type Inline } from '@shared/note-format.js';
import type { MentionableUser } from '@shared/schemas/notes.js';

/** Inline formatting as React elements (never HTML): text, bold, italics, safe links, @mentions by name. */
function inline(parts: readonly Inline[], names: ReadonlyMap<string, string>, key = ''): ReactNode[] {
  return parts.map((part, i) => {
    const k = `${key}${i}`;
    switch (part.t) {
      case 'text':
        return part.v;
      case 'b':
        return <strong key={k}>{inline(part.c, names, `${k}.`)}</strong>;
      case 'i':
        return <em key={k}>{inline(part.c, names, `${k}.`)}</em>;
      case 'link':
        return (
          <a key={k} href={part.href} target="_blank" rel="noopener noreferrer nofollow">
            {inline(part.c, names, `${k}.`)}
          </a>
        );
      case 'mention':
        return (
          <span key={k} className="note-mention" title={part.email}>
            @{names.get(part.email) ?? part.email}
          </span>
        );
    }
  });
}

/** A note's body with its small formatting (src/shared/note-format.ts). */
export function NoteBody({ body, users = [] }: { body: string; users?: readonly MentionableUser[] }) {
  const names = new Map(users.map((user) => [user.email.toLowerCase(), user.name]));
  return (
    <div className="note-body">
      {parseNote(body).map((block, i) => {
        if (block.kind === 'p')
          return (
            <p key={i}>
              {block.lines.map((line, j) => (
                <span key={j}>
                  {j > 0 && <br />}
                  {inline(line, names, `${j}.`)}
                </span>
              ))}
            </p>
          );
        const items = block.items.map((item, j) => <li key={j}>{inline(item, names, `${j}.`)}</li>);
        return block.kind === 'ul' ? <ul key={i}>{items}</ul> : <ol key={i}>{items}</ol>;
      })}
    </div>
  );
}
